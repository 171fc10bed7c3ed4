import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GAME_CODE_ALPHABET } from "#app/game/rules";
import { createGameFixture, startTestServer, type TestServer } from "./harness";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
});

const QUESTION = { text: "Q?", answers: ["a", "b", "c", "d"], correctAnswerIndex: 2, order: 0 };

describe("POST /api/quizzes", () => {
  it("stores a quiz and answers 201 with its id", async () => {
    const response = await server.api("/api/quizzes", {
      body: { title: "  Pub night  ", description: "Fun", timeLimit: 30, isPublic: true, creatorId: 1 },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ title: "Pub night", description: "Fun", timeLimit: 30, isPublic: true });
    expect(response.body.id).toEqual(expect.any(Number));
  });

  it.each([
    [{ title: "   ", timeLimit: 20 }, "title", "Please give your quiz a title."],
    [{ title: "T", timeLimit: 4 }, "timeLimit", "Time limit must be at least 5 seconds."],
    [{ title: "T", timeLimit: 121 }, "timeLimit", "Time limit must be at most 120 seconds."],
    [{ title: "T", timeLimit: 20.5 }, "timeLimit", "Time limit must be a whole number of seconds."],
    [{ title: "T", timeLimit: 20, isPublic: "yes" }, "isPublic", "isPublic must be true or false."],
  ])("refuses %j with 400 and a field error", async (body, field, message) => {
    const response = await server.api("/api/quizzes", { body });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe(message);
    expect(response.body.fieldErrors[field]).toContain(message);
  });

  it("answers 400 for a body that is not JSON and 413 for one that is too large", async () => {
    const broken = await server.api("/api/quizzes", { body: "{not json" });
    expect(broken).toEqual({ status: 400, body: { error: "Request body is not valid JSON." } });
    const huge = await server.api("/api/quizzes", { body: { title: "x".repeat(70_000), timeLimit: 20 } });
    expect(huge.status).toBe(413);
    expect(huge.body.error).toBe("Request body is too large.");
  });

  it("never shows a stack trace", async () => {
    const response = await server.api("/api/quizzes", { body: "[]" });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).not.toMatch(/at .*\.(ts|js):\d+/);
  });
});

describe("POST /api/questions and GET /api/quizzes", () => {
  it("stores questions in order and lists hostable quizzes with their question counts", async () => {
    const owner = "owner-list";
    const quiz = await server.api("/api/quizzes", { body: { title: "Private one", timeLimit: 20, isPublic: false }, clientId: owner });
    for (const order of [0, 1]) {
      const question = await server.api("/api/questions", { body: { ...QUESTION, quizId: quiz.body.id, order }, clientId: owner });
      expect(question.status).toBe(201);
      expect(question.body).toMatchObject({ quizId: quiz.body.id, text: "Q?", answers: ["a", "b", "c", "d"], correctAnswerIndex: 2, order });
    }
    const mine = await server.api("/api/quizzes", { clientId: owner });
    expect(mine.body.find((entry: any) => entry.id === quiz.body.id)).toMatchObject({ title: "Private one", questionCount: 2 });
    const someoneElse = await server.api("/api/quizzes", { clientId: "stranger" });
    expect(someoneElse.body.find((entry: any) => entry.id === quiz.body.id)).toBeUndefined();

    const own = await server.api(`/api/quizzes/${quiz.body.id}`, { clientId: owner });
    expect(own.status).toBe(200);
    expect(own.body.questions.map((question: any) => question.order)).toEqual([0, 1]);
    const foreign = await server.api(`/api/quizzes/${quiz.body.id}`, { clientId: "stranger" });
    expect(foreign.status).toBe(403);
    const missing = await server.api("/api/quizzes/999999");
    expect(missing.status).toBe(404);
  });

  it.each([
    [{ answers: ["a"] }, "answers", "A question needs 2 to 6 answers."],
    [{ answers: ["a", "b", "c", "d", "e", "f", "g"] }, "answers", "A question needs 2 to 6 answers."],
    [{ answers: ["a", " ", "c", "d"] }, "answers.1", "Every answer option is required."],
    [{ text: "" }, "text", "Question text is required."],
    [{ correctAnswerIndex: 4 }, "correctAnswerIndex", "The correct answer must be one of the answers."],
    [{ kind: "riddle" }, "kind", "kind must be one of choice, trueFalse, multiSelect, typeAnswer, closestNumber, poll."],
    [{ kind: "multiSelect", correctAnswerIndexes: [] }, "correctAnswerIndexes", "Choose at least one correct answer."],
    [{ kind: "closestNumber", correctNumber: "ten" }, "correctNumber", "Enter a number."],
  ])("refuses a question with %j", async (change, field, message) => {
    const quiz = await server.api("/api/quizzes", { body: { title: "Q", timeLimit: 20 } });
    const response = await server.api("/api/questions", { body: { ...QUESTION, quizId: quiz.body.id, ...change } });
    expect(response.status).toBe(400);
    expect(response.body.fieldErrors[field]).toContain(message);
  });

  it("answers 404 for a question on an unknown quiz and 403 on someone else's", async () => {
    const unknown = await server.api("/api/questions", { body: { ...QUESTION, quizId: 424242 } });
    expect(unknown.status).toBe(404);
    const quiz = await server.api("/api/quizzes", { body: { title: "Mine", timeLimit: 20 }, clientId: "alice" });
    const foreign = await server.api("/api/questions", { body: { ...QUESTION, quizId: quiz.body.id }, clientId: "mallory" });
    expect(foreign.status).toBe(403);
  });
});

describe("games", () => {
  it("creates a waiting game with a 6-character code without look-alikes", async () => {
    const quiz = await server.api("/api/quizzes", { body: { title: "Codes", timeLimit: 20, isPublic: true } });
    const codes = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const game = await server.api("/api/games", { body: { quizId: quiz.body.id, hostId: 1 } });
      expect(game.status).toBe(201);
      expect(game.body).toMatchObject({ id: expect.any(Number), status: "waiting" });
      expect(game.body.gameCode).toHaveLength(6);
      for (const char of game.body.gameCode) expect(GAME_CODE_ALPHABET).toContain(char);
      codes.add(game.body.gameCode);
    }
    expect(codes.size).toBe(20);
  });

  it("refuses a game for an unknown quiz (404) or someone else's private quiz (403)", async () => {
    expect((await server.api("/api/games", { body: { quizId: 987654, hostId: 1 } })).status).toBe(404);
    const quiz = await server.api("/api/quizzes", { body: { title: "Secret", timeLimit: 20, isPublic: false }, clientId: "alice" });
    expect((await server.api("/api/games", { body: { quizId: quiz.body.id }, clientId: "mallory" })).status).toBe(403);
    expect((await server.api("/api/games", { body: { quizId: quiz.body.id }, clientId: "alice" })).status).toBe(201);
  });

  it("binds the first registered host and refuses another client with 403", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server);
    const again = await server.api(`/api/games/${gameCode}/register-host`, { body: { clientId: hostClientId }, clientId: hostClientId });
    expect(again.status).toBe(200);
    // The host's client id without its browser's host secret: refused (docs/decisions/0044-shared-browsers.md).
    expect((await server.api(`/api/games/${gameCode}/register-host`, { body: { clientId: hostClientId } })).status).toBe(403);
    const takeover = await server.api(`/api/games/${gameCode}/register-host`, { body: { clientId: "someone-else" } });
    expect(takeover.status).toBe(403);
    expect(takeover.body.error).toBe("This game already has a host.");
    const unknown = await server.api("/api/games/ZZZZZZ/register-host", { body: { clientId: "x" } });
    expect(unknown.status).toBe(404);
  });

  it("lists public waiting games in /api/game-sessions, not private ones", async () => {
    const open = await createGameFixture(server, { isPublic: true });
    const hidden = await createGameFixture(server, { isPublic: false });
    const sessions = await server.api("/api/game-sessions");
    expect(sessions.status).toBe(200);
    const listed = sessions.body.find((session: any) => session.gameCode === open.gameCode);
    expect(listed).toEqual({
      id: expect.any(Number),
      quizId: expect.any(Number),
      title: "Test quiz",
      description: "For tests",
      gameCode: open.gameCode,
      status: "waiting",
      timeLimit: 30,
    });
    expect(sessions.body.some((session: any) => session.gameCode === hidden.gameCode)).toBe(false);
  });

  it("shows results only to the host", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server);
    const asHost = await server.api(`/api/games/${gameCode}/results`, { clientId: hostClientId });
    expect(asHost.status).toBe(200);
    expect(asHost.body).toMatchObject({ gameCode, players: [] });
    expect((await server.api(`/api/games/${gameCode}/results`, { clientId: "player" })).status).toBe(403);
    expect((await server.api(`/api/games/${gameCode}/results`)).status).toBe(403);
    expect((await server.api(`/api/games/QQQQQQ/results`, { clientId: hostClientId })).status).toBe(404);
  });
});

describe("pages", () => {
  it("answers an unknown page with HTTP 404 and the not-found screen (docs/product.md#screens)", async () => {
    const response = await fetch(`${server.url}/no/such/page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("404 Page Not Found");
    expect(html).toContain("Did you forget to add the page to the router?");
  });

  it("answers an unknown API path with JSON 404", async () => {
    const response = await server.api("/api/nothing-here");
    expect(response).toEqual({ status: 404, body: { error: "Not found." } });
  });

  it("serves the home page with security headers", async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(response.headers.get("x-powered-by")).toBeNull();
  });

  it("lets a page open sockets and fetches to its own origin only (CSP connect-src)", async () => {
    const policy = (await fetch(`${server.url}/join`)).headers.get("content-security-policy") ?? "";
    const connect = /(?:^|;)\s*connect-src ([^;]*)/.exec(policy)?.[1].split(/\s+/) ?? [];
    // 'self' covers the game socket at ws(s)://this-host/ws in current browsers (CSP Level 3).
    expect(connect).toContain("'self'");
    // Named too, for Safari before 16, where 'self' does not cover them: this host only.
    const host = new URL(server.url).host;
    expect(connect).toEqual(expect.arrayContaining([`ws://${host}`, `wss://${host}`]));
    expect(connect.filter((source) => /^wss?:/.test(source))).toEqual([`ws://${host}`, `wss://${host}`]);
    // Bare schemes would let an injected script send what it reads to any host.
    expect(connect.filter((source) => /^(ws|wss|https?):?$/.test(source) || source === "*")).toEqual([]);

    // A Host that is not a plain host name cannot write into the policy.
    const odd = await new Promise<string>((resolve, reject) => {
      const outgoing = http.get(`${server.url}/join`, { headers: { host: "evil.example;script-src *" } }, (response) => {
        response.resume();
        resolve(String(response.headers["content-security-policy"] ?? ""));
      });
      outgoing.on("error", reject);
    });
    expect(odd).not.toContain("evil.example");
  });
});
