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

// ------------------------------------------------------------------ per kind (docs/decisions/0018-question-kinds.md)

/**
 * Multi-select: the share of the right options picked, less one share for each wrong pick, never
 * below 0; 1 only for exactly the right set.
 */
export function multiSelectFraction(picks: readonly number[], correct: readonly number[]): number {
  if (correct.length === 0) return 0;
  let right = 0;
  for (const pick of picks) if (correct.includes(pick)) right++;
  const wrong = picks.length - right;
  return Math.max(0, right - wrong) / correct.length;
}

/**
 * Closest number: the distance from the true value, measured against the room. The furthest guess
 * (or a tenth of the true value, or 1, whichever is largest) is the distance at which points reach
 * 0, so an exact guess earns everything, a closer guess never earns less than a further one, and a
 * lone guesser one off still earns nearly everything.
 */
export function closenessScale(truth: number, furthestDistance: number): number {
  return Math.max(furthestDistance, Math.abs(truth) / 10, 1);
}

export function closenessFraction(guess: number, truth: number, scale: number): number {
  const distance = Math.abs(guess - truth);
  if (distance === 0) return 1;
  return Math.max(0, 1 - distance / scale);
}

/**
 * What a judged answer earns: speed points scaled by how right it was (a fraction 0-1) and by the
 * question's points multiplier (0, 1 or 2), plus the streak bonus when it was fully right.
 */
export function scoreJudged({
  fraction,
  responseTimeMs,
  timeLimitMs,
  streak,
  multiplier,
}: {
  fraction: number;
  responseTimeMs: number;
  timeLimitMs: number;
  streak: number;
  multiplier: number;
}): number {
  if (fraction <= 0 || multiplier === 0) return 0;
  const base = Math.round(speedPoints(responseTimeMs, timeLimitMs) * Math.min(fraction, 1)) * multiplier;
  return base + (fraction >= 1 ? streakBonus(streak) : 0);
}
