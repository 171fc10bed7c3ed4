import type { ServerMessageType } from "#app/game/protocol";

/**
 * A serialised message. A broadcast is encoded to UTF-8 once (a Buffer) rather than once per socket;
 * either way it goes out as a text frame.
 */
export type OutgoingData = string | Buffer;

/** One client's socket as the room sees it; the transport adapts `ws` to this. */
export interface Connection {
  readonly clientId: string;
  /** Where this connection stands in the deliveries of the game it is in (the outbox's alone). */
  readonly slot: DeliverySlot;
  /** Sends the messages in order, several in one write where the transport can. */
  send(...messages: OutgoingData[]): void;
  close(code: number, reason: string): void;
}

/**
 * A connection's place in its game's deliveries, kept on the connection so that a flush groups its
 * messages by connection, and knows when the open question reached a player, without a map: a map
 * of thousands of connections per broadcast, grown and emptied again, was a large part of what a
 * big game left for the garbage collector (issue 18, docs/decisions/0037-no-object-per-message.md).
 */
export class DeliverySlot {
  /** The flush that last grouped messages for this connection; ids come from one count for the process. */
  flush = 0;
  /** That flush's first and last message to this connection, by index; `next` chains the ones between. */
  first = -1;
  last = -1;
  /** The flush whose messages have been written to this connection. */
  written = 0;
  /** Which opening of a question last reached this connection, and when it was written. */
  question = 0;
  questionAt = 0;
}

/** Ids of flushes and of question openings, unique across the process's games. */
let lastId = 0;

export const nextId = (): number => ++lastId;

/** The connections the roles of `Addressed` stand for, as the room keeps them. */
export interface Members {
  readonly hosts: ReadonlySet<Connection>;
  /** Screens that watch the game (docs/decisions/0032-display-and-remote.md). */
  readonly displays: ReadonlySet<Connection>;
  readonly players: ReadonlyMap<number, Connection>;
}

/**
 * A player's own copy of a message that is shared but for one field: the shared part serialised once
 * for all players (`head`), this player's field (`own`). The two are joined only when the message is
 * written to the player's socket, so a large game never holds thousands of full copies at once
 * while they wait for their commit and their slice of the delivery (issue 18: they outlived the
 * young generation and piled up as garbage in the old one).
 */
class PersonalMessage {
  constructor(
    private readonly head: string,
    private readonly own: string,
  ) {}

  text(): string {
    return `${this.head}${this.own}}}`;
  }
}

type QueuedData = OutgoingData | PersonalMessage;

export const outgoing = (data: QueuedData): OutgoingData => (data instanceof PersonalMessage ? data.text() : data);

export type Close = { code: number; reason: string };

/**
 * Messages waiting for their commit, in order, as columns rather than an object per message: a
 * broadcast to thousands of players, and each player's acknowledgement, wait through a commit and
 * the slices of a delivery, long enough to outlive the young generation (issue 18).
 */
export class Deliveries {
  readonly to: Connection[] = [];
  readonly data: QueuedData[] = [];
  /** The index of the same connection's next message in the same flush, or -1 (see `chain`). */
  readonly next: number[] = [];
  /** Messages after which the connection is closed (a removed player): rare, so by index. */
  closes: Map<number, Close> | null = null;
  /** Messages that open a question, with that opening's id: each player's answer is timed from their write. */
  opening: Map<QueuedData, number> | null = null;

  get length(): number {
    return this.to.length;
  }

  push(to: Connection, data: QueuedData, close?: Close): number {
    const index = this.to.length;
    this.to.push(to);
    this.data.push(data);
    this.next.push(-1);
    if (close) (this.closes ??= new Map()).set(index, close);
    return index;
  }

  /**
   * Links message `index` after its connection's earlier ones of flush `flush`, or makes it the
   * connection's first. A connection's messages of one flush leave in one write: the first question
   * follows GAME_STARTED to every player, and two passes over thousands of sockets would double the
   * time until the last one has its question.
   */
  chain(index: number, flush: number): void {
    const slot = this.to[index].slot;
    if (slot.flush !== flush) {
      slot.flush = flush;
      slot.first = slot.last = index;
      return;
    }
    this.next[slot.last] = index;
    slot.last = index;
  }
}

/** Builds `{type, payload: {...shared, [key]: value}}` per recipient while serialising `shared` once. */
export function personalized(type: ServerMessageType, shared: object, key: string): (value: unknown) => PersonalMessage {
  const head = JSON.stringify({ type, payload: shared }).slice(0, -2);
  const prefix = `${head}${head.endsWith("{") ? "" : ","}${JSON.stringify(key)}:`;
  return (value) => new PersonalMessage(prefix, JSON.stringify(value));
}
