import type { Duplex } from "node:stream";
import type { WebSocket } from "ws";
import { DeliverySlot, type Connection, type GameRoom, type OutgoingData } from "../game-room";
import { ownTextFrame, textFrame } from "./frames";
import type { SocketIdentity } from "./upgrade";

/** A client this far behind is too slow to keep: it is dropped and may rejoin, instead of buffering without bound. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** Marks, among a socket's waiting messages, where it closed. */
export const SOCKET_CLOSED = Symbol("socket closed");

/** Where a socket's listeners, shared by every socket, find its client. */
export const CLIENT = Symbol("client");
export type ClientSocket = WebSocket & { [CLIENT]: Client };

/**
 * One game socket: the room's `Connection` and what the transport keeps of it, in one object whose
 * methods and listeners are shared by every socket. Closures made per socket cost each player about
 * half a kilobyte (issue 18, docs/decisions/0037-no-object-per-message.md).
 */
export class Client implements Connection {
  readonly slot = new DeliverySlot();
  room: GameRoom | null = null;
  alive = true;
  /**
   * Messages of one socket are handled in order, even when one waits for the database (a join
   * loads its game): while one does, those arriving behind it wait here, and `SOCKET_CLOSED` marks
   * where the socket closed. Null when nothing waits, the case of nearly every message: it is then
   * handled at once, with no promise made for it (issue 18).
   */
  waiting: Array<string | typeof SOCKET_CLOSED> | null = null;
  lastRefill = Date.now();

  readonly clientId: string;
  /** For the join limits, never logged. */
  readonly address: string;
  /** The upgrade's host secret and session cookies, if it had any (`hostCookiesOf`). */
  readonly cookie: string | null;
  /**
   * The game its URL named, or null (opened before its browser knew one): what a balancer hashed it
   * by, and what a node routes or forwards it by (issue 28). A message may still name another game:
   * on one node that is harmless, and the transport lets it through (see `join`).
   */
  readonly gameCode: string | null;

  /** `stream` is the connection under the WebSocket: corked, several frames leave in one write. */
  constructor(
    readonly socket: WebSocket,
    private readonly stream: Duplex,
    identity: SocketIdentity,
    public tokens: number,
  ) {
    this.clientId = identity.clientId;
    this.address = identity.address;
    this.cookie = identity.cookie;
    this.gameCode = identity.gameCode;
  }

  send(...messages: OutgoingData[]): void {
    const socket = this.socket;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.terminate();
      return;
    }
    if (messages.length === 1) {
      this.write(messages[0]);
      return;
    }
    this.stream.cork();
    try {
      for (const message of messages) this.write(message);
    } finally {
      this.stream.uncork();
    }
  }

  /**
   * Every message is written straight to the connection as one frame: a broadcast's (a Buffer,
   * encoded once for all its sockets) built once for all of them, a socket's own text framed on its
   * own. `ws` still writes its pings, pongs and close frames; it writes each at once when nothing is
   * compressed (`perMessageDeflate: false`), so ours and its never overtake each other (issue 18,
   * docs/decisions/0037-no-object-per-message.md).
   */
  private write(message: OutgoingData): void {
    this.stream.write(typeof message === "string" ? ownTextFrame(message) : textFrame(message));
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }
}
