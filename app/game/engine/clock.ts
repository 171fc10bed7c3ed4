/**
 * The open question's clock, read from the state: its time limit, how long its results stay up,
 * and its pauses (the host's pause keeps the time left). Pure readers, like the rest of the engine.
 */
import { kindOf } from "../kinds";
import type { GameState, QuestionPause } from "./state";

/** The time limit of the question at `index`: its own, else the game's. */
export function timeLimitMsOf(state: GameState, index: number): number {
  const own = state.questions[index]?.timeLimit;
  return own ? own * 1000 : state.timeLimitMs;
}

/**
 * How long a question's results stay up before the leaderboard: longer after a typed question, so
 * the host can read what was typed and accept an answer marked wrong (or press Next sooner).
 */
export const TYPED_REVIEW_MS = 20_000;
export function resultsDelayMsOf(state: GameState): number {
  const question = state.questions[state.questionIndex];
  return question && kindOf(question.kind).typed ? Math.max(state.settings.resultsDelayMs, TYPED_REVIEW_MS) : state.settings.resultsDelayMs;
}

/** The pause the open question is in, if the host has paused it. */
export function currentPause(state: GameState): QuestionPause | null {
  const last = state.questionPauses[state.questionPauses.length - 1];
  return state.phase === "question" && last && last.to === null ? last : null;
}

export function isPaused(state: GameState): boolean {
  return currentPause(state) !== null;
}

/** How long the open question was paused before `time`; a pause still on counts up to `time`. O(log pauses). */
export function pausedMsBefore(state: GameState, time: number): number {
  const pauses = state.questionPauses;
  let low = 0;
  let high = pauses.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (pauses[middle].from < time) low = middle + 1;
    else high = middle;
  }
  const pause = pauses[low - 1];
  if (!pause) return 0;
  return pause.pausedBefore + Math.min(time, pause.to ?? time) - pause.from;
}

/** The open question's time left at `now`: kept as it was when paused, while it is. */
export function remainingMsOf(state: GameState, now: number): number {
  const pause = currentPause(state);
  return Math.max(0, state.questionEndsAt - (pause ? pause.from : now));
}
