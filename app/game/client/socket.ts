/**
 * The app's one WebSocket (docs/product.md#reconnection): first attempt 500 ms after load, automatic
 * reconnection on an abnormal close (5 attempts, 1500 ms growing by 1.5x up to 10 s, with jitter so
 * a venue's phones do not reconnect in lockstep), and a queue for messages sent while closed.
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
  private queue: string[] = [];
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private everOpened = false;
  private lastError: string | null = null;
  private stopped = false;
  state: ConnectionState = "closed";

  constructor(
    private readonly url: string,
    private readonly events: SocketEvents,
  ) {}

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
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.close(1000, "Offline");
      this.setState("closed");
    }
  }

  send(message: ClientMessage): void {
    const data = JSON.stringify(message);
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(data);
    else this.queue.push(data);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close(1000, "Leaving");
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    this.events.onStateChange(state);
  }

  private open(): void {
    if (this.stopped) return;
    this.setState("connecting");
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url);
    } catch {
      this.lastError = "Connection error";
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.attempts = 0;
      this.setState("open");
      this.events.onOpen();
      const queued = this.queue;
      this.queue = [];
      for (const data of queued) socket.send(data);
      if (reconnected) this.events.onReconnected();
    });
    socket.addEventListener("message", (event) => {
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
      this.lastError = "Connection error";
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
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
