/**
 * Starts the real server (production build, real SQLite file, real /ws) on port 0 and drives it
 * with real `ws` clients and fetch. In the Postgres pass (QUIZ_TEST_DATABASE=postgres,
 * docs/testing.md) the server's data is a fresh database on the run's PostgreSQL instead.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import WebSocket from "ws";
import { expect } from "vitest";
import { readServerMessage } from "#app/game/client/server-message";
import { ServerMessageSchema, type ServerMessage, type ServerMessageType, type ServerPayload } from "#app/game/protocol";
import { createAccount, createGuest, type User } from "#app/models/user.server";
import { startSession } from "#app/sessions/session.server";
import { startServer, type RunningServer, type ServerConfig } from "../../server";
import { silentLogger } from "#server/logger";
import { sharedTestPostgres, uniqueDatabaseName, usesPostgres, TEST_TEMPLATE_DATABASE } from "../postgres";

export interface TestServer extends RunningServer {
  /**
   * Names the server's database: another server started with it opens the same data. A SQLite file;
   * in the Postgres pass, a key for the Postgres database the harness made for it (databaseUrl).
   */
  databasePath: string;
  /** The Postgres pass: the server's database. */
  databaseUrl?: string;
  api<T = any>(
    pathname: string,
    init?: { method?: string; body?: unknown; clientId?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

/**
 * Each test browser's cookies, by its client id: what the server sets for a client id (its host
 * secret, docs/decisions/0044-shared-browsers.md) goes back with that client id's later requests
 * (`api` with `clientId`) and sockets (`TestClient.connect`), as a browser's cookie jar would.
 */
const browserCookies = new Map<string, Map<string, string>>();

/** The Cookie header this client id's browser sends, if the server set it any cookies. */
export function cookiesOf(clientId: string): string | undefined {
  const jar = browserCookies.get(clientId);
  return jar && jar.size > 0 ? [...jar].map(([name, value]) => `${name}=${value}`).join("; ") : undefined;
}

/** The Cookie header of the browser with this client id: the client id's cookie and those the server set it. */
export function browserCookie(clientId: string): string {
  const kept = cookiesOf(clientId);
  return kept ? `quiz_client_id=${clientId}; ${kept}` : `quiz_client_id=${clientId}`;
}

/** Puts a cookie (`name=value`, e.g. a signed-in session's) in the jar of this client id's browser. */
export function setBrowserCookie(clientId: string, pair: string): void {
  const at = pair.indexOf("=");
  const jar = browserCookies.get(clientId) ?? new Map<string, string>();
  browserCookies.set(clientId, jar);
  jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
}

/** Keeps the cookies a response sets, for this client id's browser. */
export function keepCookies(clientId: string, response: Response): void {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const jar = browserCookies.get(clientId) ?? new Map<string, string>();
    browserCookies.set(clientId, jar);
    jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
}

/** A JSON POST to a server the harness did not start (a node of its own process), as this client id's browser, keeping its cookies. */
export async function postAs(url: string, pathname: string, body: unknown, clientId: string): Promise<{ status: number; body: any }> {
  const cookie = cookiesOf(clientId);
  const response = await fetch(url + pathname, {
    method: "POST",
    headers: { "content-type": "application/json", "x-client-id": clientId, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  keepCookies(clientId, response);
  return { status: response.status, body: await response.json() };
}

export const TEST_SESSION_SECRET = "integration-test-session-secret-0123456789";

/**
 * The Postgres pass: the database standing for each databasePath, so that a test restarting a server
 * on the same databasePath (restart.test.ts and others) gets the same data back, as with a file.
 */
const postgresDatabases = new Map<string, { url: string; name: string }>();

async function postgresDatabaseFor(databasePath: string): Promise<{ url: string; name: string; created: boolean }> {
  const known = postgresDatabases.get(databasePath);
  if (known) return { ...known, created: false };
  const postgres = sharedTestPostgres();
  try {
    const name = uniqueDatabaseName(path.basename(path.dirname(databasePath)));
    const url = await postgres.createDatabase(name, { template: TEST_TEMPLATE_DATABASE });
    postgresDatabases.set(databasePath, { url, name });
    return { url, name, created: true };
  } finally {
    await postgres.release();
  }
}

export async function startTestServer(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  const dir = overrides.databasePath ? null : fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-test-"));
  const databasePath = overrides.databasePath ?? path.join(dir!, "quiz.sqlite");
  const postgres = usesPostgres() && overrides.databaseUrl === undefined ? await postgresDatabaseFor(databasePath) : undefined;
  const databaseUrl = overrides.databaseUrl ?? postgres?.url;
  const server = await startServer({
    port: 0,
    host: "127.0.0.1",
    seedDemo: false,
    allowedOrigins: ["https://allowed.example"],
    sessionSecret: TEST_SESSION_SECRET,
    mode: "production",
    logger: silentLogger,
    ...overrides,
    databasePath,
    databaseUrl,
    game: {
      commitIntervalMs: 5,
      ...overrides.game,
      settings: { resultsDelayMs: 150, nextQuestionSeconds: 1, lobbyGraceMs: 60_000, ...overrides.game?.settings },
    },
  });
  return {
    ...server,
    databasePath,
    databaseUrl,
    async api(pathname, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.body !== undefined) headers["content-type"] ??= "application/json";
      if (init.clientId) {
        headers["x-client-id"] = init.clientId;
        const cookie = cookiesOf(init.clientId);
        if (cookie) headers.cookie = headers.cookie ? `${headers.cookie}; ${cookie}` : cookie;
      }
      const response = await fetch(server.url + pathname, {
        method: init.method ?? (init.body === undefined ? "GET" : "POST"),
        headers,
        body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
      });
      if (init.clientId) keepCookies(init.clientId, response);
      const text = await response.text();
      let body: any = text;
      try {
        body = JSON.parse(text);
      } catch {
        // an HTML page
      }
      return { status: response.status, body };
    },
    async stop() {
      await server.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      // A database only this server knew goes with it; one a test may start another server on
      // stays until the run's PostgreSQL stops.
      if (postgres?.created && dir) {
        postgresDatabases.delete(databasePath);
        const databases = sharedTestPostgres();
        await databases.dropDatabase(postgres.name).finally(() => databases.release());
      }
    },
  };
}

export interface SignedIn {
  user: User;
  /** `qn_session=...`, for a Cookie header. */
  cookie: string;
  email: string;
  /** A fresh browser client id for this caller. */
  clientId: string;
}

let signIns = 0;

/** A new account (on `tier`) or guest with a real database session. */
export async function signInAs(server: TestServer, kind: "user" | "guest" = "user", tier = "free"): Promise<SignedIn> {
  const name = `u${++signIns}${randomUUID().slice(0, 8)}`;
  const email = `${name}@example.com`;
  let user = kind === "guest" ? await createGuest(server.db) : await createAccount(server.db, { username: name, email, password: "secret-password" });
  if (tier !== "free") {
    await server.db.updateTable("users").set({ subscription_tier: tier }).where("id", "=", user.id).execute();
    user = { ...user, subscriptionTier: tier };
  }
  const setCookie = await startSession({ db: server.db, sessionSecret: TEST_SESSION_SECRET }, new Request("http://localhost/auth"), user.id);
  return { user, cookie: setCookie.split(";")[0], email, clientId: `browser-${randomUUID()}` };
}

export interface QuizFixture {
  quizId: number;
  gameCode: string;
  hostClientId: string;
}

export const SAMPLE_QUESTIONS = [
  { text: "2 + 2?", answers: ["3", "4", "5", "22"], correctAnswerIndex: 1 },
  { text: "Capital of France?", answers: ["Paris", "Rome", "Madrid", "Berlin"], correctAnswerIndex: 0 },
  { text: "Largest planet?", answers: ["Mars", "Venus", "Jupiter", "Earth"], correctAnswerIndex: 2 },
];

/** Creates a quiz, its questions and a game over the HTTP API, and registers a host client. */
export async function createGameFixture(
  server: TestServer,
  options: { questions?: Record<string, unknown>[]; timeLimit?: number; isPublic?: boolean } = {},
): Promise<QuizFixture> {
  const hostClientId = `host-${randomUUID()}`;
  const quiz = await server.api("/api/quizzes", {
    body: { title: "Test quiz", description: "For tests", timeLimit: options.timeLimit ?? 30, isPublic: options.isPublic ?? true, creatorId: 1 },
    clientId: hostClientId,
  });
  expect(quiz.status).toBe(201);
  for (const [order, question] of (options.questions ?? SAMPLE_QUESTIONS).entries()) {
    const created = await server.api("/api/questions", { body: { quizId: quiz.body.id, order, ...question }, clientId: hostClientId });
    expect(created.status).toBe(201);
  }
  const game = await server.api("/api/games", { body: { quizId: quiz.body.id, hostId: 1 }, clientId: hostClientId });
  expect(game.status).toBe(201);
  const registered = await server.api(`/api/games/${game.body.gameCode}/register-host`, { body: { clientId: hostClientId }, clientId: hostClientId });
  expect(registered.status).toBe(200);
  return { quizId: quiz.body.id, gameCode: game.body.gameCode, hostClientId };
}

type Received = { message: ServerMessage; consumed: boolean };

/** A real WebSocket client that checks every message it receives against the protocol schema and the browser's check. */
export class TestClient {
  readonly received: Received[] = [];
  private waiters: (() => void)[] = [];
  closeCode: number | null = null;
  private closed: Promise<number>;

  private constructor(
    readonly socket: WebSocket,
    readonly clientId: string,
  ) {
    socket.on("message", (data) => {
      const parsed = ServerMessageSchema.safeParse(JSON.parse(data.toString()));
      if (!parsed.success) throw new Error(`Server sent an invalid message: ${data.toString()}\n${parsed.error.message}`);
      // What a browser checks, without zod, must take every message the server sends too.
      const read = readServerMessage(JSON.parse(data.toString()));
      if (!read.ok) throw new Error(`A browser would refuse a message the server sent: ${data.toString()}\n${read.reason}`);
      this.received.push({ message: parsed.data, consumed: false });
      this.wake();
    });
    this.closed = new Promise((resolve) =>
      socket.on("close", (code) => {
        this.closeCode = code;
        this.wake();
        resolve(code);
      }),
    );
  }

  /**
   * `server` may be anything with a URL, such as a proxy in front of the server; `options` go to `ws`
   * (a local address, TLS), but `game`, which the socket URL names as a browser's does (`&game=CODE`).
   */
  static async connect(
    server: Pick<TestServer, "url">,
    clientId: string = `client-${randomUUID()}`,
    headers?: Record<string, string>,
    options: WebSocket.ClientOptions & { game?: string } = {},
  ): Promise<TestClient> {
    // The browser's cookies go with the upgrade, as a browser's do (its host secret among them).
    const cookie = cookiesOf(clientId);
    const withCookies = cookie && !Object.keys(headers ?? {}).some((name) => name.toLowerCase() === "cookie") ? { ...headers, cookie } : headers;
    const { game, ...socketOptions } = options;
    const gameParam = game === undefined ? "" : `&game=${encodeURIComponent(game)}`;
    const socket = new WebSocket(`${server.url.replace("http", "ws")}/ws?clientId=${encodeURIComponent(clientId)}${gameParam}`, {
      ...socketOptions,
      headers: withCookies,
    });
    const client = new TestClient(socket, clientId);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    return client;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }

  send(type: string, payload: unknown): void {
    this.socket.send(JSON.stringify({ type, payload }));
  }

  sendRaw(data: string): void {
    this.socket.send(data);
  }

  /** The next unconsumed message of `type` (matching `where`), waiting for it if needed. */
  async next<T extends ServerMessageType>(type: T, where: (payload: ServerPayload<T>) => boolean = () => true, timeoutMs = 5000): Promise<ServerPayload<T>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find((entry) => !entry.consumed && entry.message.type === type && where(entry.message.payload as ServerPayload<T>));
      if (found) {
        found.consumed = true;
        return found.message.payload as ServerPayload<T>;
      }
      const left = deadline - Date.now();
      if (left <= 0 || this.closeCode !== null) {
        const seen = this.received.map((entry) => entry.message.type).join(", ");
        throw new Error(`${this.clientId}: no ${type} within ${timeoutMs} ms (closed: ${this.closeCode}); received: ${seen}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Every message of `type` received so far, consumed or not. */
  all<T extends ServerMessageType>(type: T): ServerPayload<T>[] {
    return this.received.filter((entry) => entry.message.type === type).map((entry) => entry.message.payload as ServerPayload<T>);
  }

  /** Waits briefly and asserts no unconsumed message of `type` arrived. */
  async expectNone(type: ServerMessageType, waitMs = 150): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    const unexpected = this.received.filter((entry) => !entry.consumed && entry.message.type === type);
    expect(unexpected.map((entry) => entry.message)).toEqual([]);
  }

  async joinAsPlayer(gameCode: string, nickname: string): Promise<number> {
    this.send("JOIN_GAME", { gameCode, nickname });
    const joined = await this.next("PLAYER_JOINED", (payload) => payload.player.nickname === nickname.trim());
    await this.next("GAME_SNAPSHOT");
    return joined.player.id;
  }

  async joinAsHost(gameCode: string): Promise<ServerPayload<"GAME_SNAPSHOT">> {
    this.send("JOIN_GAME", { gameCode, nickname: "__HOST__" });
    return this.next("GAME_SNAPSHOT", (payload) => payload.role === "host");
  }

  close(): Promise<number> {
    if (this.closeCode === null) this.socket.close();
    return this.closed;
  }

  /** The close code the server ends this socket with, waiting for it. */
  async closedByServer(timeoutMs = 5000): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${this.clientId}: the server did not close the socket within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([this.closed, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  terminate(): Promise<number> {
    this.socket.terminate();
    return this.closed;
  }
}
