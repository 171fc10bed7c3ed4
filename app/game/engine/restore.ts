/**
 * Rebuilds a game's state from what the database holds, after a restart or a crash. Scores and
 * streaks are derived from the stored answers of the current round, so they equal the sum of
 * acknowledged answers.
 */
import { kindOf } from "../kinds";
import {
  addPlayer,
  createGameState,
  optionCount,
  spreadOf,
  type AnswerRecord,
  type GameState,
  type NewGameInput,
  type Phase,
  type PlayerState,
  type QuestionPause,
} from "./state";
import { resultsDelayMsOf, timeLimitMsOf } from "./clock";
import { countAnswer } from "./commands/question";
import { keepsStreak } from "./commands/judge";
import { rank } from "./commands/reveal";
import { addTeam, rankTeams } from "./teams";
import type { RoundResult, TeamState } from "./state";

export interface StoredPlayer {
  id: number;
  nickname: string;
  clientId: string;
  joinedAt: number;
  teamId?: number | null;
  /** What it added to its team's score (docs/decisions/0033-team-scoring.md). */
  teamPoints?: number;
  /** A night: its points and right answers of the rounds before the current one. */
  earlierRoundsScore?: number;
  earlierRoundsCorrect?: number;
}

/** A team as stored with its game. */
export type StoredTeam = Omit<TeamState, "members" | "rank">;

/**
 * What a game keeps beyond its phase: team mode, the teams with their scores, the finished rounds'
 * standings of a night and its break's countdown. Small (at most MAX_TEAMS teams and MAX_ROUNDS rounds).
 */
export interface StoredEvening {
  /** A night's own title (its rounds have theirs). */
  title?: string;
  teamMode: boolean;
  teams: StoredTeam[];
  roundResults: RoundResult[];
  breakEndsAt: number | null;
}

export function eveningToStored(state: GameState): StoredEvening {
  return {
    title: state.title,
    teamMode: state.teamMode,
    teams: [...state.teams.values()].map(({ id, name, score, roundScore, questionPoints, questionMembers }) => ({
      id,
      name,
      score,
      roundScore,
      questionPoints,
      questionMembers,
    })),
    roundResults: state.roundResults,
    breakEndsAt: state.breakEndsAt,
  };
}

export type StoredPause = [from: number, to: number | null];

/** Pauses as stored, with how long the question had been paused before each. */
export function pausesFromStored(stored: StoredPause[]): QuestionPause[] {
  let pausedBefore = 0;
  return stored.map(([from, to]) => {
    const pause = { from, to, pausedBefore };
    if (to !== null) pausedBefore += to - from;
    return pause;
  });
}

export function pausesToStored(pauses: QuestionPause[]): StoredPause[] {
  return pauses.map((pause) => [pause.from, pause.to]);
}

export interface StoredProgress {
  phase: Phase;
  round: number;
  questionIndex: number;
  questionStartedAt: number | null;
  /** The open question's pauses as [from, to], oldest first; `to` is null for a pause still on. */
  questionPauses?: StoredPause[];
  locked?: boolean;
  picturesOnPlayers?: boolean;
  /** Browsers the host removed from this game. */
  kickedClientIds?: string[];
  evening?: StoredEvening;
}

export function restoreGameState(
  input: NewGameInput,
  progress: StoredProgress,
  storedPlayers: StoredPlayer[],
  answers: AnswerRecord[],
  now: number,
): GameState {
  const state = createGameState(input);
  const byPlayer = new Map<number, Map<number, AnswerRecord>>();
  for (const answer of answers) {
    let perQuestion = byPlayer.get(answer.playerId);
    if (!perQuestion) byPlayer.set(answer.playerId, (perQuestion = new Map()));
    perQuestion.set(answer.questionIndex, answer);
  }
  const phase: Phase = progress.questionIndex < 0 && progress.phase !== "finished" ? "lobby" : progress.phase;
  state.phase = phase;
  state.round = progress.round;
  state.questionIndex = phase === "lobby" ? -1 : progress.questionIndex;
  state.locked = progress.locked ?? false;
  state.picturesOnPlayers = progress.picturesOnPlayers ?? false;
  state.kickedClientIds = new Set(progress.kickedClientIds ?? []);
  const evening = progress.evening;
  if (evening) {
    state.teamMode = evening.teamMode;
    for (const team of evening.teams) addTeam(state, { ...team, members: 0, rank: 0 });
    state.roundResults = evening.roundResults;
    state.breakEndsAt = phase === "break" ? evening.breakEndsAt : null;
  }
  // A night plays the questions of its current round.
  const plan = state.rounds.length > 1 ? state.rounds[state.round] : undefined;
  if (plan) {
    state.questions = plan.questions;
    state.timeLimitMs = plan.timeLimitMs;
  }

  for (const stored of storedPlayers) {
    const own = byPlayer.get(stored.id) ?? new Map<number, AnswerRecord>();
    let score = 0;
    let correctCount = 0;
    for (const answer of own.values()) {
      score += answer.points;
      if (answer.correct) correctCount++;
    }
    let streak = 0;
    for (let index = state.questionIndex; index >= 0; index--) {
      const question = state.questions[index];
      if (question && keepsStreak(question)) continue;
      const answer = own.get(index);
      if (!answer && index === state.questionIndex && phase === "question") continue; // still open
      if (!answer?.correct) break;
      streak++;
    }
    const team = stored.teamId != null ? state.teams.get(stored.teamId) : undefined;
    if (team) team.members++;
    const player: PlayerState = {
      id: stored.id,
      nickname: stored.nickname,
      clientId: stored.clientId,
      score: score + (stored.earlierRoundsScore ?? 0),
      roundScore: score,
      teamId: team ? team.id : null,
      teamPoints: stored.teamPoints ?? 0,
      streak,
      correctCount: correctCount + (stored.earlierRoundsCorrect ?? 0),
      connected: false,
      joinedAt: stored.joinedAt,
      rank: 0,
      lastAnswer: own.get(state.questionIndex) ?? null,
      joinedBefore: null,
      joinedAfter: null,
    };
    addPlayer(state, player);
  }
  if (phase === "lobby") return state;

  rank(state);
  if (state.teamMode) rankTeams(state);
  const question = state.questions[state.questionIndex];
  state.answerCounts = new Array<number>(question ? optionCount(question) : 0).fill(0);
  const guesses: number[] = [];
  for (const player of state.players.values()) {
    if (!player.lastAnswer) continue;
    state.answeredCount++;
    countAnswer(state, player.lastAnswer, undefined, player.lastAnswer.correct, 1);
    if (typeof player.lastAnswer.value === "number") guesses.push(player.lastAnswer.value);
  }
  if (question && kindOf(question.kind).scoredAtClose && phase !== "question") state.numberSpread = spreadOf(guesses);
  state.questionStartedAt = progress.questionStartedAt ?? now;
  state.questionEndsAt = state.questionStartedAt + timeLimitMsOf(state, state.questionIndex);
  switch (phase) {
    case "question": {
      // A paused question stays paused with the time it had left, however long the server was down
      // (the host resumes it); a running one continues with the time it had left, and the room's
      // tick closes it at once if none is left.
      state.questionPauses = pausesFromStored(progress.questionPauses ?? []);
      const last = state.questionPauses[state.questionPauses.length - 1];
      if (last) state.questionEndsAt += last.pausedBefore + (last.to === null ? 0 : last.to - last.from);
      state.deadline = last && last.to === null ? null : state.questionEndsAt;
      // Nobody is connected yet: the players who have not answered are awaited as they come back,
      // so that the question closes early only once all of them answered (state.ts, awaitingReturn).
      for (const player of state.players.values()) if (!player.lastAnswer) state.awaitingReturn.add(player.id);
      state.pendingAnswers = state.awaitingReturn.size;
      break;
    }
    case "results":
      state.deadline = now + resultsDelayMsOf(state);
      break;
    case "leaderboard":
      state.deadline = now + state.settings.nextQuestionSeconds * 1000;
      break;
    case "break":
    case "finished":
      state.deadline = null;
      break;
  }
  return state;
}
