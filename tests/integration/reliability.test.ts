/**
 * Abuse limits, the host's moderation, security headers and checks, health and logs, against the
 * real server with real ws clients.
 */
import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OFFENSIVE_NICKNAME } from "#app/schemas/validation";
import { JOIN_LIMIT_MESSAGES } from "#server/socket/join-limits";
import { createLogger } from "#server/logger";
import { captureLogs } from "#tests/log-capture";
import { createGameFixture, signInAs, startTestServer, TestClient, type TestServer } from "./harness";

const servers: TestServer[] = [];
const clients: TestClient[] = [];

async function serverWith(overrides: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer(overrides);
  servers.push(server);
  return server;
}

async function connect(server: TestServer, clientId?: string, headers?: Record<string, string>): Promise<TestClient> {
  const client = await TestClient.connect(server, clientId, headers);
  clients.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.terminate()));
});

afterAll(async () => {
  for (const server of servers) await server.stop();
});

describe("join limits", () => {
  it("refuses new players beyond the per-address limit, but never a returning one", async () => {
    const server = await serverWith({ limits: { joinsPerIpPerMinute: 3 } });
    const { gameCode } = await createGameFixture(server);
    const players = [];
    for (const name of ["Ann", "Bob", "Cat"]) {
      const client = await connect(server);
      await client.joinAsPlayer(gameCode, name);
      players.push(client);
    }
    const fourth = await connect(server);
    fourth.send("JOIN_GAME", { gameCode, nickname: "Dan" });
    expect(await fourth.next("ERROR")).toEqual({ message: JOIN_LIMIT_MESSAGES.ip, code: "JOIN_RATE_LIMITED", key: "JOIN_RATE_LIMITED_IP" });

    // Ann's connection drops and comes back: that is not a new player.
    await players[0].terminate();
    const back = await connect(server, players[0].clientId);
    await back.joinAsPlayer(gameCode, "Ann");
  });

  it("refuses new players beyond the per-game limit", async () => {
    const server = await serverWith({ limits: { joinsPerGamePerMinute: 2 } });
    const { gameCode } = await createGameFixture(server);
    for (const name of ["Ann", "Bob"]) await (await connect(server)).joinAsPlayer(gameCode, name);
    const third = await connect(server);
    third.send("JOIN_GAME", { gameCode, nickname: "Cat" });
    expect(await third.next("ERROR")).toEqual({ message: JOIN_LIMIT_MESSAGES.game, code: "JOIN_RATE_LIMITED", key: "JOIN_RATE_LIMITED_GAME" });
  });

  it("caps the players in a game", async () => {
    const server = await serverWith({ limits: { maxPlayersPerGame: 2 } });
    const { gameCode } = await createGameFixture(server);
    for (const name of ["Ann", "Bob"]) await (await connect(server)).joinAsPlayer(gameCode, name);
    const third = await connect(server);
    third.send("JOIN_GAME", { gameCode, nickname: "Cat" });
    expect(await third.next("ERROR")).toEqual({ message: "This game is full. Ask the host to open another one.", code: "GAME_FULL", key: "GAME_FULL" });
  });
});

describe("message flood", () => {
  it("closes a flooding socket and leaves the game unaffected", async () => {
    const server = await serverWith();
    const { gameCode, hostClientId } = await createGameFixture(server);
    const host = await connect(server, hostClientId);
    await host.joinAsHost(gameCode);
    const good = await connect(server);
    const goodId = await good.joinAsPlayer(gameCode, "Good");
    const flooder = await connect(server);
    await flooder.joinAsPlayer(gameCode, "Flood");

    for (let i = 0; i < 200; i++) flooder.send("NEXT_QUESTION", { gameCode });
    await expect.poll(() => flooder.closeCode, { timeout: 5000 }).toBe(4002);

    host.send("START_GAME", { gameCode });
    await good.next("QUESTION_STARTED");
    good.send("SUBMIT_ANSWER", { gameCode, playerId: goodId, answerIndex: 1 });
    expect(await good.next("ANSWER_ACCEPTED")).toEqual({ questionNumber: 1, answerIndex: 1 });
  });
});

describe("nickname filter", () => {
  it("refuses an offensive nickname in the game and in the join form, and allows innocent look-alikes", async () => {
    const server = await serverWith();
    const { gameCode } = await createGameFixture(server);
    const rude = await connect(server);
    rude.send("JOIN_GAME", { gameCode, nickname: "sh1thead" });
    expect(await rude.next("ERROR")).toMatchObject({ message: OFFENSIVE_NICKNAME });
    await rude.joinAsPlayer(gameCode, "Scunthorpe");

    const form = await fetch(`${server.url}/join`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ gameCode, nickname: "fuck" }),
    });
    expect(form.status).toBe(400);
    expect(await form.text()).toContain(OFFENSIVE_NICKNAME);
  });
});

describe("the host's moderation", () => {
  /** A lobby with its host and Ann, on a server the test restarts itself. */
  async function lobbyWithAnn() {
    const server = await startTestServer();
    const { gameCode, hostClientId } = await createGameFixture(server);
    const host = await connect(server, hostClientId);
    await host.joinAsHost(gameCode);
    const ann = await connect(server);
    await ann.joinAsPlayer(gameCode, "Ann");
    return { server, gameCode, hostClientId, host, ann };
  }

  it("kicks a player, who cannot come back, not even after a restart", async () => {
    const { server, gameCode, host, ann } = await lobbyWithAnn();
    try {
      const bob = await connect(server);
      const bobId = await bob.joinAsPlayer(gameCode, "Bob");

      // Only the host may remove a player.
      ann.send("KICK_PLAYER", { gameCode, playerId: bobId });
      expect(await ann.next("ERROR")).toEqual({ message: "Only the host can remove players.", code: "NOT_HOST", key: "NOT_HOST_KICK" });

      host.send("KICK_PLAYER", { gameCode, playerId: bobId });
      expect(await bob.next("ERROR")).toEqual({ message: "You were removed from this game by the host.", code: "KICKED", key: "KICKED" });
      await expect.poll(() => bob.closeCode).toBe(4004);
      expect(await host.next("PLAYER_LEFT")).toEqual({ playerId: bobId });

      // A refresh (same browser) is refused, under any nickname.
      const again = await connect(server, bob.clientId);
      again.send("JOIN_GAME", { gameCode, nickname: "Bobby" });
      expect(await again.next("ERROR")).toMatchObject({ code: "KICKED" });

      // And after a restart of the server.
      await server.close();
      const restarted = await serverWith({ databasePath: server.databasePath });
      const afterRestart = await connect(restarted, bob.clientId);
      afterRestart.send("JOIN_GAME", { gameCode, nickname: "Bob" });
      expect(await afterRestart.next("ERROR")).toMatchObject({ code: "KICKED" });
      const annBack = await connect(restarted, ann.clientId);
      await annBack.joinAsPlayer(gameCode, "Ann");
    } finally {
      await server.stop().catch(() => {});
    }
  });

  it("locks the game to new players, tells everyone, and keeps the lock across a restart", async () => {
    const { server, gameCode, hostClientId, host, ann } = await lobbyWithAnn();
    try {
      host.send("LOCK_GAME", { gameCode, locked: true });
      expect(await host.next("LOBBY_LOCKED")).toEqual({ locked: true });
      expect(await ann.next("LOBBY_LOCKED")).toEqual({ locked: true });
      const late = await connect(server);
      late.send("JOIN_GAME", { gameCode, nickname: "Late" });
      expect(await late.next("ERROR")).toEqual({
        message: "The host has locked this game, so no new players can join.",
        code: "LOBBY_LOCKED",
        key: "LOBBY_LOCKED",
      });

      await server.close();
      const restarted = await serverWith({ databasePath: server.databasePath });
      const annBack = await connect(restarted, ann.clientId);
      annBack.send("JOIN_GAME", { gameCode, nickname: "Ann" });
      expect(await annBack.next("GAME_SNAPSHOT")).toMatchObject({ locked: true, role: "player" });
      const hostBack = await connect(restarted, hostClientId);
      hostBack.send("JOIN_GAME", { gameCode, nickname: "__HOST__" });
      await hostBack.next("GAME_SNAPSHOT");
      hostBack.send("LOCK_GAME", { gameCode, locked: false });
      expect(await hostBack.next("LOBBY_LOCKED")).toEqual({ locked: false });
      await (await connect(restarted)).joinAsPlayer(gameCode, "Late");
    } finally {
      await server.stop().catch(() => {});
    }
  });
});

describe("HTTP security", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serverWith();
  });

  it("sends a CSP whose scripts need this response's nonce, and every inline script carries it", async () => {
    const first = await fetch(`${server.url}/`);
    const second = await fetch(`${server.url}/`);
    const policy = first.headers.get("content-security-policy") ?? "";
    const scriptSrc = /script-src ([^;]*)/.exec(policy)?.[1] ?? "";
    const nonce = /'nonce-([^']+)'/.exec(scriptSrc)?.[1];
    expect(nonce).toBeDefined();
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
    const html = await first.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(2);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("x-frame-options")).toBe("SAMEORIGIN");
  });

  it("refuses state-changing requests from another site, over HTTP and on the socket upgrade", async () => {
    const body = { title: "From afar", timeLimit: 20, isPublic: false };
    const foreign = await server.api("/api/quizzes", { body, headers: { origin: "https://evil.example" } });
    expect(foreign).toEqual({ status: 403, body: { error: "Cross-site requests are not allowed.", code: "CROSS_SITE_REFUSED" } });
    const form = await fetch(`${server.url}/join`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: "gameCode=ABC123&nickname=Eve",
    });
    expect(form.status).toBe(403);
    expect((await server.api("/api/quizzes", { body, headers: { origin: server.url } })).status).toBe(201);
    expect((await server.api("/api/quizzes", { body, headers: { origin: "https://allowed.example" } })).status).toBe(201);
    expect((await server.api("/api/quizzes", { body })).status).toBe(201);
    await expect(TestClient.connect(server, undefined, { origin: "https://evil.example" })).rejects.toThrow(/403/);
  });

  it("refuses an oversized body before reading it", async () => {
    const response = await fetch(`${server.url}/auth`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `intent=login&email=a%40b.c&password=${"x".repeat(2 * 1024 * 1024)}`,
    });
    expect(response.status).toBe(413);
  });

  it("answers /healthz", async () => {
    const response = await server.api("/healthz");
    expect(response).toMatchObject({ status: 200, body: { status: "ok", games: expect.any(Number), connections: expect.any(Number) } });
  });
});

describe("structured logs", () => {
  it("log each game's events as JSON lines and never a password, session id, client id or secret", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    });
    const logger = createLogger({ level: "debug", destination: sink });
    const server = await serverWith({ logger });
    const password = `pw-${randomUUID()}`;
    const login = await fetch(`${server.url}/auth`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "login", email: "nobody@example.com", password }),
    });
    expect(login.status).toBeLessThan(500);
    const account = await signInAs(server);
    const session = account.cookie.split("=")[1];

    const { gameCode, hostClientId } = await createGameFixture(server, {
      questions: [{ text: "1 + 1?", answers: ["1", "2", "3", "4"], correctAnswerIndex: 1 }],
    });
    const host = await connect(server, hostClientId);
    await host.joinAsHost(gameCode);
    const player = await connect(server);
    const playerId = await player.joinAsPlayer(gameCode, "Logan");
    host.send("START_GAME", { gameCode });
    await player.next("QUESTION_STARTED");
    player.send("SUBMIT_ANSWER", { gameCode, playerId, answerIndex: 1 });
    await player.next("GAME_OVER", () => true, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));

    const events = lines.map((line) => JSON.parse(line) as { event?: string; gameCode?: string; msg: string });
    for (const event of ["game_created", "game_opened", "game_started", "game_finished"]) {
      expect(
        events.find((entry) => entry.event === event && entry.gameCode === gameCode),
        event,
      ).toBeDefined();
    }
    const all = lines.join("\n");
    for (const secret of [password, session, hostClientId, player.clientId, "integration-test-session-secret-0123456789"]) {
      expect(all).not.toContain(secret);
    }
  });

  it("tie what a route logs to its request: an id, the method and the path, never the query", async () => {
    const log = captureLogs();
    const server = await serverWith({ logger: log.logger });
    const { gameCode } = await createGameFixture(server);
    // A post to a page without an action: refused by Remix itself, which reports it to handleError.
    expect((await fetch(`${server.url}/featured?token=hidden`, { method: "POST" })).status).toBe(405);
    await fetch(`${server.url}/featured`, { method: "POST" });

    const created = log.lines.find((line) => line.event === "game_created" && line.gameCode === gameCode);
    expect(created).toMatchObject({ method: "POST", path: "/api/games", requestId: expect.stringMatching(/^[\w-]{8}$/) });
    const refused = log.lines.filter((line) => line.event === "request_refused");
    expect(refused).toEqual([
      expect.objectContaining({ status: 405, method: "POST", path: "/featured", reason: expect.stringContaining("did not provide an `action`") }),
      expect.objectContaining({ status: 405, method: "POST", path: "/featured" }),
    ]);
    expect(refused[0].requestId).not.toBe(refused[1].requestId);
    expect(JSON.stringify(log.lines)).not.toContain("hidden");
  });
});
