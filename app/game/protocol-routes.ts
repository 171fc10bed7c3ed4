/**
 * Where each client message goes, in one table (docs/decisions/0046-messages-routed-once.md): for
 * every type of the protocol's union, its schema, who may send it, and either the engine command it
 * becomes or the one part of the server that handles it instead. The transport handles the messages
 * that decide which room a socket talks to (JOIN_GAME, WATCH_GAME); the room handles every other one
 * through one entry point (`GameRoom.handle`), by looking its type up here.
 *
 * `senders` says who the game lets send a message; the engine is still what refuses anyone else (a
 * test keeps the two in step), so its error codes and their order stay where they are.
 * The builders allocate nothing but the command itself: one object per message, on the answer path
 * too (docs/decisions/0037-no-object-per-message.md).
 */
import type { z } from "zod";
import type { Actor, Command } from "./engine/index";
import { ClientMessageSchema, type ClientMessage, type ClientMessageType } from "./protocol";

/** Who sends a message: the host (its browser or its phone by the remote key), a projector's display, a player, or a socket in no game yet. */
export type Sender = "host" | "display" | "player" | "guest";

type MessageOf<T extends ClientMessageType> = Extract<ClientMessage, { type: T }>;
export type PayloadOf<T extends ClientMessageType> = MessageOf<T>["payload"];

interface RouteBase<T extends ClientMessageType> {
  /** The message's option of `ClientMessageSchema` (the union still parses every frame in one pass). */
  schema: z.ZodType<MessageOf<T>>;
  senders: readonly Sender[];
}

/** Handled by the transport: it chooses the socket's room, so no room can take it. */
export interface TransportRoute<T extends ClientMessageType> extends RouteBase<T> {
  by: "transport";
}

/** Handled by the room as a change of its membership rather than a command from someone in it. */
export interface LeaveRoute<T extends ClientMessageType> extends RouteBase<T> {
  by: "leave";
  /** Sent by a socket in no game, it is dropped without a reply (a page leaving twice). */
  withoutRoom: "ignore";
}

/** Handled by the room as one engine command from the connection's actor. */
export interface CommandRoute<T extends ClientMessageType> extends RouteBase<T> {
  by: "engine";
  /** The room passes when this connection got the open question (the answer's timing); undefined for the rest. */
  timed?: true;
  command(payload: PayloadOf<T>, actor: Actor, questionDeliveredAt: number | undefined): Command;
}

export type MessageRoute<T extends ClientMessageType> = TransportRoute<T> | LeaveRoute<T> | CommandRoute<T>;

/** The message types the transport handles itself. */
export type TransportMessageType = { [T in ClientMessageType]: (typeof CLIENT_MESSAGE_ROUTES)[T] extends TransportRoute<T> ? T : never }[ClientMessageType];
/** The messages the room handles: every other one. */
export type RoomMessage = Exclude<ClientMessage, { type: TransportMessageType }>;

/** Each option of the union by its type, typed as the table needs it. */
function schemaOf<T extends ClientMessageType>(type: T): z.ZodType<MessageOf<T>> {
  const option = ClientMessageSchema.options.find((candidate) => candidate.shape.type.value === type);
  if (!option) throw new Error(`No schema for the client message ${type}.`);
  return option as unknown as z.ZodType<MessageOf<T>>;
}

const HOST: readonly Sender[] = ["host"];

export const CLIENT_MESSAGE_ROUTES = {
  JOIN_GAME: { by: "transport", schema: schemaOf("JOIN_GAME"), senders: ["guest", "player", "host", "display"] },
  WATCH_GAME: { by: "transport", schema: schemaOf("WATCH_GAME"), senders: ["guest", "player", "host", "display"] },
  LEAVE_GAME: { by: "leave", schema: schemaOf("LEAVE_GAME"), senders: ["player", "host", "display"], withoutRoom: "ignore" },
  START_GAME: { by: "engine", schema: schemaOf("START_GAME"), senders: HOST, command: (_, actor) => ({ type: "start", actor }) },
  NEXT_QUESTION: { by: "engine", schema: schemaOf("NEXT_QUESTION"), senders: HOST, command: (_, actor) => ({ type: "next", actor }) },
  SUBMIT_ANSWER: {
    by: "engine",
    schema: schemaOf("SUBMIT_ANSWER"),
    senders: ["player"],
    timed: true,
    command: ({ playerId, answerIndex, answerIndexes, text, number }, actor, questionDeliveredAt) => ({
      type: "answer",
      actor,
      playerId,
      answerIndex,
      answerIndexes,
      text,
      number,
      questionDeliveredAt,
    }),
  },
  PLAY_AGAIN: { by: "engine", schema: schemaOf("PLAY_AGAIN"), senders: HOST, command: (_, actor) => ({ type: "playAgain", actor }) },
  KICK_PLAYER: {
    by: "engine",
    schema: schemaOf("KICK_PLAYER"),
    senders: HOST,
    command: ({ playerId }, actor) => ({ type: "kick", actor, playerId }),
  },
  LOCK_GAME: { by: "engine", schema: schemaOf("LOCK_GAME"), senders: HOST, command: ({ locked }, actor) => ({ type: "lock", actor, locked }) },
  ACCEPT_ANSWER: {
    by: "engine",
    schema: schemaOf("ACCEPT_ANSWER"),
    senders: HOST,
    command: ({ questionNumber, text }, actor) => ({ type: "acceptTypedAnswer", actor, questionNumber, text }),
  },
  PAUSE_QUESTION: { by: "engine", schema: schemaOf("PAUSE_QUESTION"), senders: HOST, command: (_, actor) => ({ type: "pause", actor }) },
  RESUME_QUESTION: { by: "engine", schema: schemaOf("RESUME_QUESTION"), senders: HOST, command: (_, actor) => ({ type: "resume", actor }) },
  END_GAME: { by: "engine", schema: schemaOf("END_GAME"), senders: HOST, command: (_, actor) => ({ type: "end", actor }) },
  SET_PICTURES_ON_PLAYERS: {
    by: "engine",
    schema: schemaOf("SET_PICTURES_ON_PLAYERS"),
    senders: HOST,
    command: ({ enabled }, actor) => ({ type: "picturesOnPlayers", actor, enabled }),
  },
  SET_TEAM_MODE: {
    by: "engine",
    schema: schemaOf("SET_TEAM_MODE"),
    senders: HOST,
    command: ({ enabled }, actor) => ({ type: "teamMode", actor, enabled }),
  },
  ADD_TEAM: { by: "engine", schema: schemaOf("ADD_TEAM"), senders: HOST, command: ({ name }, actor) => ({ type: "addTeam", actor, name }) },
  REMOVE_TEAM: {
    by: "engine",
    schema: schemaOf("REMOVE_TEAM"),
    senders: HOST,
    command: ({ teamId }, actor) => ({ type: "removeTeam", actor, teamId }),
  },
  /** The player is the one this connection plays as; anyone else is refused by the engine as playing as nobody. */
  CHOOSE_TEAM: {
    by: "engine",
    schema: schemaOf("CHOOSE_TEAM"),
    senders: ["player"],
    command: ({ team }, actor) => ({ type: "chooseTeam", actor, playerId: actor.role === "player" ? actor.playerId : 0, team }),
  },
  SET_BREAK_TIMER: {
    by: "engine",
    schema: schemaOf("SET_BREAK_TIMER"),
    senders: HOST,
    command: ({ minutes }, actor) => ({ type: "breakTimer", actor, minutes }),
  },
} as const satisfies { readonly [T in ClientMessageType]: MessageRoute<T> };

/** The room's route of a message it handles. */
export function roomRouteOf<T extends RoomMessage["type"]>(type: T): LeaveRoute<T> | CommandRoute<T> {
  return CLIENT_MESSAGE_ROUTES[type] as unknown as LeaveRoute<T> | CommandRoute<T>;
}
