/**
 * The real-time protocol on /ws (docs/product.md#protocol): every message is JSON `{ type, payload }`.
 * The server checks every message it receives with these schemas; the browser takes their types
 * (so both sides agree by construction) and checks what it receives without zod
 * (client/server-message.ts), to keep zod off a player's phone.
 */
import { z } from "zod";
import { AnswerIndexSchema, GameCodeSchema, NicknameSchema, TeamNameSchema } from "#app/schemas/validation";
import { MAX_BREAK_MINUTES } from "./rules";
import { MAX_OPTIONS } from "./question-kinds";
import type { ErrorCode } from "#app/i18n/app-error";
import { coded, englishOf, issueError } from "#app/i18n/coded";
import {
  AnswerCountsSchema,
  AnswerValueSchema,
  KindSchema,
  LobbyNameSchema,
  LobbyPlayerSchema,
  NamedStandingSchema,
  NumberSpreadSchema,
  OwnStandingSchema,
  PhaseSchema,
  PlayerRefSchema,
  PlayerResultSchema,
  PublicQuestionSchema,
  RoundInfoSchema,
  RoundResultSchema,
  StandingSchema,
  TeamRefSchema,
  TypedAnswerSummarySchema,
} from "./protocol-views";

export { CloseCode, MAX_MESSAGE_BYTES, WS_PATH } from "./protocol-constants";

// ---------------------------------------------------------------- client -> server

const GameCodePayload = z.object({ gameCode: GameCodeSchema });
/** A game's display or remote key (docs/decisions/0032-display-and-remote.md): base64url, as the links carry it. */
const GameKeySchema = z.string(coded("KEY_NOT_STRING")).min(1, coded("KEY_MISSING")).max(100, coded("KEY_TOO_LONG"));

export const ClientMessageSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("JOIN_GAME"),
    /** `key`: the game's remote key, with which a host's phone takes a host seat (`__HOST__`) from another browser. */
    payload: z.object({
      gameCode: GameCodeSchema,
      nickname: NicknameSchema,
      key: GameKeySchema.optional(),
      /** In team mode: the team to play for, as picked or typed on the join form (made if new). */
      team: TeamNameSchema.optional(),
    }),
  }),
  /** A screen for the projector, with the game's display key: it watches, never acts. */
  z.object({
    type: z.literal("WATCH_GAME"),
    payload: z.object({ gameCode: GameCodeSchema, key: GameKeySchema }),
  }),
  z.object({ type: z.literal("START_GAME"), payload: GameCodePayload }),
  z.object({
    type: z.literal("SUBMIT_ANSWER"),
    payload: z
      .object({
        gameCode: GameCodeSchema,
        playerId: z.number(coded("UNKNOWN_PLAYER")).int(coded("UNKNOWN_PLAYER")).positive(coded("UNKNOWN_PLAYER")),
        /** Exactly one of these four, as the question's kind needs; the engine checks it against the question. */
        answerIndex: AnswerIndexSchema.optional(),
        answerIndexes: z.array(AnswerIndexSchema, coded("BAD_ANSWER_INDEXES")).max(MAX_OPTIONS, coded("BAD_ANSWER_INDEXES")).optional(),
        text: z.string(coded("ANSWER_TEXT_NOT_TEXT")).max(400, coded("ANSWER_TEXT_TOO_LONG")).optional(),
        number: z.number(coded("ANSWER_NUMBER_NOT_NUMBER")).optional(),
        /** Accepted from older clients; ignored, since the server measures response time itself (docs/product.md#game-flow). */
        time: z.unknown().optional(),
      })
      .refine((answer) => [answer.answerIndex, answer.answerIndexes, answer.text, answer.number].filter((part) => part !== undefined).length === 1, {
        ...coded("ONE_ANSWER"),
        path: ["answerIndex"],
      }),
  }),
  z.object({ type: z.literal("NEXT_QUESTION"), payload: GameCodePayload }),
  z.object({ type: z.literal("LEAVE_GAME"), payload: GameCodePayload }),
  /** Host only, after GAME_OVER: back to the lobby with the same players for another round. */
  z.object({ type: z.literal("PLAY_AGAIN"), payload: GameCodePayload }),
  /** Host only: removes a player for good; its browser cannot join this game again. */
  z.object({
    type: z.literal("KICK_PLAYER"),
    payload: z.object({
      gameCode: GameCodeSchema,
      playerId: z.number(coded("KICK_WHOM")).int(coded("KICK_WHOM")).positive(coded("KICK_WHOM")),
    }),
  }),
  /** Host only: closes the game to new players (or opens it again). */
  z.object({
    type: z.literal("LOCK_GAME"),
    payload: z.object({ gameCode: GameCodeSchema, locked: z.boolean(coded("LOCKED_NOT_BOOLEAN")) }),
  }),
  /** Host only, after a typed question closes: a typed answer marked wrong counts after all. */
  z.object({
    type: z.literal("ACCEPT_ANSWER"),
    payload: z.object({
      gameCode: GameCodeSchema,
      questionNumber: z.number(coded("QUESTION_NUMBER_NOT_NUMBER")).int(coded("QUESTION_NUMBER_NOT_WHOLE")).positive(coded("QUESTION_NUMBER_FROM_ONE")),
      text: z.string(coded("ANSWER_TEXT_NOT_TEXT")).min(1, coded("ACCEPT_WHAT")).max(400, coded("ACCEPT_WHAT")),
    }),
  }),
  /** Host only: stops the open question's countdown; answers wait until RESUME_QUESTION. */
  z.object({ type: z.literal("PAUSE_QUESTION"), payload: GameCodePayload }),
  /** Host only: the paused question runs again with the time it had left. */
  z.object({ type: z.literal("RESUME_QUESTION"), payload: GameCodePayload }),
  /** Host only, once the game has started: straight to the podium. */
  z.object({ type: z.literal("END_GAME"), payload: GameCodePayload }),
  /** Host only, in the lobby: players play for teams (docs/decisions/0033-team-scoring.md). */
  z.object({
    type: z.literal("SET_TEAM_MODE"),
    payload: z.object({ gameCode: GameCodeSchema, enabled: z.boolean(coded("ENABLED_NOT_BOOLEAN")) }),
  }),
  /** Host only, in the lobby: a team players can pick. */
  z.object({ type: z.literal("ADD_TEAM"), payload: z.object({ gameCode: GameCodeSchema, name: TeamNameSchema }) }),
  /** Host only, in the lobby: a team goes; its players pick again. */
  z.object({
    type: z.literal("REMOVE_TEAM"),
    payload: z.object({
      gameCode: GameCodeSchema,
      teamId: z.number(coded("CHOOSE_TEAM_TO_REMOVE")).int(coded("CHOOSE_TEAM_TO_REMOVE")).positive(coded("CHOOSE_TEAM_TO_REMOVE")),
    }),
  }),
  /** Player: plays for the team of that name (made if new); in the lobby, or later while it has none. */
  z.object({ type: z.literal("CHOOSE_TEAM"), payload: z.object({ gameCode: GameCodeSchema, team: TeamNameSchema }) }),
  /** Host only, between two rounds of a night: "Back in N minutes" on every screen (0 takes it away). */
  z.object({
    type: z.literal("SET_BREAK_TIMER"),
    payload: z.object({
      gameCode: GameCodeSchema,
      minutes: z.number(coded("BREAK_MINUTES_NUMBER")).int(coded("BREAK_MINUTES_WHOLE")).min(0, coded("BAD_BREAK")).max(MAX_BREAK_MINUTES, coded("BAD_BREAK")),
    }),
  }),
  /** Host only: show questions' pictures on players' devices too (off by default, for slow connections). */
  z.object({
    type: z.literal("SET_PICTURES_ON_PLAYERS"),
    payload: z.object({ gameCode: GameCodeSchema, enabled: z.boolean(coded("ENABLED_NOT_BOOLEAN")) }),
  }),
]);

export type ClientMessage = z.infer<typeof ClientMessageSchema>;
export type ClientMessageType = ClientMessage["type"];

/** The values an ERROR quotes (a message type, a field): flat, as the protocol sends them. */
export type ErrorValues = Record<string, string | number>;

/**
 * A frame refused: its English words (`error`, the ERROR's `message`), and the `errors` catalog
 * key it is raised with and the values it quotes (`key`, `values`), for any client to say it in
 * its language (docs/decisions/0047-errors-as-codes.md).
 */
export type ParsedClientMessage = { ok: true; message: ClientMessage } | { ok: false; error: string; key: ErrorCode; values?: ErrorValues };

function refused(key: ErrorCode, values?: ErrorValues): Extract<ParsedClientMessage, { ok: false }> {
  return { ok: false, error: englishOf({ code: key, values }), key, ...(values ? { values } : {}) };
}

/** Decodes one frame; never throws, so a malformed frame can only ever produce an ERROR reply. */
export function parseClientMessage(raw: string): ParsedClientMessage {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return refused("MESSAGE_NOT_JSON");
  }
  const result = ClientMessageSchema.safeParse(data);
  if (result.success) return { ok: true, message: result.data };
  if (typeof data !== "object" || data === null || Array.isArray(data)) return refused("MESSAGE_NOT_OBJECT");
  const issue = result.error.issues[0];
  // Only a string or a number is quoted back: anything else may not even turn into text safely.
  const rawType: unknown = "type" in data ? data.type : undefined;
  const type = typeof rawType === "string" || typeof rawType === "number" ? String(rawType) : undefined;
  if (issue.path.length === 1 && issue.path[0] === "type") {
    if (!type) return refused("MESSAGE_NO_TYPE");
    return refused("MESSAGE_UNKNOWN_TYPE", { type: type.slice(0, 40) });
  }
  if (issue.path.length <= 1) return type ? refused("MESSAGE_TYPE_NO_PAYLOAD", { type }) : refused("MESSAGE_NO_PAYLOAD");
  // A field's own rule says what is wrong, with its code (`coded`); zod's own words name the field.
  const error = issueError(issue);
  if (error) return { ok: false, error: issue.message, key: error.code, ...(error.values ? { values: error.values as ErrorValues } : {}) };
  return refused("MESSAGE_INVALID_FIELD", { type: String(type), field: issue.path.slice(1).join(".") });
}

// ---------------------------------------------------------------- server -> client

export const ServerMessageSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("ERROR"),
    /**
     * `message`: English; `code`: the refusal's family (NOT_HOST for every host-only refusal), as
     * protocol clients have always read it; `key` and `values`: the exact `errors` catalog key
     * and the values of its text, for a client to say it in its language
     * (docs/decisions/0047-errors-as-codes.md).
     */
    payload: z.object({
      message: z.string(),
      code: z.string().optional(),
      key: z.string().optional(),
      values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    }),
  }),
  z.object({ type: z.literal("PLAYER_JOINED"), payload: z.object({ player: PlayerRefSchema }) }),
  z.object({ type: z.literal("PLAYER_LEFT"), payload: z.object({ playerId: z.number().int() }) }),
  z.object({
    type: z.literal("LOBBY_UPDATE"),
    /** To players and displays: the 50 newest names, without ids. */
    payload: z.object({ playerCount: z.number().int(), players: z.array(LobbyNameSchema) }),
  }),
  z.object({
    type: z.literal("GAME_SNAPSHOT"),
    payload: z.object({
      gameCode: z.string(),
      title: z.string(),
      /** "display": a screen watching with the game's display key (it never acts). */
      role: z.enum(["host", "player", "display"]),
      playerId: z.number().int().nullable(),
      phase: PhaseSchema,
      questionNumber: z.number().int(),
      totalQuestions: z.number().int(),
      timeLimit: z.number().int(),
      playerCount: z.number().int(),
      /** Every player with its id for the host; the 50 most recent names, without ids, for a player or a display. */
      players: z.array(LobbyPlayerSchema),
      /** Closed to new players by the host. */
      locked: z.boolean().optional(),
      picturesOnPlayers: z.boolean().optional(),
      /** Team mode: the teams, and (for a player) its own team's id, null until it picks one. */
      teamMode: z.boolean().optional(),
      teams: z.array(TeamRefSchema).optional(),
      teamId: z.number().int().nullable().optional(),
      /** Only for a night: the current round. */
      round: RoundInfoSchema.optional(),
    }),
  }),
  /** The teams and how many play for each (sent as they change, at most once a second in the lobby). */
  z.object({ type: z.literal("TEAMS_UPDATE"), payload: z.object({ teamMode: z.boolean(), teams: z.array(TeamRefSchema) }) }),
  /** To one player: the team it now plays for. */
  z.object({ type: z.literal("TEAM_CHOSEN"), payload: z.object({ teamId: z.number().int().nullable() }) }),
  /** A night's round ended, more to come: the break, with the running total and each round's standings. */
  z.object({
    type: z.literal("ROUND_OVER"),
    payload: z.object({
      round: RoundInfoSchema,
      nextRoundTitle: z.string(),
      /** The evening's total so far. */
      players: z.array(StandingSchema),
      teams: z.array(NamedStandingSchema).optional(),
      rounds: z.array(RoundResultSchema),
      playerCount: z.number().int(),
      /** "Back in 10 minutes": when the host said the next round begins, or null. */
      breakEndsAt: z.number().nullable(),
      serverNow: z.number(),
      you: OwnStandingSchema.optional(),
    }),
  }),
  z.object({ type: z.literal("BREAK_TIMER"), payload: z.object({ breakEndsAt: z.number().nullable(), serverNow: z.number() }) }),
  z.object({ type: z.literal("LOBBY_LOCKED"), payload: z.object({ locked: z.boolean() }) }),
  z.object({ type: z.literal("PICTURES_ON_PLAYERS"), payload: z.object({ enabled: z.boolean() }) }),
  z.object({ type: z.literal("GAME_STARTED"), payload: z.object({ questionCount: z.number().int() }) }),
  z.object({
    type: z.literal("QUESTION_STARTED"),
    payload: z.object({
      question: PublicQuestionSchema,
      questionNumber: z.number().int(),
      totalQuestions: z.number().int(),
      timeLimit: z.number().int(),
      endsAt: z.number(),
      serverNow: z.number(),
      /** Only while the host has paused the question: the time it has left, kept until it resumes. */
      pausedRemainingMs: z.number().optional(),
      /** Only for a night: the round this question belongs to. */
      round: RoundInfoSchema.optional(),
    }),
  }),
  z.object({
    type: z.literal("QUESTION_PAUSED"),
    payload: z.object({ questionNumber: z.number().int(), remainingMs: z.number() }),
  }),
  z.object({
    type: z.literal("QUESTION_RESUMED"),
    /** `endsAt` has moved by the pause; `serverNow` lets the browser correct its clock again. */
    payload: z.object({ questionNumber: z.number().int(), remainingMs: z.number(), endsAt: z.number(), serverNow: z.number() }),
  }),
  z.object({
    type: z.literal("ANSWER_ACCEPTED"),
    /** `answerIndex` for the option kinds; `value` for the others (picks, text, number). */
    payload: z.object({ questionNumber: z.number().int(), answerIndex: z.number().int().optional(), value: AnswerValueSchema.optional() }),
  }),
  z.object({
    type: z.literal("ANSWER_PROGRESS"),
    payload: z.object({
      questionNumber: z.number().int(),
      answeredCount: z.number().int(),
      playerCount: z.number().int(),
      answerCounts: AnswerCountsSchema,
    }),
  }),
  z.object({
    type: z.literal("ANSWER_RESULTS"),
    payload: z.object({
      questionNumber: z.number().int(),
      kind: KindSchema,
      /** choice and trueFalse: the right option; -1 for the other kinds. */
      correctAnswerIndex: z.number().int(),
      correctAnswerIndexes: z.array(z.number().int()),
      acceptedAnswers: z.array(z.string()),
      correctNumber: z.number().nullable(),
      numberSpread: NumberSpreadSchema.nullable(),
      /** How many answered (answerCounts counts picks, so it cannot tell for multi-select or typed kinds). */
      answeredCount: z.number().int().optional(),
      answerCounts: AnswerCountsSchema,
      /** Host only, typed questions: each distinct answer typed, with its count, most typed first. */
      typedAnswers: z.array(TypedAnswerSummarySchema).optional(),
      playerResults: z.array(PlayerResultSchema),
      /** Only in the catch-up sent to a (re)joining client, which missed QUESTION_STARTED. */
      question: PublicQuestionSchema.optional(),
    }),
  }),
  z.object({
    type: z.literal("LEADERBOARD_UPDATE"),
    payload: z.object({
      players: z.array(StandingSchema),
      isLastLeaderboard: z.boolean(),
      nextQuestionIn: z.number().int(),
      questionNumber: z.number().int(),
      totalQuestions: z.number().int(),
      playerCount: z.number().int(),
      /** The next question's picture, to fetch while the leaderboard is up. */
      nextImage: z.string().nullable().optional(),
      /** Team mode: the top teams. */
      teams: z.array(NamedStandingSchema).optional(),
      /** Only for a night: the round, whose last leaderboard leads to a break rather than the podium. */
      round: RoundInfoSchema.optional(),
      you: OwnStandingSchema.optional(),
    }),
  }),
  z.object({
    type: z.literal("GAME_OVER"),
    payload: z.object({
      players: z.array(StandingSchema),
      playerCount: z.number().int(),
      /** Team mode: the team podium and standings. */
      teams: z.array(NamedStandingSchema).optional(),
      /** A night: each round's own standings; `players` and `teams` are the evening's total. */
      rounds: z.array(RoundResultSchema).optional(),
      you: OwnStandingSchema.optional(),
    }),
  }),
]);

export type ServerMessage = z.infer<typeof ServerMessageSchema>;
export type ServerMessageType = ServerMessage["type"];
export type ServerPayload<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>["payload"];

export function encodeServerMessage<T extends ServerMessageType>(type: T, payload: ServerPayload<T>): string {
  return JSON.stringify({ type, payload });
}
