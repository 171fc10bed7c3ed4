/**
 * Crashes and reconnection storms: a real server process killed mid-question must lose no
 * acknowledged answer and let the game carry on after a restart, and a restart must bring a
 * thousand clients back with their player ids.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SQLite } from "#db/sqlite.server";
import WebSocket from "ws";
import { freePort } from "#tests/free-port";
import { describe, expect, it } from "vitest";
import { MAX_RECONNECT_ATTEMPTS, reconnectDelay } from "#app/game/client/socket";
import { CloseCode, ServerMessageSchema, type ServerMessage, type ServerMessageType, type ServerPayload } from "#app/game/protocol";
import { HOST_NICKNAME } from "#app/game/rules";
import { SAMPLE_QUESTIONS, cookiesOf, createGameFixture, keepCookies, startTestServer, type TestServer } from "./harness";
import { openDatabase } from "#db/connection.server";
import { hostNewNight } from "#app/models/game-night.server";
import { hostSecretOf } from "#app/sessions/host-secret.server";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- a client that comes back by itself

interface ReconnectPolicy {
  /** How long to wait before reconnection attempt `attempt` (0 for the first after a drop), or null to give up. */
  delayMs(attempt: number): number | null;
}

type Entry = { message: ServerMessage; connection: number; consumed: boolean };
type AnswerOutcome = "accepted" | "already answered" | "closed";

/**
 * A `ws` client that behaves like the app's GameSocket: it checks every message against the
 * protocol, reconnects by itself after an abnormal close, and (re)joins its game on every open.
 */
class ReconnectingClient {
  readonly entries: Entry[] = [];
  /** Close codes of the connections that had opened, in order. */
  readonly drops: number[] = [];
  /** Question number -> answer index, from every ANSWER_ACCEPTED, live or catch-up, on any connection. */
  readonly acknowledged = new Map<number, number>();
  /** Connections that opened so far; messages are tagged with the one they came on. */
  connections = 0;
  playerId: number | null = null;
  private socket: WebSocket | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private attempts = 0;
  private stopped = false;
  private failure: Error | null = null;
  /** `next` and friends only look at messages of this connection and later ones. */
  private firstConnection = 1;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly url: () => string,
    readonly clientId: string,
    readonly gameCode: string,
    readonly nickname: string,
    private readonly policy: ReconnectPolicy,
  ) {}

  connect(): void {
    if (this.stopped) return;
    // The browser's cookies go with every upgrade (the host's secret among them).
    const cookie = cookiesOf(this.clientId);
    const socket = new WebSocket(
      `${this.url().replace(/^http/, "ws")}/ws?clientId=${encodeURIComponent(this.clientId)}`,
      cookie ? { headers: { cookie } } : {},
    );
    this.socket = socket;
    let opened = false;
    socket.on("open", () => {
      opened = true;
      this.attempts = 0;
      this.connections++;
      this.send("JOIN_GAME", { gameCode: this.gameCode, nickname: this.nickname });
      this.wake();
    });
    socket.on("message", (data) => this.receive(data.toString()));
    // A refused connection while the server is down lands here; "close" follows and decides.
    socket.on("error", () => {});
    socket.on("close", (code) => {
      if (this.socket === socket) this.socket = null;
      if (opened) this.drops.push(code);
      this.wake();
      if (this.stopped || code === 1000 || code === CloseCode.REPLACED) return;
      const delay = this.policy.delayMs(this.attempts);
      if (delay === null) {
        this.fail(new Error(`${this.nickname}: gave up reconnecting after ${this.attempts} attempts`));
        return;
      }
      this.attempts++;
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
  }

  private receive(text: string): void {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      this.fail(new Error(`${this.nickname}: the server sent a frame that is not JSON: ${text}`));
      return;
    }
    const parsed = ServerMessageSchema.safeParse(data);
    if (!parsed.success) {
      this.fail(new Error(`${this.nickname}: the server sent an invalid message: ${text}\n${parsed.error.message}`));
      return;
    }
    const message = parsed.data;
    if (message.type === "ANSWER_ACCEPTED") this.acknowledged.set(message.payload.questionNumber, message.payload.answerIndex ?? -1);
    this.entries.push({ message, connection: this.connections, consumed: false });
    this.wake();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }

  send(type: string, payload: unknown): void {
    if (this.socket?.readyState !== WebSocket.OPEN) throw new Error(`${this.nickname}: cannot send ${type}, the socket is not open`);
    this.socket.send(JSON.stringify({ type, payload }));
  }

  /** Calls `find` whenever something happens until it returns a value, the client fails, or time is up. */
  private async until<T>(find: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.failure) throw this.failure;
      const found = find();
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0) {
        const seen = this.entries.slice(-20).map((entry) => `${entry.message.type}@${entry.connection}`);
        throw new Error(`${this.nickname}: no ${what} within ${timeoutMs} ms; last received: ${seen.join(", ")}`);
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

  /** The next unconsumed message (of the current connections) that `matches`. */
  nextMatching(matches: (message: ServerMessage) => boolean, what: string, timeoutMs = 5000): Promise<ServerMessage> {
    return this.until(
      () => {
        const found = this.entries.find((entry) => !entry.consumed && entry.connection >= this.firstConnection && matches(entry.message));
        if (!found) return undefined;
        found.consumed = true;
        return found.message;
      },
      what,
      timeoutMs,
    );
  }

  async next<T extends ServerMessageType>(type: T, where: (payload: ServerPayload<T>) => boolean = () => true, timeoutMs = 5000): Promise<ServerPayload<T>> {
    const message = await this.nextMatching((candidate) => candidate.type === type && where(candidate.payload as ServerPayload<T>), type, timeoutMs);
    return message.payload as ServerPayload<T>;
  }

  /** A player's join reply: its own PLAYER_JOINED, then the snapshot. */
  async joined(timeoutMs = 5000): Promise<{ id: number; snapshot: ServerPayload<"GAME_SNAPSHOT"> }> {
    const reply = await this.nextMatching(
      (message) => (message.type === "PLAYER_JOINED" && message.payload.player.nickname === this.nickname) || message.type === "ERROR",
      "PLAYER_JOINED",
      timeoutMs,
    );
    if (reply.type !== "PLAYER_JOINED") throw new Error(`${this.nickname}: the join was refused: ${JSON.stringify(reply.payload)}`);
    const { player } = reply.payload;
    const snapshot = await this.next("GAME_SNAPSHOT", undefined, timeoutMs);
    this.playerId = player.id;
    return { id: player.id, snapshot };
  }

  hostJoined(timeoutMs = 5000): Promise<ServerPayload<"GAME_SNAPSHOT">> {
    return this.next("GAME_SNAPSHOT", (payload) => payload.role === "host", timeoutMs);
  }

  sendAnswer(answerIndex: number): void {
    this.send("SUBMIT_ANSWER", { gameCode: this.gameCode, playerId: this.playerId, answerIndex });
  }

  /** Answers the open question and waits for the server's verdict. */
  async answer(questionNumber: number, answerIndex: number): Promise<AnswerOutcome> {
    this.sendAnswer(answerIndex);
    const reply = await this.nextMatching(
      (message) => (message.type === "ANSWER_ACCEPTED" && message.payload.questionNumber === questionNumber) || message.type === "ERROR",
      `reply to the answer to question ${questionNumber}`,
    );
    if (reply.type === "ANSWER_ACCEPTED") {
      expect(reply.payload.answerIndex).toBe(answerIndex);
      return "accepted";
    }
    if (reply.type === "ERROR" && reply.payload.code === "ALREADY_ANSWERED") return "already answered";
    if (reply.type === "ERROR" && reply.payload.code === "QUESTION_CLOSED") return "closed";
    throw new Error(`${this.nickname}: unexpected reply to an answer: ${JSON.stringify(reply)}`);
  }

  /**
   * From now on `next` ignores the current connection: called just before the server goes away,
   * so what is awaited afterwards must come from a new connection (late frames of the old one
   * still count as acknowledgements).
   */
  expectNewConnection(): void {
    this.firstConnection = this.connections + 1;
  }

  /** Resolves once every connection before `expectNewConnection` has closed. */
  dropped(timeoutMs = 10_000): Promise<true> {
    return this.until(() => (this.drops.length >= this.firstConnection - 1 ? true : undefined), "drop", timeoutMs);
  }

  errorCodes(): (string | undefined)[] {
    return this.entries.flatMap((entry) => (entry.message.type === "ERROR" ? [entry.message.payload.code] : []));
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const socket = this.socket;
    if (!socket || socket.readyState === WebSocket.CLOSED) return;
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    if (socket.readyState === WebSocket.OPEN) socket.close(1000);
    else socket.terminate();
    await closed;
  }
}

// ---------------------------------------------------------------- the server as a process of its own

/** The built server (`npm run serve`) in a child process, so that it can die the way a crashed server does. */
class ServerProcess {
  private exited = false;
  private readonly exit: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    this.exit = new Promise((resolve) =>
      child.once("exit", () => {
        this.exited = true;
        resolve();
      }),
    );
  }

  static async start(env: Record<string, string>, output: string[]): Promise<ServerProcess> {
    // `detached` gives it a process group of its own, killed as one by crash().
    const child = spawn(process.execPath, [path.join(ROOT, "build/node/server.js")], {
      cwd: ROOT,
      env: env as NodeJS.ProcessEnv,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (chunk) => output.push(String(chunk)));
    child.stderr!.on("data", (chunk) => output.push(String(chunk)));
    child.once("error", (error) => output.push(`[spawn failed: ${error.message}]\n`));
    child.once("exit", (code, signal) => output.push(`[server exited: ${signal ?? code}]\n`));
    const server = new ServerProcess(child, `http://${env.HOST}:${env.PORT}`);
    await server.waitUntilServing();
    return server;
  }

  private async waitUntilServing(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.exited) throw new Error("The server process exited during startup");
      try {
        const response = await fetch(`${this.url}/`);
        await response.arrayBuffer();
        if (response.status === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error(`The server did not answer GET / within ${timeoutMs} ms`);
  }

  /** SIGKILL to the whole process group: no shutdown handler, no final commit. */
  async crash(): Promise<void> {
    process.kill(-this.child.pid!, "SIGKILL");
    await this.exit;
  }

  /** A graceful stop (SIGTERM); the group is killed if that hangs. */
  async stop(): Promise<void> {
    if (this.exited) return;
    this.child.kill("SIGTERM");
    await Promise.race([this.exit, sleep(15_000)]);
    if (!this.exited) {
      process.kill(-this.child.pid!, "SIGKILL");
      await this.exit;
    }
  }
}

async function post(url: string, pathname: string, body: unknown, clientId?: string): Promise<{ status: number; body: any }> {
  const cookie = clientId ? cookiesOf(clientId) : undefined;
  const response = await fetch(url + pathname, {
    method: "POST",
    headers: { "content-type": "application/json", ...(clientId ? { "x-client-id": clientId } : {}), ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  // The host secret the game is made with goes back with the host's later requests and sockets.
  if (clientId) keepCookies(clientId, response);
  return { status: response.status, body: await response.json() };
}

/** Like the harness's createGameFixture, against a server the harness did not start. */
async function createGame(url: string, timeLimit: number): Promise<{ gameCode: string; hostClientId: string }> {
  const hostClientId = `host-crash-${process.pid}`;
  const quiz = await post(url, "/api/quizzes", { title: "Crash quiz", description: "For tests", timeLimit, isPublic: true, creatorId: 1 }, hostClientId);
  expect(quiz.status).toBe(201);
  for (const [order, question] of SAMPLE_QUESTIONS.entries()) {
    const created = await post(url, "/api/questions", { quizId: quiz.body.id, order, ...question }, hostClientId);
    expect(created.status).toBe(201);
  }
  const game = await post(url, "/api/games", { quizId: quiz.body.id, hostId: 1 }, hostClientId);
  expect(game.status).toBe(201);
  const registered = await post(url, `/api/games/${game.body.gameCode}/register-host`, { clientId: hostClientId }, hostClientId);
  expect(registered.status).toBe(200);
  return { gameCode: game.body.gameCode, hostClientId };
}

/** The environment of a crash test's server process. */
function serverEnv(dir: string, port: number): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? dir,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATABASE_PATH: path.join(dir, "quiz.sqlite"),
    SESSION_SECRET: "crash-test-session-secret-0123456789abcd",
    SEED_DEMO: "false",
    RESULTS_DELAY_MS: "300",
    NEXT_QUESTION_SECONDS: "1",
    JOIN_LIMIT_PER_IP: "100000",
    JOIN_LIMIT_PER_IP_ALL_GAMES: "100000",
    JOIN_LIMIT_PER_GAME: "100000",
  };
}

/** Spreads players over right and wrong answers, so scores differ. */
const answerFor = (player: number, questionNumber: number) => (player + questionNumber) % 4;

// ---------------------------------------------------------------- the tests

describe("a server process killed mid-question", () => {
  it("keeps every acknowledged answer, and the game carries on after a restart", { timeout: 120_000 }, async ({ onTestFailed }) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-crash-"));
    const env = serverEnv(dir, await freePort());
    const output: string[] = [];
    onTestFailed(() => console.log(`server output:\n${output.join("")}`));
    // Back as soon as the server is: 200-500 ms apart, for about 30 s.
    const retryQuickly: ReconnectPolicy = { delayMs: (attempt) => (attempt < 85 ? 200 + Math.random() * 300 : null) };
    const clients: ReconnectingClient[] = [];
    let server: ServerProcess | null = null;
    try {
      server = await ServerProcess.start(env, output);
      const url = server.url;
      const { gameCode, hostClientId } = await createGame(url, 20);
      const host = new ReconnectingClient(() => url, hostClientId, gameCode, HOST_NICKNAME, retryQuickly);
      const players = Array.from({ length: 50 }, (_, i) => new ReconnectingClient(() => url, `crash-player-${i}`, gameCode, `Player ${i + 1}`, retryQuickly));
      clients.push(host, ...players);
      host.connect();
      await host.hostJoined();
      for (const player of players) player.connect();
      const ids = (await Promise.all(players.map((player) => player.joined()))).map((joined) => joined.id);
      expect(new Set(ids).size).toBe(players.length);
      host.send("START_GAME", { gameCode });

      // Question 1 closes the ordinary way: everyone answered.
      await Promise.all(
        players.map(async (player, i) => {
          await player.next("QUESTION_STARTED", (payload) => payload.questionNumber === 1);
          expect(await player.answer(1, answerFor(i, 1))).toBe("accepted");
        }),
      );
      const question2 = await Promise.all(players.map((player) => player.next("QUESTION_STARTED", (payload) => payload.questionNumber === 2, 10_000)));

      // Half the players answer question 2 and hear back; a few more answers are still in flight
      // when the process dies, and may or may not have made it to the database.
      const answeredBefore = players.slice(0, 25);
      const inFlight = players.slice(25, 30);
      await Promise.all(answeredBefore.map(async (player, i) => expect(await player.answer(2, answerFor(i, 2))).toBe("accepted")));
      for (const player of inFlight) player.sendAnswer(answerFor(players.indexOf(player), 2));
      for (const client of clients) client.expectNewConnection();
      await server.crash();
      await Promise.all(clients.map((client) => client.dropped()));
      const inFlightAcknowledged = inFlight.filter((player) => player.acknowledged.has(2)).length;

      server = await ServerProcess.start(env, output);

      // Everyone comes back by itself, as the same player.
      const rejoined = await Promise.all(players.map((player) => player.joined(30_000)));
      expect(rejoined.map((joined) => joined.id)).toEqual(ids);
      expect((await host.hostJoined(30_000)).playerCount).toBe(players.length);

      // Question 2 resumes with the time it had left; the rest of the players answer it.
      const outcomes = await Promise.all(
        players.map(async (player, i): Promise<AnswerOutcome | "missed"> => {
          const { snapshot } = rejoined[i];
          if (snapshot.phase !== "question" || snapshot.questionNumber !== 2) return "missed";
          const resumed = await player.next("QUESTION_STARTED", (payload) => payload.questionNumber === 2);
          expect(resumed.endsAt).toBe(question2[i].endsAt);
          if (answeredBefore.includes(player)) {
            // An answer acknowledged before the crash is acknowledged again, not asked for again.
            expect(await player.next("ANSWER_ACCEPTED", (payload) => payload.questionNumber === 2)).toEqual({
              questionNumber: 2,
              answerIndex: answerFor(i, 2),
            });
            return "accepted";
          }
          return player.answer(2, answerFor(i, 2));
        }),
      );
      console.log(
        `crash: ${answeredBefore.length} answers acknowledged before the kill, ${inFlightAcknowledged} of ${inFlight.length} in-flight ones too; ` +
          `question 2 after the restart: ${JSON.stringify(tally(outcomes))}`,
      );

      await Promise.all(
        players.map(async (player, i) => {
          await player.next("QUESTION_STARTED", (payload) => payload.questionNumber === 3, 30_000);
          expect(await player.answer(3, answerFor(i, 3))).toBe("accepted");
        }),
      );
      const gameOver = await Promise.all(players.map((player) => player.next("GAME_OVER", undefined, 10_000)));
      await host.next("GAME_OVER", undefined, 10_000);

      for (const player of players) {
        expect(player.acknowledged.has(1) && player.acknowledged.has(3), player.nickname).toBe(true);
      }
      for (const player of answeredBefore) expect(player.acknowledged.has(2), player.nickname).toBe(true);
      for (const client of clients) {
        expect(
          client.errorCodes().filter((code) => code !== "ALREADY_ANSWERED" && code !== "QUESTION_CLOSED"),
          client.nickname,
        ).toEqual([]);
      }

      const db = new SQLite(env.DATABASE_PATH, { readonly: true, fileMustExist: true });
      try {
        const game = db.prepare("select id, status from games where game_code = ?").get(gameCode) as { id: number; status: string };
        expect(game.status).toBe("finished");
        const answers = db.prepare("select player_id, question_index, answer_index, points from answers where game_id = ? and round = 0").all(game.id) as {
          player_id: number;
          question_index: number;
          answer_index: number;
          points: number;
        }[];
        const stored = db.prepare("select id, score from players where game_id = ?").all(game.id) as { id: number; score: number }[];

        const storedAnswer = new Map(answers.map((row) => [`${row.player_id}/${row.question_index + 1}`, row.answer_index]));
        for (const [i, player] of players.entries()) {
          for (const [questionNumber, answerIndex] of player.acknowledged) {
            expect(storedAnswer.get(`${ids[i]}/${questionNumber}`), `${player.nickname}, question ${questionNumber}`).toBe(answerIndex);
          }
        }
        const points = new Map<number, number>();
        for (const row of answers) points.set(row.player_id, (points.get(row.player_id) ?? 0) + row.points);
        expect(stored.map((row) => row.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
        for (const row of stored) expect(row.score, `score of player ${row.id}`).toBe(points.get(row.id) ?? 0);
        const storedScore = new Map(stored.map((row) => [row.id, row.score]));
        for (const [i, over] of gameOver.entries()) expect(over.you?.score, players[i].nickname).toBe(storedScore.get(ids[i]));
      } finally {
        db.close();
      }
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await server?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a server process killed during a paused question", () => {
  it("comes back paused with the time it had left, and times answers without the pause and the downtime", { timeout: 90_000 }, async ({ onTestFailed }) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-crash-pause-"));
    const env = serverEnv(dir, await freePort());
    const output: string[] = [];
    onTestFailed(() => console.log(`server output:\n${output.join("")}`));
    const retryQuickly: ReconnectPolicy = { delayMs: (attempt) => (attempt < 85 ? 200 + Math.random() * 300 : null) };
    const clients: ReconnectingClient[] = [];
    let server: ServerProcess | null = null;
    try {
      server = await ServerProcess.start(env, output);
      const url = server.url;
      const { gameCode, hostClientId } = await createGame(url, 20);
      const host = new ReconnectingClient(() => url, hostClientId, gameCode, HOST_NICKNAME, retryQuickly);
      const ann = new ReconnectingClient(() => url, "pause-ann", gameCode, "Ann", retryQuickly);
      const bob = new ReconnectingClient(() => url, "pause-bob", gameCode, "Bob", retryQuickly);
      clients.push(host, ann, bob);
      host.connect();
      await host.hostJoined();
      ann.connect();
      bob.connect();
      const [{ id: annId }, { id: bobId }] = await Promise.all([ann.joined(), bob.joined()]);
      host.send("START_GAME", { gameCode });
      await Promise.all([ann.next("QUESTION_STARTED"), bob.next("QUESTION_STARTED")]);
      const questionOpenedAt = Date.now();
      expect(await ann.answer(1, SAMPLE_QUESTIONS[0].correctAnswerIndex)).toBe("accepted");

      await sleep(500);
      host.send("PAUSE_QUESTION", { gameCode });
      // Told only once it is stored: the kill that follows cannot lose it.
      const paused = await bob.next("QUESTION_PAUSED");
      const pausedAt = Date.now();
      for (const client of clients) client.expectNewConnection();
      await server.crash();
      await Promise.all(clients.map((client) => client.dropped()));
      await sleep(1000);
      server = await ServerProcess.start(env, output);

      const [annBack, bobBack] = await Promise.all([ann.joined(30_000), bob.joined(30_000)]);
      expect([annBack.id, bobBack.id]).toEqual([annId, bobId]);
      expect(bobBack.snapshot).toMatchObject({ phase: "question", questionNumber: 1 });
      expect((await bob.next("QUESTION_STARTED")).pausedRemainingMs).toBe(paused.remainingMs);
      await host.hostJoined(30_000);
      expect((await host.next("QUESTION_STARTED")).pausedRemainingMs).toBe(paused.remainingMs);

      // Still paused: the answer waits for the resume.
      bob.sendAnswer(SAMPLE_QUESTIONS[0].correctAnswerIndex);
      expect((await bob.nextMatching((message) => message.type === "ERROR", "ERROR")).payload).toMatchObject({ code: "PAUSED" });

      const resumedAt = Date.now();
      host.send("RESUME_QUESTION", { gameCode });
      const resumed = await bob.next("QUESTION_RESUMED");
      expect(resumed.remainingMs).toBe(paused.remainingMs);
      expect(resumed.endsAt).toBe(resumed.serverNow + paused.remainingMs);
      await sleep(300);
      expect(await bob.answer(1, SAMPLE_QUESTIONS[0].correctAnswerIndex)).toBe("accepted");
      const answeredAt = Date.now();
      await bob.next("ANSWER_RESULTS");

      const db = new SQLite(env.DATABASE_PATH, { readonly: true, fileMustExist: true });
      try {
        const row = db
          .prepare("select response_ms from answers where player_id = ? and game_id = (select id from games where game_code = ?)")
          .get(bobId, gameCode) as { response_ms: number };
        // Bob's time is the question's running time: before the pause, and after the resume.
        const running = pausedAt - questionOpenedAt + (answeredAt - resumedAt);
        expect(row.response_ms).toBeGreaterThanOrEqual(20_000 - paused.remainingMs + 300 - 50);
        expect(row.response_ms).toBeLessThanOrEqual(running + 200);
        expect(row.response_ms).toBeLessThan(answeredAt - questionOpenedAt - 1000);
      } finally {
        db.close();
      }
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await server?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a server process killed during a night's break", () => {
  it(
    "comes back in the break with the running total, the rounds' standings, the teams and the countdown; the next round carries the total",
    { timeout: 90_000 },
    async ({ onTestFailed }) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-crash-break-"));
      const env = serverEnv(dir, await freePort());
      const output: string[] = [];
      onTestFailed(() => console.log(`server output:\n${output.join("")}`));
      const retryQuickly: ReconnectPolicy = { delayMs: (attempt) => (attempt < 85 ? 200 + Math.random() * 300 : null) };
      const clients: ReconnectingClient[] = [];
      let server: ServerProcess | null = null;
      try {
        server = await ServerProcess.start(env, output);
        const url = server.url;
        // Two rounds: the sample quiz, then the same quiz again; a night is planned in the database the server uses.
        const first = await createGame(url, 20);
        const db = openDatabase(env.DATABASE_PATH);
        let gameCode: string;
        try {
          const quizId = (await db.selectFrom("games").select("quiz_id").where("game_code", "=", first.gameCode).executeTakeFirstOrThrow()).quiz_id;
          const hosted = await hostNewNight(
            db,
            {
              title: "Crash night",
              rounds: [
                { quizId, title: "Warm-up" },
                { quizId, title: "Finale" },
              ],
            },
            { clientId: first.hostClientId, hostSecret: hostSecretOf(cookiesOf(first.hostClientId)) },
          );
          if (hosted.status !== "ok") throw new Error(hosted.status);
          gameCode = hosted.value.gameCode;
        } finally {
          await db.destroy();
        }
        const host = new ReconnectingClient(() => url, first.hostClientId, gameCode, HOST_NICKNAME, retryQuickly);
        const ann = new ReconnectingClient(() => url, "break-ann", gameCode, "Ann", retryQuickly);
        const bob = new ReconnectingClient(() => url, "break-bob", gameCode, "Bob", retryQuickly);
        clients.push(host, ann, bob);
        host.connect();
        await host.hostJoined();
        host.send("SET_TEAM_MODE", { gameCode, enabled: true });
        await host.next("TEAMS_UPDATE");
        ann.connect();
        bob.connect();
        await Promise.all([ann.joined(), bob.joined()]);
        ann.send("CHOOSE_TEAM", { gameCode, team: "Owls" });
        bob.send("CHOOSE_TEAM", { gameCode, team: "Foxes" });
        await Promise.all([ann.next("TEAM_CHOSEN"), bob.next("TEAM_CHOSEN")]);
        host.send("START_GAME", { gameCode });
        for (const [questionNumber, question] of SAMPLE_QUESTIONS.entries()) {
          await Promise.all([ann.next("QUESTION_STARTED"), bob.next("QUESTION_STARTED")]);
          expect(await ann.answer(questionNumber + 1, question.correctAnswerIndex)).toBe("accepted");
          expect(await bob.answer(questionNumber + 1, (question.correctAnswerIndex + 1) % 4)).toBe("accepted");
        }
        const roundOver = await ann.next("ROUND_OVER", undefined, 15_000);
        host.send("SET_BREAK_TIMER", { gameCode, minutes: 10 });
        // Told only once it is stored: the kill that follows cannot lose it.
        const timer = await bob.next("BREAK_TIMER");

        for (const client of clients) client.expectNewConnection();
        await server.crash();
        await Promise.all(clients.map((client) => client.dropped()));
        server = await ServerProcess.start(env, output);

        const [annBack] = await Promise.all([ann.joined(30_000), bob.joined(30_000)]);
        expect(annBack.snapshot).toMatchObject({ phase: "break", round: { number: 1, total: 2, title: "Warm-up" }, teamMode: true });
        const again = await ann.next("ROUND_OVER");
        expect(again).toEqual({ ...roundOver, breakEndsAt: timer.breakEndsAt, serverNow: again.serverNow });
        expect(again.teams!.map((team) => team.name)).toEqual(["Owls", "Foxes"]);
        await host.hostJoined(30_000);
        await host.next("ROUND_OVER");

        host.send("NEXT_QUESTION", { gameCode });
        const opened = await ann.next("QUESTION_STARTED");
        expect(opened.round).toEqual({ number: 2, total: 2, title: "Finale" });
        await bob.next("QUESTION_STARTED");
        const before = roundOver.you!.score;
        expect(await ann.answer(1, SAMPLE_QUESTIONS[0].correctAnswerIndex)).toBe("accepted");
        expect(await bob.answer(1, SAMPLE_QUESTIONS[0].correctAnswerIndex)).toBe("accepted");
        const leaderboard = await ann.next("LEADERBOARD_UPDATE", undefined, 10_000);
        expect(leaderboard.you!.score).toBeGreaterThan(before);
        expect(leaderboard.you!.score - before).toBeLessThanOrEqual(1000 + 500);
      } finally {
        await Promise.all(clients.map((client) => client.close()));
        await server?.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe("a reconnection storm", () => {
  it("brings 1000 players back with their ids after a restart", { timeout: 60_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-storm-"));
    const databasePath = path.join(dir, "quiz.sqlite");
    const limits = { joinsPerIpPerMinute: 1_000_000, joinsPerIpPerGamePerMinute: 1_000_000, playersPerIpPerGame: 1_000_000, joinsPerGamePerMinute: 1_000_000 };
    // The app's own backoff, jitter included, and like the app it gives up after a few attempts.
    const backoff: ReconnectPolicy = { delayMs: (attempt) => (attempt < MAX_RECONNECT_ATTEMPTS ? reconnectDelay(attempt) : null) };
    const clients: ReconnectingClient[] = [];
    let server: TestServer | null = await startTestServer({ databasePath, limits });
    let url = server.url;
    try {
      const { gameCode, hostClientId } = await createGameFixture(server);
      const host = new ReconnectingClient(() => url, hostClientId, gameCode, HOST_NICKNAME, backoff);
      clients.push(host);
      host.connect();
      await host.hostJoined();

      // Zero-padded: the nickname filter reads some bare numbers as leetspeak ("Storm 455").
      const nickname = (i: number) => `Storm ${String(i + 1).padStart(4, "0")}`;
      const players = Array.from({ length: 1000 }, (_, i) => new ReconnectingClient(() => url, `storm-${i}`, gameCode, nickname(i), backoff));
      const ids: number[] = [];
      // A hundred at a time: the test machine's two cores serve both the server and the clients.
      for (let start = 0; start < players.length; start += 100) {
        const batch = players.slice(start, start + 100);
        clients.push(...batch);
        for (const player of batch) player.connect();
        for (const joined of await Promise.all(batch.map((player) => player.joined(20_000)))) ids.push(joined.id);
      }
      expect(new Set(ids).size).toBe(players.length);

      for (const client of clients) client.expectNewConnection();
      const closedAt = performance.now();
      await server.close();
      server = null; // closed: only its successor needs stopping
      server = await startTestServer({ databasePath, limits });
      url = server.url;

      const back = await Promise.all(players.map((player) => player.joined(45_000)));
      const seconds = (performance.now() - closedAt) / 1000;
      console.log(`storm: ${players.length} clients back in ${seconds.toFixed(1)} s`);

      // Told the server was restarting, which the app's socket retries.
      expect(tally(clients.map((client) => client.drops[0]))).toEqual({ [CloseCode.SERVER_RESTARTING]: clients.length });
      expect(back.map((joined) => joined.id)).toEqual(ids);
      expect((await host.hostJoined(10_000)).playerCount).toBe(players.length);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      await server?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

function tally(values: unknown[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
  return counts;
}
