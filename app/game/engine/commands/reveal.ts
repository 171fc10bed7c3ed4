import { isLastRound, isNight, isLastQuestion, type GameState } from "../state";
import { type Actor, type Effect, type TransitionResult, reject } from "../transition";
import { startQuestion, closeQuestion } from "./question";
import { roundResult, startNextRound } from "./rounds";

/** Competition ranking ("1, 2, 2, 4"); ties are listed by nickname so every view agrees. */
export function rank(state: GameState): void {
  const ranking = [...state.players.values()].sort((a, b) => b.score - a.score || a.nickname.localeCompare(b.nickname) || a.id - b.id);
  ranking.forEach((player, index) => {
    const previous = ranking[index - 1];
    player.rank = previous && previous.score === player.score ? previous.rank : index + 1;
  });
  state.ranking = ranking;
}

function showLeaderboard(state: GameState, now: number): Effect[] {
  state.phase = "leaderboard";
  state.deadline = now + state.settings.nextQuestionSeconds * 1000;
  return [{ type: "leaderboardShown" }];
}

function advance(state: GameState, now: number): Effect[] {
  if (isLastQuestion(state)) {
    if (isNight(state)) state.roundResults.push(roundResult(state));
    state.deadline = null;
    if (isNight(state) && !isLastRound(state)) {
      state.phase = "break";
      state.breakEndsAt = null;
      return [{ type: "roundOver" }];
    }
    state.phase = "finished";
    return [{ type: "gameOver" }];
  }
  return startQuestion(state, state.questionIndex + 1, now);
}

/** Ends the current phase early or on time: question -> results -> leaderboard -> next question. */
function step(state: GameState, now: number): Effect[] | null {
  switch (state.phase) {
    case "question":
      return closeQuestion(state, now);
    case "results":
      return showLeaderboard(state, now);
    case "leaderboard":
      return advance(state, now);
    default:
      return null;
  }
}

/**
 * End game: from any phase of a started game straight to the podium. An open question is closed and
 * scored first, so the answers already given count; it is not revealed (docs/product.md#game-flow).
 */
export function end(state: GameState, actor: Actor, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", "NOT_HOST_END");
  if (state.phase === "lobby") return reject("NOT_STARTED");
  if (state.phase === "finished") return reject("GAME_OVER");
  const closed = state.phase === "question" ? closeQuestion(state, now) : [];
  // Ended during a round of a night: that round's standings are kept as far as it went.
  if (isNight(state) && state.phase !== "break") state.roundResults.push(roundResult(state));
  state.breakEndsAt = null;
  state.phase = "finished";
  state.deadline = null;
  return { effects: [...closed, { type: "gameOver", endedEarly: true }] };
}

/** The host's Skip / Next: each press moves one step. */
export function next(state: GameState, actor: Actor, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", "NOT_HOST_NEXT");
  if (state.phase === "break") return { effects: startNextRound(state, now) };
  const effects = step(state, now);
  return effects ? { effects } : reject("NOTHING_TO_ADVANCE");
}

export function tick(state: GameState, now: number): TransitionResult {
  if (state.deadline === null || now < state.deadline) return { effects: [] };
  return { effects: step(state, now) ?? [] };
}
