/**
 * The client's game state (docs/product.md#client-state) as a pure reducer over server messages and
 * local actions, so every transition is unit-testable without a browser.
 */
import { DEFAULT_TIME_LIMIT_SECONDS } from "../rules";
import type { ErrorValues, ServerMessage, ServerPayload } from "../protocol";
import type {
  AnswerValueView,
  LobbyPlayer,
  NamedStanding,
  NumberSpreadView,
  OwnStanding,
  PlayerRef,
  PlayerResult,
  PublicQuestion,
  RoundInfo,
  RoundResultView,
  Standing,
  TeamRef,
  TypedAnswerSummary,
} from "../protocol-views";
import { onServerMessage } from "./game-state-messages";

export type Phase = ServerPayload<"GAME_SNAPSHOT">["phase"];

export type AnswerStatus = "idle" | "submitting" | "success" | "error";
export type { LobbyPlayer, PlayerRef };

/** A page that stays put whatever the phase: the projector's display, or the host's phone (docs/decisions/0032). */
export type Surface = "display" | "remote";

export interface ClientGameState {
  gameCode: string | null;
  nickname: string | null;
  isHost: boolean;
  /** Watching with the game's display key: sees what the projector shows, never acts. */
  isDisplay: boolean;
  /** The page this browser keeps for every phase, if any; otherwise the screen follows the phase. */
  surface: Surface | null;
  playerId: number | null;
  /** Set while a JOIN_GAME waits for its answer. */
  joining: boolean;
  /** Why the last join was refused (unknown code, nickname taken, ...), in the server's English. */
  joinError: string | null;
  /** The refusal's family code (KICKED, NOT_HOST, ...), as the protocol names it. */
  joinErrorCode: string | null;
  /** The refusal's `errors` catalog key and values, for `useSayError` to say it in the page's language. */
  joinErrorKey: string | null;
  joinErrorValues: ErrorValues | null;
  title: string;
  phase: Phase | null;
  /** The lobby's players: every one with its id on a host's screen; the newest names alone on a player's or a display's. */
  players: LobbyPlayer[];
  playerCount: number;
  currentQuestion: PublicQuestion | null;
  questionNumber: number;
  totalQuestions: number;
  timeLimit: number;
  /** Server epoch ms when the question closes, and serverNow minus the local clock. */
  endsAt: number | null;
  clockOffsetMs: number;
  /** While the host has paused the question: the time it has left, which holds until it resumes. */
  pausedRemainingMs: number | null;
  correctAnswerIndex: number | null;
  /** The reveal, as the question's kind has it. */
  reveal: Reveal | null;
  selectedAnswerIndex: number | null;
  /** What this player answered beyond an option: picks, text or number. */
  submittedValue: AnswerValueView;
  answerStatus: AnswerStatus;
  answerError: string | null;
  answerErrorCode: string | null;
  answerErrorKey: string | null;
  answerErrorValues: ErrorValues | null;
  isQuestionActive: boolean;
  isShowingResults: boolean;
  isGameOver: boolean;
  answeredCount: number;
  answerCounts: number[];
  answerResults: PlayerResult[];
  leaderboard: Standing[];
  myStanding: OwnStanding | null;
  isLastLeaderboard: boolean;
  nextQuestionIn: number;
  /** Local time the leaderboard arrived, for the 'Next question in N seconds' countdown. */
  leaderboardShownAt: number | null;
  /** The host closed the game to new players. */
  locked: boolean;
  /** The host shows pictures on players' devices. */
  picturesOnPlayers: boolean;
  /** The next question's picture, fetched ahead while the leaderboard is up. */
  nextImage: string | null;
  /** Team mode: the teams with their sizes, and this player's own team (null until it picks one). */
  teamMode: boolean;
  teams: TeamRef[];
  myTeamId: number | null;
  /** Team mode: the teams' standings on the leaderboard, the break and the podium. */
  teamStandings: NamedStanding[];
  /** A night: the current round; null for a single game. */
  round: RoundInfo | null;
  /** A night: each finished round's own standings. */
  roundResults: RoundResultView[];
  nextRoundTitle: string;
  /** During a break: when the host said the next round begins (server epoch ms), or null. */
  breakEndsAt: number | null;
}

export interface Reveal {
  kind: PublicQuestion["kind"];
  correctAnswerIndexes: number[];
  acceptedAnswers: string[];
  correctNumber: number | null;
  numberSpread: NumberSpreadView | null;
  /** Host only: every distinct typed answer with its count. */
  typedAnswers: TypedAnswerSummary[];
}

export const initialGameState: ClientGameState = {
  gameCode: null,
  nickname: null,
  isHost: false,
  isDisplay: false,
  surface: null,
  playerId: null,
  joining: false,
  joinError: null,
  joinErrorCode: null,
  joinErrorKey: null,
  joinErrorValues: null,
  title: "",
  phase: null,
  players: [],
  playerCount: 0,
  currentQuestion: null,
  questionNumber: 0,
  totalQuestions: 0,
  timeLimit: DEFAULT_TIME_LIMIT_SECONDS,
  endsAt: null,
  clockOffsetMs: 0,
  pausedRemainingMs: null,
  correctAnswerIndex: null,
  reveal: null,
  selectedAnswerIndex: null,
  submittedValue: null,
  answerStatus: "idle",
  answerError: null,
  answerErrorCode: null,
  answerErrorKey: null,
  answerErrorValues: null,
  isQuestionActive: false,
  isShowingResults: false,
  isGameOver: false,
  answeredCount: 0,
  answerCounts: [],
  answerResults: [],
  leaderboard: [],
  myStanding: null,
  isLastLeaderboard: false,
  nextQuestionIn: 5,
  leaderboardShownAt: null,
  locked: false,
  picturesOnPlayers: false,
  nextImage: null,
  teamMode: false,
  teams: [],
  myTeamId: null,
  teamStandings: [],
  round: null,
  roundResults: [],
  nextRoundTitle: "",
  breakEndsAt: null,
};

export type GameAction =
  | { type: "server"; message: ServerMessage; receivedAt: number }
  | { type: "joining"; gameCode: string; nickname: string; isHost: boolean; surface?: Surface }
  | { type: "answerSubmitting"; answerIndex: number | null; value?: AnswerValueView }
  | { type: "reset" };

/** Errors that end this browser's part in the game, with the key (in the `game` catalog) of the toast title each shows. */
export const FINAL_ERROR_TITLES: Record<string, string> = {
  KICKED: "toasts.kicked",
  GAME_CLOSED: "toasts.gameClosed",
  /** A display or remote whose link the host replaced (docs/decisions/0032-display-and-remote.md). */
  LINK_REPLACED: "toasts.linkReplaced",
};

export function isFinalError(code: string | undefined): boolean {
  return code !== undefined && code in FINAL_ERROR_TITLES;
}

export function gameReducer(state: ClientGameState, action: GameAction): ClientGameState {
  switch (action.type) {
    case "reset":
      return initialGameState;
    case "joining":
      return {
        ...initialGameState,
        gameCode: action.gameCode,
        nickname: action.nickname,
        isHost: action.isHost,
        surface: action.surface ?? null,
        joining: true,
        clockOffsetMs: state.clockOffsetMs,
      };
    case "answerSubmitting":
      return {
        ...state,
        selectedAnswerIndex: action.answerIndex,
        submittedValue: action.value ?? null,
        answerStatus: "submitting",
        answerError: null,
        answerErrorCode: null,
        answerErrorKey: null,
        answerErrorValues: null,
      };
    case "server":
      return onServerMessage(state, action.message, action.receivedAt);
  }
}

/** Where a game screen should be for this state; null when the browser is in no game. */
export function screenFor(state: ClientGameState): string | null {
  if (!state.gameCode || state.joining || !state.phase) return null;
  const code = state.gameCode;
  if (state.surface) return `/${state.surface}/${code}`;
  switch (state.phase) {
    case "lobby":
      return `/waiting/${code}`;
    case "question":
      return state.isHost ? `/host/${code}` : `/play/${code}`;
    case "results":
      return state.isHost ? `/host/${code}` : `/result/${code}`;
    case "leaderboard":
      return `/leaderboard/${code}`;
    case "break":
      return `/break/${code}`;
    case "finished":
      return `/results/${code}`;
  }
}

/** Milliseconds left until the server's `endsAt`, on the server's clock; the kept time while paused. */
export function timeLeftMs(state: Pick<ClientGameState, "endsAt" | "clockOffsetMs" | "pausedRemainingMs">, localNow: number): number {
  if (state.pausedRemainingMs !== null) return state.pausedRemainingMs;
  if (state.endsAt === null) return 0;
  return Math.max(0, state.endsAt - (localNow + state.clockOffsetMs));
}
