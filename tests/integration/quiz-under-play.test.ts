/**
 * A quiz deleted, shortened or orphaned while one of its games is being played (issue 13, item 1):
 * the game plays on with the questions it started with, and no acknowledged answer is lost. A
 * room whose game row vanished closes with a clear message instead of retrying for ever.
 */
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CloseCode } from "#app/game/protocol";
import { SAMPLE_QUESTIONS, TestClient, setBrowserCookie, signInAs, startTestServer, type SignedIn, type TestServer } from "./harness";

let server: TestServer;
const clients: TestClient[] = [];

beforeAll(async () => {
  server = await startTestServer({ game: { finishedRoomTtlMs: 300, sweepIntervalMs: 100 } });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

afterAll(() => server.stop());

async function connect(clientId?: string): Promise<TestClient> {
  const client = await TestClient.connect(server, clientId);
  clients.push(client);
  return client;
}

/** A form post to a page route, as a browser of `owner` sends it. */
async function postForm(pathname: string, form: Record<string, string>, owner: SignedIn): Promise<{ status: number; location: string | null; text: string }> {
  const response = await fetch(server.url + pathname, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${owner.cookie}; quiz_client_id=${owner.clientId}` },
    body: new URLSearchParams(form),
    redirect: "manual",
  });
  return { status: response.status, location: response.headers.get("location"), text: await response.text() };
}

/** The owner's quiz with the sample questions, and a game of it with the owner's browser as host. */
async function ownersGame(owner: SignedIn): Promise<{ quizId: number; gameCode: string }> {
  const headers = { cookie: owner.cookie };
  const quiz = await server.api("/api/quizzes", {
    body: { title: "Owned", description: "", timeLimit: 30, isPublic: true },
    clientId: owner.clientId,
    headers,
  });
  expect(quiz.status).toBe(201);
  for (const [order, question] of SAMPLE_QUESTIONS.entries()) {
    expect((await server.api("/api/questions", { body: { quizId: quiz.body.id, order, ...question }, clientId: owner.clientId, headers })).status).toBe(201);
  }
  return { quizId: quiz.body.id, gameCode: await gameOf(owner, quiz.body.id) };
}

async function gameOf(owner: SignedIn, quizId: number): Promise<string> {
  const game = await server.api("/api/games", { body: { quizId }, clientId: owner.clientId, headers: { cookie: owner.cookie } });
  expect(game.status).toBe(201);
  // A game made signed in is its account's: the host's browser is signed in, its socket too.
  setBrowserCookie(owner.clientId, owner.cookie);
  expect((await server.api(`/api/games/${game.body.gameCode}/register-host`, { body: { clientId: owner.clientId }, clientId: owner.clientId })).status).toBe(
    200,
  );
  return game.body.gameCode;
}

interface Table {
  host: TestClient;
  players: { client: TestClient; id: number }[];
}

async function startGame(gameCode: string, hostClientId: string, nicknames = ["Ann", "Bob"]): Promise<Table> {
  const host = await connect(hostClientId);
  await host.joinAsHost(gameCode);
  const players = [];
  for (const nickname of nicknames) {
    const client = await connect();
    players.push({ client, id: await client.joinAsPlayer(gameCode, nickname) });
  }
  host.send("START_GAME", { gameCode });
  for (const { client } of players) await client.next("QUESTION_STARTED", (payload) => payload.questionNumber === 1);
  return { host, players };
}

/** Every player answers question `number` (each acknowledgement checked), and the next one opens. */
async function answerAll(table: Table, gameCode: string, number: number): Promise<void> {
  for (const { client, id } of table.players) {
    client.send("SUBMIT_ANSWER", { gameCode, playerId: id, answerIndex: 0 });
    expect(await client.next("ANSWER_ACCEPTED", (payload) => payload.questionNumber === number)).toEqual({ questionNumber: number, answerIndex: 0 });
  }
}

/** Plays questions `from`..`total`; the first question's start was already taken by `startGame`. */
async function playToTheEnd(table: Table, gameCode: string, from: number, total: number): Promise<void> {
  for (let number = from; number <= total; number++) {
    if (number > 1) for (const { client } of table.players) await client.next("QUESTION_STARTED", (payload) => payload.questionNumber === number, 5000);
    await answerAll(table, gameCode, number);
  }
  for (const { client } of table.players) await client.next("GAME_OVER", () => true, 5000);
}

async function storedAnswers(gameCode: string): Promise<number> {
  const row = await server.db
    .selectFrom("answers")
    .innerJoin("games", "games.id", "answers.game_id")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("games.game_code", "=", gameCode)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("deleting a quiz while a game of it is being played", () => {
  it("lets the game play on from My Quizzes, keeps every acknowledged answer, and keeps the quiz, hidden, as long as the game's report", async () => {
    const owner = await signInAs(server);
    const { quizId, gameCode } = await ownersGame(owner);
    const table = await startGame(gameCode, owner.clientId);
    const [ann, bob] = table.players;
    ann.client.send("SUBMIT_ANSWER", { gameCode, playerId: ann.id, answerIndex: 1 });
    await ann.client.next("ANSWER_ACCEPTED");

    const deleted = await postForm("/my-quizzes", { intent: "delete", quizId: String(quizId) }, owner);
    expect(deleted.status).toBe(302);
    expect(deleted.location).toBe("/my-quizzes?deleted=1&playing=1");
    const page = await fetch(server.url + deleted.location, { headers: { cookie: owner.cookie } });
    expect(await page.text()).toContain("Its open game (waiting or being played) can still finish with the questions it started with");

    // Gone for everyone else at once: not listed, not readable, not hostable, not editable.
    expect((await server.api(`/api/quizzes/${quizId}`, { clientId: owner.clientId, headers: { cookie: owner.cookie } })).status).toBe(404);
    expect((await server.api("/api/quizzes", { clientId: owner.clientId })).body.map((quiz: { id: number }) => quiz.id)).not.toContain(quizId);
    expect((await server.api("/api/games", { body: { quizId }, clientId: owner.clientId, headers: { cookie: owner.cookie } })).status).toBe(404);
    expect((await server.api("/api/game-sessions")).body.map((game: { gameCode: string }) => game.gameCode)).not.toContain(gameCode);

    // The game is not frozen: the next answer is stored and acknowledged, and the game ends normally.
    bob.client.send("SUBMIT_ANSWER", { gameCode, playerId: bob.id, answerIndex: 2 });
    expect(await bob.client.next("ANSWER_ACCEPTED", () => true, 2000)).toEqual({ questionNumber: 1, answerIndex: 2 });
    await playToTheEnd(table, gameCode, 2, SAMPLE_QUESTIONS.length);
    expect(await storedAnswers(gameCode)).toBe(2 * SAMPLE_QUESTIONS.length);
    const results = await server.api(`/api/games/${gameCode}/results`, { clientId: owner.clientId });
    expect(results.body).toMatchObject({ status: "finished", totalQuestions: 3 });

    // The game's report stays with its host (docs/decisions/0031-game-reports.md) after the sweeps; the quiz goes with it.
    const gameId = (await server.db.selectFrom("games").select("id").where("game_code", "=", gameCode).executeTakeFirstOrThrow()).id;
    await server.hub.sweep();
    expect((await fetch(`${server.url}/my-games/${gameId}`, { headers: { cookie: owner.cookie } })).status).toBe(200);
    expect(await server.db.selectFrom("quizzes").select("id").where("id", "=", quizId).executeTakeFirst()).toBeDefined();
    await server.db.deleteFrom("games").where("id", "=", gameId).execute();
    await server.hub.sweep();
    expect(await server.db.selectFrom("quizzes").select("id").where("id", "=", quizId).executeTakeFirst()).toBeUndefined();
  });

  it("lets the game play on when its owner deletes the account", async () => {
    const owner = await signInAs(server);
    const { quizId, gameCode } = await ownersGame(owner);
    const table = await startGame(gameCode, owner.clientId);

    const gone = await postForm("/account", { intent: "delete-account", confirm: "yes" }, owner);
    expect(gone).toMatchObject({ status: 302, location: "/" });
    expect(await server.db.selectFrom("users").select("id").where("id", "=", owner.user.id).executeTakeFirst()).toBeUndefined();
    expect((await server.api("/api/quizzes", { clientId: owner.clientId })).body.map((quiz: { id: number }) => quiz.id)).not.toContain(quizId);

    await playToTheEnd(table, gameCode, 1, SAMPLE_QUESTIONS.length);
    expect(await storedAnswers(gameCode)).toBe(2 * SAMPLE_QUESTIONS.length);
  });
});

describe("editing a quiz while games of it exist", () => {
  function editForm(questions: { text: string; answers: string[]; correctAnswerIndex: number }[]): Record<string, string> {
    const form: Record<string, string> = { intent: "save", title: "Owned, edited", description: "", timeLimit: "20", visibility: "public" };
    for (const [i, question] of questions.entries()) {
      form[`questions[${i}].text`] = question.text;
      for (const [j, answer] of question.answers.entries()) form[`questions[${i}].answers[${j}]`] = answer;
      form[`questions[${i}].correctAnswerIndex`] = String(question.correctAnswerIndex);
    }
    return form;
  }

  it("never deletes an answer already given, and a running game keeps the questions it started with", async () => {
    const owner = await signInAs(server);
    const { quizId, gameCode: played } = await ownersGame(owner);
    await playToTheEnd(await startGame(played, owner.clientId), played, 1, SAMPLE_QUESTIONS.length);
    expect(await storedAnswers(played)).toBe(6);
    const resultsBefore = (await server.api(`/api/games/${played}/results`, { clientId: owner.clientId })).body;

    const running = await gameOf(owner, quizId);
    const table = await startGame(running, owner.clientId, ["Cat", "Dan"]);
    await answerAll(table, running, 1);

    // Down to one question, and a different one: saved, and the owner's list shows the new version.
    const shortened = [{ text: "Only question now?", answers: ["w", "x", "y", "z"], correctAnswerIndex: 3 }];
    const saved = await postForm(`/create?edit=${quizId}`, editForm(shortened), owner);
    expect(saved).toMatchObject({ status: 302, location: "/my-quizzes?saved=1" });
    const now = await server.api(`/api/quizzes/${quizId}`, { clientId: owner.clientId, headers: { cookie: owner.cookie } });
    expect(now.body.questions.map((question: { text: string }) => question.text)).toEqual(["Only question now?"]);

    // The finished game's answers and results are as they were.
    expect(await storedAnswers(played)).toBe(6);
    const { title: _, ...kept } = resultsBefore;
    expect((await server.api(`/api/games/${played}/results`, { clientId: owner.clientId })).body).toMatchObject(kept);

    // The running game goes on with its three original questions.
    const [cat] = table.players;
    const second = await cat.client.next("QUESTION_STARTED", (payload) => payload.questionNumber === 2, 5000);
    expect(second).toMatchObject({ totalQuestions: 3, question: { text: SAMPLE_QUESTIONS[1].text } });
    await answerAll(table, running, 2);
    await playToTheEnd(table, running, 3, 3);
    expect(await storedAnswers(running)).toBe(6);

    // A game opened now plays the edited quiz.
    const fresh = await gameOf(owner, quizId);
    const host = await connect(owner.clientId);
    expect(await host.joinAsHost(fresh)).toMatchObject({ totalQuestions: 1, timeLimit: 20 });
  });
});

describe("a room whose game row is gone", () => {
  it("closes with a clear message instead of retrying its commit for ever, and other games go on", async () => {
    const owner = await signInAs(server);
    const { quizId, gameCode: doomed } = await ownersGame(owner);
    const other = await gameOf(owner, quizId);
    const lost = await startGame(doomed, owner.clientId);
    const kept = await startGame(other, owner.clientId, ["Eve"]);
    const rooms = server.hub.roomCount;

    // The operator removes the game by hand while a question is open.
    await server.db.deleteFrom("games").where("game_code", "=", doomed).execute();
    const [ann] = lost.players;
    ann.client.send("SUBMIT_ANSWER", { gameCode: doomed, playerId: ann.id, answerIndex: 0 });
    for (const client of [ann.client, lost.host, lost.players[1].client]) {
      expect(await client.next("ERROR", (payload) => payload.code === "GAME_CLOSED", 3000)).toEqual({
        message: "This game has been closed on the server. Thanks for playing!",
        code: "GAME_CLOSED",
        key: "GAME_CLOSED",
      });
      expect(await client.closedByServer()).toBe(CloseCode.GAME_CLOSED);
    }
    expect(ann.client.all("ANSWER_ACCEPTED")).toEqual([]);
    expect(server.hub.roomCount).toBe(rooms - 1);

    const [eve] = kept.players;
    await answerAll(kept, other, 1);
    expect(eve.client.all("ERROR")).toEqual([]);
    const again = await connect(`late-${randomUUID()}`);
    again.send("JOIN_GAME", { gameCode: doomed, nickname: "Late" });
    expect((await again.next("ERROR")).code).toBe("GAME_NOT_FOUND");
  });

  it("reloads from what is stored when the database refuses a commit for good, and the game goes on", async () => {
    const owner = await signInAs(server);
    const { gameCode } = await ownersGame(owner);
    const host = await connect(owner.clientId);
    await host.joinAsHost(gameCode);
    const ann = await connect();
    expect(await ann.joinAsPlayer(gameCode, "Ann")).toBe(1);
    // A row the room does not know of takes the id its next player would get: that insert can never pass.
    const game = await server.db.selectFrom("games").select("id").where("game_code", "=", gameCode).executeTakeFirstOrThrow();
    await server.db.insertInto("players").values({ game_id: game.id, id: 2, nickname: "Ghost", client_id: "ghost", joined_at: Date.now() }).execute();

    const bob = await connect();
    bob.send("JOIN_GAME", { gameCode, nickname: "Bob" });
    expect(await bob.closedByServer()).toBe(CloseCode.SERVER_RESTARTING);
    expect(bob.all("PLAYER_JOINED")).toEqual([]);

    // Everyone comes back as after a restart and finds the game as stored.
    const bobAgain = await connect(bob.clientId);
    expect(await bobAgain.joinAsPlayer(gameCode, "Bob")).toBe(3);
    const annAgain = await connect(ann.clientId);
    expect(await annAgain.joinAsPlayer(gameCode, "Ann")).toBe(1);
    const hostAgain = await connect(owner.clientId);
    expect(await hostAgain.joinAsHost(gameCode)).toMatchObject({ playerCount: 3 });
  });
});
