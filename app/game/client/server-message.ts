/**
 * The browser's check of what the game server sends: a known `type` and a payload of the shape the
 * client reads, field by field. The server is ours and builds every message from the zod schemas
 * of protocol.ts (the integration tests hold it to them); this check only keeps a message from
 * another version of the server, or a broken frame, out of the game state. It is written without
 * zod so that none of zod reaches a player's phone (issue 16), and its table is typed against
 * those schemas, so a field added to or renamed in the protocol fails to compile here.
 */
import type { ServerMessage, ServerMessageType, ServerPayload } from "../protocol";
import type {
  LobbyName,
  LobbyPlayer,
  NamedStanding,
  NumberSpreadView,
  OwnStanding,
  OwnTeam,
  RoundInfo,
  RoundResultView,
  TeamRef,
  PlayerRef,
  PlayerResult,
  PublicQuestion,
  Standing,
  TypedAnswerSummary,
} from "../protocol-views";
import { POINTS_OPTIONS } from "../question-kinds";
import { QUESTION_KINDS } from "../kinds";

type Check = (value: unknown) => boolean;
/** A check for every field of T, optional ones included. */
type Shape<T> = { [Key in keyof T]-?: Check };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const string: Check = (value) => typeof value === "string";
const number: Check = (value) => typeof value === "number";
const boolean: Check = (value) => typeof value === "boolean";
const oneOf =
  (...values: readonly string[]): Check =>
  (value) =>
    typeof value === "string" && values.includes(value);
const list =
  (item: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(item);
const nullable =
  (check: Check): Check =>
  (value) =>
    value === null || check(value);
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
/** An object whose every value passes `value` (an ERROR's values). */
const record =
  (value: Check): Check =>
  (data) =>
    isRecord(data) && Object.values(data).every(value);
function object<T>(shape: Shape<T>): Check {
  const fields = Object.entries(shape) as Array<[string, Check]>;
  return (value) => isRecord(value) && fields.every(([name, check]) => check(value[name]));
}

const kind = oneOf(...QUESTION_KINDS);
const playerRef = object<PlayerRef>({ id: number, nickname: string });
const lobbyName = object<LobbyName>({ nickname: string });
const lobbyPlayer = object<LobbyPlayer>({ id: optional(number), nickname: string });
const standing = object<Standing>({ rank: number, id: number, nickname: string, score: number });
const ownTeam = object<OwnTeam>({ id: number, name: string, rank: number, score: number, contribution: number });
const ownStanding = object<OwnStanding>({ rank: number, score: number, team: optional(ownTeam) });
const namedStanding = object<NamedStanding>({ rank: number, id: number, name: string, score: number });
const teamRef = object<TeamRef>({ id: number, name: string, members: number });
const roundInfo = object<RoundInfo>({ number: number, total: number, title: string });
const roundResult = object<RoundResultView>({ title: string, players: list(namedStanding), teams: list(namedStanding) });
const answerValue = nullable((value) => string(value) || number(value) || list(number)(value));
const question = object<PublicQuestion>({
  id: number,
  kind,
  text: string,
  answers: list(string),
  points: oneOf(...POINTS_OPTIONS),
  image: nullable(string),
  imageOnPlayers: boolean,
});
const numberSpread = object<NumberSpreadView>({
  count: number,
  min: number,
  max: number,
  median: number,
  buckets: list(object<NumberSpreadView["buckets"][number]>({ from: number, to: number, count: number })),
});
const typedAnswer = object<TypedAnswerSummary>({ text: string, count: number, correct: boolean });
const playerResult = object<PlayerResult>({
  playerId: number,
  nickname: string,
  answerIndex: nullable(number),
  value: optional(answerValue),
  correct: boolean,
  points: number,
  responseTimeMs: nullable(number),
  score: number,
  streak: number,
  rank: number,
});

const PAYLOADS: { [Type in ServerMessageType]: Shape<ServerPayload<Type>> } = {
  ERROR: { message: string, code: optional(string), key: optional(string), values: optional(record((value) => string(value) || number(value))) },
  PLAYER_JOINED: { player: playerRef },
  PLAYER_LEFT: { playerId: number },
  LOBBY_UPDATE: { playerCount: number, players: list(lobbyName) },
  GAME_SNAPSHOT: {
    gameCode: string,
    title: string,
    role: oneOf("host", "player", "display"),
    playerId: nullable(number),
    phase: oneOf("lobby", "question", "results", "leaderboard", "break", "finished"),
    questionNumber: number,
    totalQuestions: number,
    timeLimit: number,
    playerCount: number,
    players: list(lobbyPlayer),
    locked: optional(boolean),
    picturesOnPlayers: optional(boolean),
    teamMode: optional(boolean),
    teams: optional(list(teamRef)),
    teamId: optional(nullable(number)),
    round: optional(roundInfo),
  },
  TEAMS_UPDATE: { teamMode: boolean, teams: list(teamRef) },
  TEAM_CHOSEN: { teamId: nullable(number) },
  ROUND_OVER: {
    round: roundInfo,
    nextRoundTitle: string,
    players: list(standing),
    teams: optional(list(namedStanding)),
    rounds: list(roundResult),
    playerCount: number,
    breakEndsAt: nullable(number),
    serverNow: number,
    you: optional(ownStanding),
  },
  BREAK_TIMER: { breakEndsAt: nullable(number), serverNow: number },
  LOBBY_LOCKED: { locked: boolean },
  PICTURES_ON_PLAYERS: { enabled: boolean },
  GAME_STARTED: { questionCount: number },
  QUESTION_STARTED: {
    question,
    questionNumber: number,
    totalQuestions: number,
    timeLimit: number,
    endsAt: number,
    serverNow: number,
    pausedRemainingMs: optional(number),
    round: optional(roundInfo),
  },
  QUESTION_PAUSED: { questionNumber: number, remainingMs: number },
  QUESTION_RESUMED: { questionNumber: number, remainingMs: number, endsAt: number, serverNow: number },
  ANSWER_ACCEPTED: { questionNumber: number, answerIndex: optional(number), value: optional(answerValue) },
  ANSWER_PROGRESS: { questionNumber: number, answeredCount: number, playerCount: number, answerCounts: list(number) },
  ANSWER_RESULTS: {
    questionNumber: number,
    kind,
    correctAnswerIndex: number,
    correctAnswerIndexes: list(number),
    acceptedAnswers: list(string),
    correctNumber: nullable(number),
    numberSpread: nullable(numberSpread),
    answeredCount: optional(number),
    answerCounts: list(number),
    typedAnswers: optional(list(typedAnswer)),
    playerResults: list(playerResult),
    question: optional(question),
  },
  LEADERBOARD_UPDATE: {
    players: list(standing),
    isLastLeaderboard: boolean,
    nextQuestionIn: number,
    questionNumber: number,
    totalQuestions: number,
    playerCount: number,
    nextImage: optional(nullable(string)),
    teams: optional(list(namedStanding)),
    round: optional(roundInfo),
    you: optional(ownStanding),
  },
  GAME_OVER: {
    players: list(standing),
    playerCount: number,
    teams: optional(list(namedStanding)),
    rounds: optional(list(roundResult)),
    you: optional(ownStanding),
  },
};

/** Every message type the server sends. */
export const SERVER_MESSAGE_TYPES = Object.keys(PAYLOADS) as ServerMessageType[];

const payloadChecks = new Map<string, Check>(Object.entries(PAYLOADS).map(([type, shape]) => [type, object<Record<string, unknown>>(shape)]));

export type ReadServerMessage = { ok: true; message: ServerMessage } | { ok: false; reason: string };

/** A decoded frame from the server as a message the client can act on, or why not. */
export function readServerMessage(data: unknown): ReadServerMessage {
  if (!isRecord(data) || typeof data.type !== "string") return { ok: false, reason: "A message must be an object with a type." };
  const check = payloadChecks.get(data.type);
  if (!check) return { ok: false, reason: `Unknown message type: ${data.type.slice(0, 40)}.` };
  if (!check(data.payload)) return { ok: false, reason: `${data.type} has an unexpected payload.` };
  return { ok: true, message: data as unknown as ServerMessage };
}
