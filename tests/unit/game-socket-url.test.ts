/**
 * The browser's game socket names its game in its URL (issue 28: a balancer hashes on `game`), reads
 * the URL afresh for every socket, and moves to a socket for a game learnt while open without a drop
 * the page could see (app/game/client/socket.ts, `follow`).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { GameSocket, type ConnectionState, type SocketEvents } from "#app/game/client/socket";

type Listener = (event: { code?: number; data?: string }) => void;

/** A stand-in for the browser's WebSocket: the test opens, closes and speaks for the server. */
class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static made: FakeWebSocket[] = [];
  readonly OPEN = 1;
  readyState = FakeWebSocket.CONNECTING;
  readonly sent: string[] = [];
  closedWith: number | null = null;
  private readonly listeners = new Map<string, Listener[]>();

  constructor(readonly url: string) {
    FakeWebSocket.made.push(this);
  }

  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  send(data: string): void {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error("send on a socket that is not open");
    this.sent.push(data);
  }

  close(code = 1000): void {
    if (this.readyState === FakeWebSocket.CLOSED) return;
    this.closedWith = code;
    this.serverCloses(code);
  }

  private emit(type: string, event: { code?: number; data?: string } = {}): void {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }

  serverOpens(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.emit("open");
  }

  serverCloses(code: number): void {
    this.readyState = FakeWebSocket.CLOSED;
    this.emit("close", { code });
  }
}

const JOIN = { type: "JOIN_GAME", payload: { gameCode: "ABC234", nickname: "Ann" } } as const;

function recorder() {
  const states: ConnectionState[] = [];
  const calls = { opens: 0, reconnected: 0, messages: [] as unknown[], gaveUp: 0 };
  const events: SocketEvents = {
    onMessage: (message) => calls.messages.push(message),
    onStateChange: (state) => states.push(state),
    onOpen: () => calls.opens++,
    onReconnected: () => calls.reconnected++,
    onGiveUp: () => calls.gaveUp++,
  };
  return { states, calls, events };
}

describe("GameSocket's URL and its game", () => {
  let game: string | null;
  const url = () => `ws://quiz.test/ws?clientId=c1${game ? `&game=${game}` : ""}`;

  beforeEach(() => {
    vi.useFakeTimers();
    FakeWebSocket.made = [];
    game = null;
    vi.stubGlobal("WebSocket", FakeWebSocket);
    vi.stubGlobal("window", { dispatchEvent: () => true });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("reads the URL when it opens: a game known before the first open is in the first socket's URL", () => {
    const { events } = recorder();
    const socket = new GameSocket(url, events);
    socket.start();
    game = "ABC234";
    vi.advanceTimersByTime(500);
    expect(FakeWebSocket.made.map((made) => made.url)).toEqual(["ws://quiz.test/ws?clientId=c1&game=ABC234"]);
  });

  it("moves to a socket naming the game learnt while open, with no drop the page sees", () => {
    const { states, calls, events } = recorder();
    const socket = new GameSocket(url, events);
    socket.start();
    vi.advanceTimersByTime(500);
    const home = FakeWebSocket.made[0];
    home.serverOpens();
    expect(calls.opens).toBe(1);

    game = "ABC234";
    expect(socket.follow()).toBe(true);
    const inGame = FakeWebSocket.made[1];
    expect(inGame.url).toBe("ws://quiz.test/ws?clientId=c1&game=ABC234");
    // Until the new one opens, the old one stays, and what is said waits for the new one.
    expect(home.closedWith).toBeNull();
    socket.send(JOIN);
    expect(home.sent).toEqual([]);

    inGame.serverOpens();
    expect(home.closedWith).toBe(1000);
    expect(inGame.sent).toEqual([JSON.stringify(JOIN)]);
    expect(calls.opens).toBe(2);
    // Not a reconnection, and never closed or connecting in between.
    expect(calls.reconnected).toBe(0);
    expect(states).toEqual(["connecting", "open"]);
    expect(socket.state).toBe("open");

    // The new one is the socket now: a drop of it is a drop, retried.
    inGame.serverCloses(1006);
    expect(socket.state).toBe("closed");
  });

  it("keeps the socket when the URL names the same game", () => {
    const { events } = recorder();
    game = "ABC234";
    const socket = new GameSocket(url, events);
    socket.start();
    vi.advanceTimersByTime(500);
    FakeWebSocket.made[0].serverOpens();
    expect(socket.follow()).toBe(false);
    expect(FakeWebSocket.made).toHaveLength(1);
  });

  it("replaces a socket still connecting", () => {
    const { events } = recorder();
    const socket = new GameSocket(url, events);
    socket.start();
    vi.advanceTimersByTime(500);
    game = "ABC234";
    expect(socket.follow()).toBe(true);
    expect(FakeWebSocket.made[0].closedWith).toBe(1000);
    expect(FakeWebSocket.made[1].url).toContain("&game=ABC234");
  });

  it("reconnects after a drop with the URL of the game it is in now", () => {
    const { calls, events } = recorder();
    const socket = new GameSocket(url, events);
    socket.start();
    vi.advanceTimersByTime(500);
    FakeWebSocket.made[0].serverOpens();
    FakeWebSocket.made[0].serverCloses(1006);
    game = "ABC234";
    expect(socket.follow()).toBe(false); // closed: the retry reads the URL
    vi.advanceTimersByTime(10_000);
    expect(FakeWebSocket.made[1].url).toContain("&game=ABC234");
    FakeWebSocket.made[1].serverOpens();
    expect(calls.reconnected).toBe(1);
  });

  it("falls back to the usual retries, with the new URL, when the new game's socket fails to open", () => {
    const { states, events } = recorder();
    const socket = new GameSocket(url, events);
    socket.start();
    vi.advanceTimersByTime(500);
    const home = FakeWebSocket.made[0];
    home.serverOpens();
    game = "ABC234";
    socket.follow();
    FakeWebSocket.made[1].serverCloses(1006);
    expect(home.closedWith).toBe(1000);
    expect(states.at(-1)).toBe("closed");
    vi.advanceTimersByTime(10_000);
    expect(FakeWebSocket.made[2].url).toContain("&game=ABC234");
  });
});
