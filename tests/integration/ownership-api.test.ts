/**
 * Ownership without holes, over the real HTTP API and socket (issue 13, items 3, 5 and 6): the demo
 * quizzes are read-only, a quiz has a question cap, a game's host seat belongs to its creator, and
 * a quiz made while signed in is the account's alone, not the browser's.
 */
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MAX_QUESTIONS } from "#app/schemas/form-schemas";
import { SAMPLE_QUESTIONS, TestClient, signInAs, startTestServer, type TestServer } from "./harness";

let server: TestServer;
const clients: TestClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ seedDemo: true });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

afterAll(() => server.stop());

const QUESTION = { text: "Defaced?", answers: ["a", "b", "c", "d"], correctAnswerIndex: 0, order: 99 };

async function demoQuiz(): Promise<{ id: number; questionCount: number }> {
  const listed = await server.api("/api/quizzes");
  const demo = listed.body.find((quiz: { title: string }) => quiz.title === "General Knowledge");
  expect(demo).toBeDefined();
  return demo;
}

describe("the seeded demo quizzes", () => {
  it("are read-only: nobody, with or without a client id or an account, can add a question", async () => {
    const demo = await demoQuiz();
    const anonymous = await server.api("/api/questions", { body: { ...QUESTION, quizId: demo.id } });
    expect(anonymous).toEqual({ status: 403, body: { error: "Only the quiz's creator can add questions to it." } });
    expect((await server.api("/api/questions", { body: { ...QUESTION, quizId: demo.id }, clientId: "someone" })).status).toBe(403);
    const account = await signInAs(server);
    expect((await server.api("/api/questions", { body: { ...QUESTION, quizId: demo.id }, headers: { cookie: account.cookie } })).status).toBe(403);
    expect((await server.api(`/api/quizzes/${demo.id}`, { clientId: "someone" })).status).toBe(403);
    expect((await demoQuiz()).questionCount).toBe(6);
  });

  it("can still be hosted by anyone, and a game of one plays its six questions", async () => {
    const demo = await demoQuiz();
    const game = await server.api("/api/games", { body: { quizId: demo.id }, clientId: "demo-host" });
    expect(game.status).toBe(201);
    expect((await server.api(`/api/games/${game.body.gameCode}/register-host`, { body: { clientId: "demo-host" }, clientId: "demo-host" })).status).toBe(200);
    const host = await TestClient.connect(server, "demo-host");
    clients.push(host);
    expect(await host.joinAsHost(game.body.gameCode)).toMatchObject({ totalQuestions: 6 });
  });
});

describe("the home page's quizzes ready to host", () => {
  it("lists the demos first and accounts' public quizzes, never what an anonymous script or a guest made", async () => {
    const make = async (title: string, init: { clientId?: string; headers?: Record<string, string> }) => {
      const quiz = await server.api("/api/quizzes", { body: { title, timeLimit: 20, isPublic: true }, ...init });
      const owner = { clientId: init.clientId, headers: init.headers };
      expect((await server.api("/api/questions", { body: { ...QUESTION, quizId: quiz.body.id, order: 0 }, ...owner })).status).toBe(201);
    };
    const account = await signInAs(server);
    const guest = await signInAs(server, "guest");
    await make("Stranger spam title", { clientId: `script-${randomUUID()}` });
    await make("Guest spam title", { clientId: guest.clientId, headers: { cookie: guest.cookie } });
    await make("Club night", { clientId: account.clientId, headers: { cookie: account.cookie } });

    const home = (await (await fetch(`${server.url}/`)).text()).replaceAll("<!-- -->", "");
    const listed = [...home.matchAll(/<li><strong>([^<]+)<\/strong>/g)].map((match) => match[1]);
    expect(listed.slice(0, 3)).toEqual(["Around the World", "Science Sprint", "General Knowledge"]);
    expect(listed).toContain("Club night");
    expect(listed).not.toContain("Stranger spam title");
    expect(listed).not.toContain("Guest spam title");
  });
});

describe("questions per quiz", () => {
  it(`are capped at ${MAX_QUESTIONS}: the next one is refused with 409 and a message`, async () => {
    const owner = `owner-${randomUUID()}`;
    const quiz = await server.api("/api/quizzes", { body: { title: "Long", timeLimit: 20 }, clientId: owner });
    for (let order = 0; order < MAX_QUESTIONS; order++) {
      expect((await server.api("/api/questions", { body: { ...QUESTION, quizId: quiz.body.id, order }, clientId: owner })).status).toBe(201);
    }
    const extra = await server.api("/api/questions", { body: { ...QUESTION, quizId: quiz.body.id, order: MAX_QUESTIONS }, clientId: owner });
    expect(extra).toEqual({
      status: 409,
      body: { error: `A quiz can have at most ${MAX_QUESTIONS} questions.`, code: "QUIZ_TOO_MANY_QUESTIONS", values: { max: MAX_QUESTIONS } },
    });
  });
});

describe("a game made through POST /api/games", () => {
  it("gives its host seat only to the browser that created it, never to whoever registers first", async () => {
    const creator = `creator-${randomUUID()}`;
    const quiz = await server.api("/api/quizzes", { body: { title: "Seat", timeLimit: 20, isPublic: true }, clientId: creator });
    for (const [order, question] of SAMPLE_QUESTIONS.entries()) {
      await server.api("/api/questions", { body: { ...question, quizId: quiz.body.id, order }, clientId: creator });
    }
    const game = await server.api("/api/games", { body: { quizId: quiz.body.id, hostId: 1 }, clientId: creator });
    expect(game.status).toBe(201);
    const { gameCode } = game.body;

    // A stranger finds the code in the public list and tries the seat, with and without its own id.
    const sessions = await server.api("/api/game-sessions");
    expect(sessions.body.map((session: { gameCode: string }) => session.gameCode)).toContain(gameCode);
    const stranger = `stranger-${randomUUID()}`;
    for (const attempt of [
      { body: { clientId: stranger }, clientId: stranger },
      { body: { clientId: stranger } },
      { body: { clientId: stranger }, headers: { cookie: (await signInAs(server)).cookie } },
    ]) {
      const refused = await server.api(`/api/games/${gameCode}/register-host`, attempt);
      expect(refused).toEqual({ status: 403, body: { error: "Only the browser or account that created this game can host it.", code: "GAME_NOT_YOURS" } });
    }
    const impostor = await TestClient.connect(server, stranger);
    clients.push(impostor);
    impostor.send("JOIN_GAME", { gameCode, nickname: "__HOST__" });
    expect(await impostor.next("ERROR")).toMatchObject({ code: "NOT_HOST" });

    // The creator's client id alone is not enough (it travels in every socket's URL): its browser shows the host secret it was given.
    expect((await server.api(`/api/games/${gameCode}/register-host`, { body: { clientId: creator } })).status).toBe(403);
    expect((await server.api(`/api/games/${gameCode}/register-host`, { body: { clientId: creator }, headers: { "x-client-id": creator } })).status).toBe(403);
    expect((await server.api(`/api/games/${gameCode}/register-host`, { body: { clientId: creator }, clientId: creator })).status).toBe(200);
    const host = await TestClient.connect(server, creator);
    clients.push(host);
    expect(await host.joinAsHost(gameCode)).toMatchObject({ role: "host", gameCode });
  });

  it("lets an account that created a game seat another of its devices as host", async () => {
    const account = await signInAs(server);
    const headers = { cookie: account.cookie };
    const quiz = await server.api("/api/quizzes", { body: { title: "Mine", timeLimit: 20 }, headers, clientId: account.clientId });
    const game = await server.api("/api/games", { body: { quizId: quiz.body.id }, headers, clientId: account.clientId });
    const tablet = `tablet-${randomUUID()}`;
    expect((await server.api(`/api/games/${game.body.gameCode}/register-host`, { body: { clientId: tablet }, headers })).status).toBe(200);
    expect((await server.api(`/api/games/${game.body.gameCode}/register-host`, { body: { clientId: account.clientId }, headers })).status).toBe(403);
  });

  it("mints and returns a client id for a caller that has none, and binds the game to it", async () => {
    const quiz = await server.api("/api/quizzes", { body: { title: "Scripted", timeLimit: 20, isPublic: true } });
    expect(quiz.status).toBe(201);
    const response = await fetch(`${server.url}/api/games`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ quizId: quiz.body.id }),
    });
    expect(response.status).toBe(201);
    const minted = response.headers.get("x-client-id");
    expect(minted).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("set-cookie")).toContain(`quiz_client_id=${minted}`);
    const { gameCode } = await response.json();
    // With the game's host secret, set beside the client id: the script keeps both cookies, as a browser does.
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    expect(cookie).toMatch(/qn_host=/);
    expect((await server.api(`/api/games/${gameCode}/register-host`, { body: { clientId: "not-the-script" } })).status).toBe(403);
    expect((await server.api(`/api/games/${gameCode}/register-host`, { body: { clientId: minted } })).status).toBe(403);
    expect((await server.api(`/api/games/${gameCode}/register-host`, { body: { clientId: minted }, headers: { cookie } })).status).toBe(200);
  });
});

describe("a quiz made while signed in", () => {
  it("stays the account's after it signs out: the same browser without the session can neither read, host nor extend it", async () => {
    const account = await signInAs(server);
    const quiz = await server.api("/api/quizzes", {
      body: { title: "Secret answers", timeLimit: 20, isPublic: false },
      clientId: account.clientId,
      headers: { cookie: account.cookie },
    });
    expect(quiz.status).toBe(201);
    const signedIn = { clientId: account.clientId, headers: { cookie: account.cookie } };
    expect((await server.api("/api/questions", { body: { ...QUESTION, quizId: quiz.body.id, order: 0 }, ...signedIn })).status).toBe(201);
    expect((await server.api(`/api/quizzes/${quiz.body.id}`, signedIn)).status).toBe(200);

    // The next person at that browser: the same client id (header and cookie), no session.
    const sameBrowser = { clientId: account.clientId, headers: { cookie: `quiz_client_id=${account.clientId}` } };
    expect((await server.api(`/api/quizzes/${quiz.body.id}`, sameBrowser)).status).toBe(403);
    expect((await server.api("/api/games", { body: { quizId: quiz.body.id }, ...sameBrowser })).status).toBe(403);
    expect((await server.api("/api/questions", { body: { ...QUESTION, quizId: quiz.body.id, order: 1 }, ...sameBrowser })).status).toBe(403);
    const listed = await server.api("/api/quizzes", sameBrowser);
    expect(listed.body.map((entry: { id: number }) => entry.id)).not.toContain(quiz.body.id);
    const hostPage = await fetch(`${server.url}/host`, { headers: { cookie: `quiz_client_id=${account.clientId}` } });
    expect(await hostPage.text()).not.toContain("Secret answers");
  });
});
