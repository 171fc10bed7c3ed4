/**
 * The app's one WebSocket (docs/product.md#reconnection): first attempt 500 ms after load, automatic
 * reconnection on an abnormal close (5 attempts, 1500 ms growing by 1.5x up to 10 s, with jitter so
 * a venue's phones do not reconnect in lockstep), and a queue for messages sent while closed.
 *
 * Its URL names the game the browser is in (`&game=CODE`), read afresh for every socket opened, so
 * that a balancer in front of several nodes sends every socket of a game to one node (issue 28).
 * A browser that learns its game with a socket open (the join form on the home page's socket) moves
 * to a socket whose URL names it (`follow`): the new one opens before the old one closes, so the
 * page sees no drop.
 */
import type { ClientMessage, ServerMessage } from "../protocol";
import { CloseCode } from "../protocol-constants";
import { readServerMessage } from "./server-message";

export const FIRST_CONNECT_DELAY_MS = 500;
export const MAX_RECONNECT_ATTEMPTS = 5;
export const RECONNECT_BASE_DELAY_MS = 1500;
export const RECONNECT_FACTOR = 1.5;
export const RECONNECT_MAX_DELAY_MS = 10_000;
export const WEBSOCKET_FAILED_EVENT = "websocket-failed";
export const FAILED_AFTER_RETRIES = "Connection failed after several attempts";
/** Closes after which reconnecting would only meet the same end: a normal close, a takeover, a removal, a game that is gone, a replaced link. */
const FINAL_CLOSE_CODES = new Set<number>([1000, CloseCode.REPLACED, CloseCode.KICKED, CloseCode.GAME_CLOSED, CloseCode.LINK_REPLACED]);

export type ConnectionState = "connecting" | "open" | "closed";

export interface SocketEvents {
  onMessage(message: ServerMessage): void;
  onStateChange(state: ConnectionState): void;
  /** The socket opened again after having been open before. */
  onReconnected(): void;
  /** Fired on every open, first or not: the place to (re)join a game. */
  onOpen(): void;
  onGiveUp(lastError: string): void;
}

export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(RECONNECT_BASE_DELAY_MS * RECONNECT_FACTOR ** attempt, RECONNECT_MAX_DELAY_MS);
  // ±20% jitter.
  return Math.round(base * (0.8 + random() * 0.4));
}

export class GameSocket {
  private socket: WebSocket | null = null;
  /** The socket `follow` opens for a new URL while the current one serves on; it takes over once open. */
  private next: WebSocket | null = null;
  /** The URL of `socket` (or of `next` while it opens). */
  private openedUrl: string | null = null;
  private queue: string[] = [];
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private everOpened = false;
  private lastError: string | null = null;
  private stopped = false;
  state: ConnectionState = "closed";

  /** `url` is read for every socket opened: it names the game the browser is in at that moment. */
  constructor(
    private readonly url: () => string,
    private readonly events: SocketEvents,
  ) {}

  /**
   * The URL may name another game now (the browser joins or hosts one): when the socket open or
   * opening was opened for another URL, a socket for the new one is opened beside it and takes its
   * place once open, its `onOpen` (re)joining there; messages sent meanwhile wait for it. True when
   * such a socket is on its way (its `onOpen` will come), false when nothing changed or no socket is
   * open (the next one opened reads the new URL).
   */
  follow(): boolean {
    if (this.stopped || (!this.socket && !this.next)) return false;
    const url = this.url();
    if (url === this.openedUrl) return false;
    this.openedUrl = url;
    if (this.next) this.discard(this.next);
    this.next = null;
    if (this.state !== "open" || !this.socket) {
      // Still connecting (nothing said on that one yet), or the old one already gone: simply replaced.
      if (this.socket) this.discard(this.socket);
      this.socket = null;
      this.open();
      return true;
    }
    let next: WebSocket;
    try {
      next = new WebSocket(url);
    } catch {
      return false;
    }
    this.next = next;
    this.listen(next);
    return true;
  }
  start(delayMs = FIRST_CONNECT_DELAY_MS): void {
    this.timer = setTimeout(() => this.open(), delayMs);
  }

  /** The Reconnect button: a fresh round of attempts. */
  reconnect(): void {
    this.attempts = 0;
    if (this.timer) clearTimeout(this.timer);
    if (this.state !== "closed") return;
    this.open();
  }

  /**
   * The browser went offline: close now rather than wait minutes for TCP to notice, and spend no
   * attempts until it is back (`reconnect` on the browser's online event).
   */
  suspend(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.next) this.discard(this.next);
    this.next = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.close(1000, "Offline");
      this.setState("closed");
    }
  }

  send(message: ClientMessage): void {
    const data = JSON.stringify(message);
    // While a socket for a new game opens, what is said goes there, after its join.
    if (!this.next && this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(data);
    else this.queue.push(data);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.next) this.discard(this.next);
    this.socket?.close(1000, "Leaving");
  }

  /** Closes a socket that is no longer this one's, whose events are then ignored. */
  private discard(socket: WebSocket): void {
    socket.close(1000, "Switching game");
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    this.events.onStateChange(state);
  }

  private open(): void {
    if (this.stopped) return;
    this.setState("connecting");
    let socket: WebSocket;
    const url = this.url();
    try {
      socket = new WebSocket(url);
    } catch {
      this.lastError = "Connection error";
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    this.openedUrl = url;
    this.listen(socket);
  }

  /** The listeners of a socket opened by `open` or by `follow` (`next`), which takes over once open. */
  private listen(socket: WebSocket): void {
    socket.addEventListener("open", () => {
      if (socket === this.next) {
        // The socket for the browser's new game is open: it takes over, with no drop in between.
        const previous = this.socket;
        this.next = null;
        this.socket = socket;
        if (previous) this.discard(previous);
        this.events.onOpen();
        this.flushQueue(socket);
        return;
      }
      if (socket !== this.socket) return;
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.attempts = 0;
      this.setState("open");
      this.events.onOpen();
      this.flushQueue(socket);
      if (reconnected) this.events.onReconnected();
    });
    socket.addEventListener("message", (event) => {
      // Only the current socket speaks for the game: the one being replaced may still be in the game before.
      if (socket !== this.socket) return;
      try {
        const read = readServerMessage(JSON.parse(String(event.data)));
        if (read.ok) this.events.onMessage(read.message);
        else console.warn("Ignoring an unexpected message from the game server:", read.reason);
      } catch (error) {
        // docs/product.md#reconnection: message parse failures are only logged.
        console.warn("Could not parse a message from the game server", error);
      }
    });
    socket.addEventListener("error", () => {
      if (socket === this.socket) this.lastError = "Connection error";
    });
    socket.addEventListener("close", (event) => {
      if (socket === this.next) {
        // The new game's socket did not open: the old one goes too, and the usual retries open the new URL.
        this.next = null;
        const previous = this.socket;
        this.socket = null;
        if (previous) this.discard(previous);
        this.setState("closed");
        this.lastError = `Connection closed (code: ${event.code})`;
        this.scheduleRetry();
        return;
      }
      if (this.socket !== socket) return;
      if (this.next) {
        // The old socket dropped while the new one opens: that one takes over when it opens.
        this.socket = null;
        return;
      }
      this.socket = null;
      this.setState("closed");
      if (event.code !== 1000) this.lastError = `Connection closed (code: ${event.code})`;
      // A normal close, another tab taking over this player, or the host removing it, is not retried.
      if (FINAL_CLOSE_CODES.has(event.code) || this.stopped) return;
      // After 4007 (someone signed in or out here) too: the usual delay lets the sign-in's answer set
      // the browser's new cookies before the socket opens again with them.
      this.scheduleRetry();
    });
  }

  private flushQueue(socket: WebSocket): void {
    const queued = this.queue;
    this.queue = [];
    for (const data of queued) socket.send(data);
  }

  private scheduleRetry(): void {
    if (this.attempts >= MAX_RECONNECT_ATTEMPTS) {
      const message = this.lastError ?? FAILED_AFTER_RETRIES;
      window.dispatchEvent(new CustomEvent(WEBSOCKET_FAILED_EVENT, { detail: message }));
      this.events.onGiveUp(message);
      return;
    }
    const delay = reconnectDelay(this.attempts);
    this.attempts++;
    this.timer = setTimeout(() => this.open(), delay);
  }
}
