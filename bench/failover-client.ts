/**
 * A game client that reconnects as the browser does (app/game/client/socket.ts and game-provider.tsx),
 * for the cluster test (tests/integration/cluster.test.ts) and the bench's failover mode
 * (bench/failover.ts): after an abnormal close it waits `reconnectDelay(attempt)` (1.5 s growing by
 * 1.5x, with jitter; 5 attempts, counted afresh once a socket opens), opens a socket again with the
 * same client id, reads its URL afresh (so a test can say where each attempt goes), sends its join
 * again first (JOIN_GAME with its nickname, or WATCH_GAME with the display key), then what was said
 * while it was closed. The closes that end a browser's attempts (a normal close, replaced, kicked,
 * game closed, link replaced) end this one's too.
 *
 * A player answers each question once at a moment of its window the caller picks; a question whose
 * answer was sent but never acknowledged (the socket died first) is answered again once the player
 * is back and the question still open, as a person taps again. What counts is what the server
 * acknowledged: ANSWER_ACCEPTED, live or in the catch-up a rejoin gets.
 */
import { EventEmitter } from "node:events";
import WebSocket from "ws";
import { MAX_RECONNECT_ATTEMPTS, reconnectDelay } from "#app/game/client/socket";
import { CloseCode } from "#app/game/protocol-constants";

/** A message's payload as the server sent it (JSON): its readers, the bench and the tests, check the fields they use. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read field by field by the callers
export type Payload = any;

/** Closes after which the browser does not reconnect (app/game/client/socket.ts). */
const FINAL_CLOSE_CODES = new Set<number>([1000, CloseCode.REPLACED, CloseCode.KICKED, CloseCode.GAME_CLOSED, CloseCode.LINK_REPLACED]);

export interface ReceivedMessage {
  type: string;
  payload: Payload;
  /** When it arrived, on the caller's clock. */
  at: number;
  /** Which socket of this client it came on (0 for the first, 1 after the first reconnection...). */
  socket: number;
}

export interface Close {
  code: number;
  reason: string;
  at: number;
  socket: number;
}

export interface FailoverClientOptions {
  /** The socket URL of each attempt (it names the client id and the game, as the browser's does). */
  url: (attempt: { socket: number; lastClose: Close | null }) => string;
  /** JOIN_GAME or WATCH_GAME, sent first on every socket opened. */
  join: { type: "JOIN_GAME" | "WATCH_GAME"; payload: Record<string, unknown> };
  /** Headers of the upgrade (a host's cookies). */
  headers?: Record<string, string>;
  /** The clock every time is read on (the bench's monotonic one, shared between processes). */
  now?: () => number;
  /** Keeps every message (a test checks their order); the bench keeps only what it counts. */
  keepMessages?: boolean;
  /**
   * A player's answer to an open question, and when to send it (ms from now); null: no answer.
   * Called when the question arrives, live or in a rejoin's catch-up, until it is acknowledged.
   */
  answer?: (question: Payload, resent: boolean) => { fields: Record<string, unknown>; delayMs: number } | null;
  /** Called once a socket opened after a close has this client back in its game (its GAME_SNAPSHOT). */
  onBack?: (at: number, close: Close) => void;
  onMessage?: (message: ReceivedMessage) => void;
}

export class FailoverClient extends EventEmitter {
  readonly messages: ReceivedMessage[] = [];
  readonly closes: Close[] = [];
  /** ERROR messages' payloads. */
  readonly errors: Payload[] = [];
  /** By question number: the acknowledged answer (its payload) and when. */
  readonly acks = new Map<number, { payload: Payload; at: number }>();
  /** For each close that was followed by a rejoin: the close, and when the client was back in its game. */
  readonly returns: Array<{ close: Close; backAt: number }> = [];
  /** Question number → answers sent for it (a resend after a drop counts again). */
  readonly sent = new Map<number, number>();
  playerId: number | null = null;
  /** The last GAME_SNAPSHOT's payload. */
  snapshot: Payload = null;
  gameOver: Payload = null;
  gaveUp = false;
  /** How many sockets this client opened. */
  socketsOpened = 0;

  private socket: WebSocket | null = null;
  private socketIndex = -1;
  private attempts = 0;
  private queue: string[] = [];
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private answerTimer: NodeJS.Timeout | null = null;
  private answerFor: number | null = null;
  private lastClose: Close | null = null;
  /** Set after a close: the next GAME_SNAPSHOT is the client's return. */
  private awaitingReturn: Close | null = null;
  private readonly now: () => number;

  constructor(private readonly options: FailoverClientOptions) {
    super();
    this.now = options.now ?? (() => performance.now());
  }

  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  start(): void {
    this.connect();
  }

  send(type: string, payload: Record<string, unknown>): void {
    const data = JSON.stringify({ type, payload });
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(data);
    else this.queue.push(data);
  }

  /** Closes for good (1000), as a page left. */
  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.answerTimer) clearTimeout(this.answerTimer);
    this.socket?.close(1000, "Leaving");
  }

  /** Drops the connection without a close frame (the test's end). */
  terminate(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.answerTimer) clearTimeout(this.answerTimer);
    this.socket?.terminate();
  }

  private connect(): void {
    if (this.stopped) return;
    const index = ++this.socketIndex;
    const socket = new WebSocket(this.options.url({ socket: index, lastClose: this.lastClose }), {
      perMessageDeflate: false,
      headers: this.options.headers,
    });
    this.socket = socket;
    socket.on("open", () => {
      if (socket !== this.socket) return;
      this.socketsOpened++;
      this.attempts = 0;
      socket.send(JSON.stringify(this.options.join));
      const queued = this.queue;
      this.queue = [];
      for (const data of queued) socket.send(data);
    });
    socket.on("message", (data: Buffer) => {
      if (socket !== this.socket) return;
      this.receive(JSON.parse(data.toString()) as { type: string; payload: Payload }, index);
    });
    socket.on("error", () => {
      // A refused or broken connection ends in `close` (1006), which schedules the retry.
    });
    socket.on("close", (code: number, reason: Buffer) => {
      if (socket !== this.socket) return;
      this.socket = null;
      const close: Close = { code, reason: reason.toString(), at: this.now(), socket: index };
      this.closes.push(close);
      this.lastClose = close;
      // The first close since the client was last in its game is the one its return is timed from.
      this.awaitingReturn ??= close;
      this.emit("close", close);
      if (this.stopped || FINAL_CLOSE_CODES.has(code)) return;
      if (this.attempts >= MAX_RECONNECT_ATTEMPTS) {
        this.gaveUp = true;
        this.emit("gave-up");
        return;
      }
      const delay = reconnectDelay(this.attempts);
      this.attempts++;
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
  }

  private receive(message: { type: string; payload: Payload }, socket: number): void {
    const at = this.now();
    const received: ReceivedMessage = { ...message, at, socket };
    if (this.options.keepMessages) this.messages.push(received);
    switch (message.type) {
      case "GAME_SNAPSHOT":
        this.snapshot = message.payload;
        if (message.payload.playerId !== null && message.payload.playerId !== undefined) this.playerId = message.payload.playerId;
        if (this.awaitingReturn) {
          this.returns.push({ close: this.awaitingReturn, backAt: at });
          this.options.onBack?.(at, this.awaitingReturn);
          this.awaitingReturn = null;
        }
        break;
      case "PLAYER_JOINED":
        // A player's own join comes first (its id); a host hears of every player.
        if (this.playerId === null && this.options.join.type === "JOIN_GAME" && message.payload.player.nickname === this.options.join.payload.nickname) {
          this.playerId = message.payload.player.id;
        }
        break;
      case "QUESTION_STARTED":
        this.onQuestion(message.payload);
        break;
      case "ANSWER_ACCEPTED":
        if (!this.acks.has(message.payload.questionNumber)) this.acks.set(message.payload.questionNumber, { payload: message.payload, at });
        if (this.answerFor === message.payload.questionNumber && this.answerTimer) {
          clearTimeout(this.answerTimer);
          this.answerTimer = null;
        }
        break;
      case "ANSWER_RESULTS":
      case "LEADERBOARD_UPDATE":
        if (this.answerTimer) clearTimeout(this.answerTimer);
        this.answerTimer = null;
        break;
      case "ERROR":
        this.errors.push(message.payload);
        break;
      case "GAME_OVER":
        this.gameOver = message.payload;
        if (this.answerTimer) clearTimeout(this.answerTimer);
        break;
    }
    this.options.onMessage?.(received);
    this.emit("message", received);
  }

  private onQuestion(payload: Payload): void {
    const questionNumber: number = payload.questionNumber;
    if (!this.options.answer || this.acks.has(questionNumber)) return;
    // An answer already timed for this question (the socket dropped before it went) still goes when due.
    if (this.answerFor === questionNumber && this.answerTimer) return;
    const resent = (this.sent.get(questionNumber) ?? 0) > 0;
    const plan = this.options.answer(payload, resent);
    if (!plan) return;
    if (this.answerTimer) clearTimeout(this.answerTimer);
    this.answerFor = questionNumber;
    this.answerTimer = setTimeout(() => {
      this.answerTimer = null;
      if (this.acks.has(questionNumber) || this.playerId === null) return;
      this.sent.set(questionNumber, (this.sent.get(questionNumber) ?? 0) + 1);
      this.send("SUBMIT_ANSWER", { gameCode: this.options.join.payload.gameCode, playerId: this.playerId, ...plan.fields });
    }, plan.delayMs);
  }
}
