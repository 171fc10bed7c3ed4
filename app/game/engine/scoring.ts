/**
 * Speed-based scoring; the reasoning is in docs/decisions/0004-scoring.md.
 * A correct answer earns 500-1000 points by speed plus a streak bonus; anything else earns 0.
 */
export const MAX_POINTS = 1000;
export const FULL_POINTS_WINDOW_MS = 500;
export const STREAK_BONUS_STEP = 100;
export const STREAK_BONUS_MAX = 500;

export interface ScoreInput {
  correct: boolean;
  responseTimeMs: number;
  timeLimitMs: number;
  /** The streak including this answer: 1 for a first correct answer in a row. */
  streak: number;
}

export function speedPoints(responseTimeMs: number, timeLimitMs: number): number {
  if (responseTimeMs < FULL_POINTS_WINDOW_MS) return MAX_POINTS;
  const fraction = Math.min(Math.max(responseTimeMs / timeLimitMs, 0), 1);
  return Math.round(MAX_POINTS * (1 - fraction / 2));
}

export function streakBonus(streak: number): number {
  if (streak <= 1) return 0;
  return Math.min(STREAK_BONUS_STEP * (streak - 1), STREAK_BONUS_MAX);
}

export function scoreAnswer({ correct, responseTimeMs, timeLimitMs, streak }: ScoreInput): number {
  if (!correct) return 0;
  return speedPoints(responseTimeMs, timeLimitMs) + streakBonus(streak);
}
