import {
  DEFAULT_LOBBY_GRACE_MS,
  DEFAULT_MAX_PLAYERS,
  DEFAULT_NEXT_QUESTION_SECONDS,
  DEFAULT_RESULTS_DELAY_MS,
  LOBBY_RECENT_NAMES,
} from "../rules";

export type Phase = "lobby" | "question" | "results" | "leaderboard" | "finished";

export interface EngineQuestion {
  id: number;
  text: string;
  answers: string[];
  correctAnswerIndex: number;
}

export interface AnswerRecord {
  playerId: number;
  questionId: number;
  questionIndex: number;
  answerIndex: number;
  responseTimeMs: number;
  correct: boolean;
  points: number;
  answeredAt: number;
}

export interface PlayerState {
  id: number;
  nickname: string;
  clientId: string;
  score: number;
  streak: number;
  correctCount: number;
  connected: boolean;
  joinedAt: number;
  /** Competition rank after the last closed question (1 = best); 0 before any. */
  rank: number;
  /** The answer to the current question, if any; stale when its questionIndex is not the current one. */
  lastAnswer: AnswerRecord | null;
  /** Neighbours in join order (a linked list, so the newest names are found without a scan). */
  joinedBefore: PlayerState | null;
  joinedAfter: PlayerState | null;
}

export interface GameSettings {
  resultsDelayMs: number;
  nextQuestionSeconds: number;
  lobbyGraceMs: number;
  maxPlayers: number;
}

export const DEFAULT_SETTINGS: GameSettings = {
  resultsDelayMs: DEFAULT_RESULTS_DELAY_MS,
  nextQuestionSeconds: DEFAULT_NEXT_QUESTION_SECONDS,
  lobbyGraceMs: DEFAULT_LOBBY_GRACE_MS,
  maxPlayers: DEFAULT_MAX_PLAYERS,
};

/**
 * The whole state of one game. Transitions mutate it in place so that an answer costs O(1)
 * with thousands of players (docs/decisions/0003-engine-mutates-in-place.md).
 */
export interface GameState {
  gameCode: string;
  title: string;
  timeLimitMs: number;
  questions: EngineQuestion[];
  settings: GameSettings;
  phase: Phase;
  /** 0 for the first game; Play Again starts the next round with the same players. */
  round: number;
  /** -1 until the first question starts. */
  questionIndex: number;
  questionStartedAt: number;
  questionEndsAt: number;
  /** When the current phase ends by itself; the room runs a `tick` then. */
  deadline: number | null;
  players: Map<number, PlayerState>;
  playersByClientId: Map<string, PlayerState>;
  /** Lower-cased nickname -> player, for case-insensitive uniqueness. */
  playersByNickname: Map<string, PlayerState>;
  nextPlayerId: number;
  connectedCount: number;
  /** Connected players who have not answered the open question; it closes early at 0. */
  pendingAnswers: number;
  answeredCount: number;
  answerCounts: [number, number, number, number];
  /** Players ordered by rank, recomputed when a question closes. */
  ranking: PlayerState[];
  /** The newest player still in the game: the tail of the join-order list. */
  newestPlayer: PlayerState | null;
  /** The host has closed the game to new players (those already in may still rejoin). */
  locked: boolean;
  /** Browsers the host removed; they cannot join this game again. */
  kickedClientIds: Set<string>;
}

export interface NewGameInput {
  gameCode: string;
  title: string;
  timeLimitSeconds: number;
  questions: EngineQuestion[];
  settings?: Partial<GameSettings>;
}

export function createGameState(input: NewGameInput): GameState {
  return {
    gameCode: input.gameCode,
    title: input.title,
    timeLimitMs: input.timeLimitSeconds * 1000,
    questions: input.questions,
    settings: { ...DEFAULT_SETTINGS, ...input.settings },
    phase: "lobby",
    round: 0,
    questionIndex: -1,
    questionStartedAt: 0,
    questionEndsAt: 0,
    deadline: null,
    players: new Map(),
    playersByClientId: new Map(),
    playersByNickname: new Map(),
    nextPlayerId: 1,
    connectedCount: 0,
    pendingAnswers: 0,
    answeredCount: 0,
    answerCounts: [0, 0, 0, 0],
    ranking: [],
    newestPlayer: null,
    locked: false,
    kickedClientIds: new Set(),
  };
}

export function nicknameKey(nickname: string): string {
  return nickname.toLocaleLowerCase("en-US");
}

export function currentQuestion(state: GameState): EngineQuestion | null {
  return state.questions[state.questionIndex] ?? null;
}

export function answerToCurrentQuestion(state: GameState, player: PlayerState): AnswerRecord | null {
  const answer = player.lastAnswer;
  return answer && answer.questionIndex === state.questionIndex ? answer : null;
}

export function isLastQuestion(state: GameState): boolean {
  return state.questionIndex >= state.questions.length - 1;
}

/** Adds a player to the game's indexes and to the tail of the join order. */
export function addPlayer(state: GameState, player: PlayerState): void {
  state.players.set(player.id, player);
  state.playersByClientId.set(player.clientId, player);
  state.playersByNickname.set(nicknameKey(player.nickname), player);
  state.nextPlayerId = Math.max(state.nextPlayerId, player.id + 1);
  player.joinedBefore = state.newestPlayer;
  player.joinedAfter = null;
  if (state.newestPlayer) state.newestPlayer.joinedAfter = player;
  state.newestPlayer = player;
}

export function removePlayer(state: GameState, player: PlayerState): void {
  state.players.delete(player.id);
  state.playersByClientId.delete(player.clientId);
  state.playersByNickname.delete(nicknameKey(player.nickname));
  if (player.joinedBefore) player.joinedBefore.joinedAfter = player.joinedAfter;
  if (player.joinedAfter) player.joinedAfter.joinedBefore = player.joinedBefore;
  if (state.newestPlayer === player) state.newestPlayer = player.joinedBefore;
  player.joinedBefore = null;
  player.joinedAfter = null;
}

/** The most recent joiners still in the game, oldest first; O(LOBBY_RECENT_NAMES). */
export function recentPlayers(state: GameState): PlayerState[] {
  const recent: PlayerState[] = [];
  for (let player = state.newestPlayer; player && recent.length < LOBBY_RECENT_NAMES; player = player.joinedBefore) {
    recent.push(player);
  }
  return recent.reverse();
}
