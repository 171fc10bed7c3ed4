import { LEADERBOARD_SIZE, MAX_BREAK_MINUTES } from "../../rules";
import { rankedBy, resetTeamScores, teamStandings } from "../teams";
import { isNight, type GameState, type RoundResult } from "../state";
import { type Actor, type Effect, type TransitionResult, reject } from "../transition";
import { startQuestion } from "./question";

/** The standings of the round just played, by its own points: the top of the players, every team. */
export function roundResult(state: GameState): RoundResult {
  const byRound = rankedBy(
    [...state.players.values()].map((player) => ({ id: player.id, name: player.nickname, rank: 0, score: player.roundScore })),
    (entry) => entry.score,
  ).slice(0, LEADERBOARD_SIZE);
  return {
    title: state.rounds[state.round]?.title ?? state.title,
    players: byRound,
    teams: state.teamMode ? teamStandings(state.teams.values(), (team) => team.roundScore, Number.MAX_SAFE_INTEGER) : [],
  };
}

/** The host's Next during a break: the night's next round, its first question at once. */
export function startNextRound(state: GameState, now: number): Effect[] {
  state.round++;
  const plan = state.rounds[state.round];
  state.questions = plan.questions;
  state.timeLimitMs = plan.timeLimitMs;
  state.breakEndsAt = null;
  state.questionIndex = -1;
  // Streaks and the round's points start again; the evening's total carries on.
  for (const player of state.players.values()) {
    player.roundScore = 0;
    player.streak = 0;
    player.lastAnswer = null;
  }
  for (const team of state.teams.values()) team.roundScore = 0;
  return [{ type: "roundStarted" }, ...startQuestion(state, 0, now)];
}

/** "Back in N minutes" on every screen during a break; it tells the room, it starts nothing (the host does). */
export function breakTimer(state: GameState, actor: Actor, minutes: number, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", "NOT_HOST_BREAK");
  if (state.phase !== "break") return reject("NOT_IN_BREAK");
  if (!Number.isInteger(minutes) || minutes < 0 || minutes > MAX_BREAK_MINUTES) return reject("BAD_BREAK");
  state.breakEndsAt = minutes === 0 ? null : now + minutes * 60_000;
  return { effects: [{ type: "breakTimerSet" }] };
}

/** Play Again: back to the lobby with the same players and fresh scores, for another round. */
export function playAgain(state: GameState, actor: Actor): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", "NOT_HOST_PLAY_AGAIN");
  if (state.phase !== "finished") return reject("NOT_OVER");
  if (isNight(state)) return reject("NIGHT_OVER");
  state.round++;
  state.phase = "lobby";
  state.questionIndex = -1;
  state.questionStartedAt = 0;
  state.questionEndsAt = 0;
  state.questionPauses = [];
  state.deadline = null;
  state.answeredCount = 0;
  state.answerCounts = [];
  state.typedAnswers = new Map();
  state.pendingAnswers = 0;
  state.ranking = [];
  resetTeamScores(state);
  for (const player of state.players.values()) {
    player.score = 0;
    player.roundScore = 0;
    player.teamPoints = 0;
    player.streak = 0;
    player.correctCount = 0;
    player.rank = 0;
    player.lastAnswer = null;
  }
  return { effects: [{ type: "gameReset" }] };
}
