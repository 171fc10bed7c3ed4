import { kindOf } from "../kinds";
import type { PointsOption, QuestionKind } from "../question-kinds";
import { DEFAULT_LOBBY_GRACE_MS, DEFAULT_MAX_PLAYERS, DEFAULT_NEXT_QUESTION_SECONDS, DEFAULT_RESULTS_DELAY_MS, LOBBY_RECENT_NAMES } from "../rules";

/** `break`: between two rounds of a night (docs/decisions/0034-a-night-of-rounds.md). */
export type Phase = "lobby" | "question" | "results" | "leaderboard" | "break" | "finished";

/**
 * A question as the engine plays it: its kind is explicit, and what a kind does not use may be left
 * out (see QuestionContent in app/game/question-kinds.ts for the stored form).
 */
export interface EngineQuestion {
  id: number;
  kind: QuestionKind;
  text: string;
  /** The options (2-6) of choice, trueFalse, multiSelect and poll questions. */
  answers: string[];
  /** choice and trueFalse: the right option. */
  correctAnswerIndex: number;
  /** multiSelect: the right options. */
  correctAnswerIndexes?: number[];
  /** typeAnswer: the accepted answers as written. */
  acceptedAnswers?: string[];
  /** closestNumber: the true value. */
  correctNumber?: number | null;
  /** Seconds; null or absent takes the game's time limit. */
  timeLimit?: number | null;
  points?: PointsOption;
  imageId?: string | null;
}

/** What a player answered, beyond an option index: the picks, the text typed, or the number guessed. */
export type AnswerValue = number[] | string | number | null;

export interface AnswerRecord {
  playerId: number;
  questionId: number;
  questionIndex: number;
  /** The option picked (choice, trueFalse, poll); -1 for the other kinds. */
  answerIndex: number;
  value: AnswerValue;
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
  /** The team it plays for, in team mode; null until it picks one (or is given one at the start). */
  teamId: number | null;
  /** Points of the current round of a night (the whole game otherwise); `score` is the evening's total. */
  roundScore: number;
  /** What it added to its team's score: each question's points divided by the members who played it. */
  teamPoints: number;
  /** Neighbours in join order (a linked list, so the newest names are found without a scan). */
  joinedBefore: PlayerState | null;
  joinedAfter: PlayerState | null;
}

/**
 * A team (docs/decisions/0033-team-scoring.md). Its score is, per question, the average of its
 * members' points, summed: a team of five does not beat a team of two by being five.
 */
export interface TeamState {
  id: number;
  name: string;
  /** Players in the team now. */
  members: number;
  score: number;
  /** Points of the current round of a night. */
  roundScore: number;
  /** Competition rank by score after the last closed question; 0 before any. */
  rank: number;
  /** The last closed question: its members' points and how many played it, kept so an accepted typed answer can be added later. */
  questionPoints: number;
  questionMembers: number;
}

/** One round of a night: a quiz's title and questions, frozen when the night was planned. */
export interface RoundPlan {
  title: string;
  timeLimitMs: number;
  questions: EngineQuestion[];
}

export interface StandingEntry {
  rank: number;
  id: number;
  name: string;
  score: number;
}

/** A finished round of a night: its own standings (points of that round only), players and teams. */
export interface RoundResult {
  title: string;
  players: StandingEntry[];
  teams: StandingEntry[];
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
  /** When the open question closes: its start plus its time limit plus the time it spent paused. */
  questionEndsAt: number;
  /** The host's pauses of the open question, oldest first; the last one lasts while its `to` is null. */
  questionPauses: QuestionPause[];
  /** When the current phase ends by itself; the room runs a `tick` then. None while a question is paused. */
  deadline: number | null;
  players: Map<number, PlayerState>;
  playersByClientId: Map<string, PlayerState>;
  /** Lower-cased nickname -> player, for case-insensitive uniqueness. */
  playersByNickname: Map<string, PlayerState>;
  nextPlayerId: number;
  connectedCount: number;
  /** Connected players who have not answered the open question; it closes early at 0. */
  pendingAnswers: number;
  /**
   * A question restored mid-way (a restart, or another node taking the game over): the players who
   * had not answered it, counted in `pendingAnswers` though not yet back, so that the first player
   * back who answers does not close it on the others still reconnecting (issue 28). A player leaves
   * the set when it comes back (already counted) or is removed; the next question starts it empty.
   */
  awaitingReturn: Set<number>;
  answeredCount: number;
  /** Answers per option of the open question (picks, for multi-select); empty for typed kinds. */
  answerCounts: number[];
  /**
   * typeAnswer: each distinct answer (normalised) with how many typed it, the first spelling seen,
   * and whether it counts; kept as answers arrive, so closing the question scans no one.
   */
  typedAnswers: Map<string, TypedAnswerGroup>;
  /** The host shows pictures on players' devices too. */
  picturesOnPlayers: boolean;
  /** closestNumber, once closed: how the guesses spread (computed once, at the close). */
  numberSpread: NumberSpread | null;
  /** Players ordered by rank, recomputed when a question closes. */
  ranking: PlayerState[];
  /** The newest player still in the game: the tail of the join-order list. */
  newestPlayer: PlayerState | null;
  /** The host has closed the game to new players (those already in may still rejoin). */
  locked: boolean;
  /** Browsers the host removed; they cannot join this game again. */
  kickedClientIds: Set<string>;
  /** Team mode: players play for teams, and teams are ranked (docs/decisions/0033-team-scoring.md). */
  teamMode: boolean;
  teams: Map<number, TeamState>;
  teamsByName: Map<string, TeamState>;
  nextTeamId: number;
  /** Teams ordered by rank, recomputed when a question closes. */
  teamRanking: TeamState[];
  /**
   * The rounds of a night, in order; one for a single game. `round` is the current one's index in a
   * night (docs/decisions/0034-a-night-of-rounds.md); `questions` and `timeLimitMs` are its own.
   */
  rounds: RoundPlan[];
  /** The standings of each finished round of a night. */
  roundResults: RoundResult[];
  /** During a break: when the host said the next round begins ("Back in 10 minutes"); null without a countdown. */
  breakEndsAt: number | null;
}

/** One pause of an open question; `pausedBefore` is how long the question had been paused before it began. */
export interface QuestionPause {
  from: number;
  to: number | null;
  pausedBefore: number;
}

export interface NumberSpread {
  count: number;
  min: number;
  max: number;
  median: number;
  /** Up to 10 equal ranges from min to max with how many guesses fell in each. */
  buckets: { from: number; to: number; count: number }[];
}

export interface TypedAnswerGroup {
  text: string;
  count: number;
  correct: boolean;
}

export interface NewGameInput {
  gameCode: string;
  title: string;
  timeLimitSeconds: number;
  questions: EngineQuestion[];
  settings?: Partial<GameSettings>;
  /** A night: the first round's own title (`title` is the night's), and the rounds after it. */
  firstRoundTitle?: string;
  laterRounds?: RoundPlan[];
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
    questionPauses: [],
    deadline: null,
    players: new Map(),
    playersByClientId: new Map(),
    playersByNickname: new Map(),
    nextPlayerId: 1,
    connectedCount: 0,
    pendingAnswers: 0,
    awaitingReturn: new Set(),
    answeredCount: 0,
    answerCounts: [],
    typedAnswers: new Map(),
    picturesOnPlayers: false,
    numberSpread: null,
    ranking: [],
    newestPlayer: null,
    locked: false,
    kickedClientIds: new Set(),
    teamMode: false,
    teams: new Map(),
    teamsByName: new Map(),
    nextTeamId: 1,
    teamRanking: [],
    rounds: [
      { title: input.firstRoundTitle ?? input.title, timeLimitMs: input.timeLimitSeconds * 1000, questions: input.questions },
      ...(input.laterRounds ?? []),
    ],
    roundResults: [],
    breakEndsAt: null,
  };
}

/** A night chains several rounds; a single game is a night of one. */
export function isNight(state: GameState): boolean {
  return state.rounds.length > 1;
}

export function isLastRound(state: GameState): boolean {
  return state.round >= state.rounds.length - 1;
}

/** Case and spacing do not make two teams: "table 4" is "Table 4". */
export function teamKey(name: string): string {
  return name.trim().replace(/\s+/g, " ").toLocaleLowerCase("en-US");
}

export function teamOf(state: GameState, player: PlayerState): TeamState | null {
  return player.teamId === null ? null : (state.teams.get(player.teamId) ?? null);
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

/** Answers are counted per option for these kinds. */
export function optionCount(question: EngineQuestion): number {
  return kindOf(question.kind).hasOptions ? question.answers.length : 0;
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

const SPREAD_BUCKETS = 10;

/** The spread of a closest-number question's guesses. */
export function spreadOf(guesses: number[]): NumberSpread | null {
  if (guesses.length === 0) return null;
  const sorted = [...guesses].sort((a, b) => a - b);
  const min = sorted[0];
  const max = sorted[sorted.length - 1];
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  const bucketCount = min === max ? 1 : SPREAD_BUCKETS;
  const width = (max - min) / bucketCount;
  const buckets = Array.from({ length: bucketCount }, (_, i) => ({ from: min + i * width, to: i === bucketCount - 1 ? max : min + (i + 1) * width, count: 0 }));
  for (const guess of sorted) buckets[width === 0 ? 0 : Math.min(bucketCount - 1, Math.floor((guess - min) / width))].count++;
  return { count: sorted.length, min, max, median, buckets };
}
