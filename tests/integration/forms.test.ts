/**
 * The create, host and join routes' loaders and actions, called with real Requests against a
 * real SQLite database, as a browser without JavaScript would post them.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { migrateToLatest, openDatabase, type DB } from "#db/connection.server";
import { createGame } from "#app/models/game.server";
import { addQuestion, createQuiz } from "#app/models/quiz.server";
import * as createRoute from "#app/routes/create";
import * as hostRoute from "#app/routes/host._index";
import * as joinRoute from "#app/routes/join";
import { silentLogger } from "#server/logger";
import { captureLogs, ERROR } from "#tests/log-capture";
import { testLimits } from "./temp-database";

let dir: string;
let db: DB;
const limits = testLimits();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-forms-"));
  db = await freshDatabase("forms.sqlite");
});

afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function freshDatabase(name: string): Promise<DB> {
  const database = openDatabase(path.join(dir, name));
  await migrateToLatest(database);
  return database;
}

type Handler = (args: any) => Promise<unknown>;

interface Reply {
  status: number;
  body: any;
  location: string | null;
  setCookie: string | null;
}

/** The host secret the server set in the browser with this client id (docs/decisions/0044-shared-browsers.md): one per browser. */
function hostSecretFor(clientId: string): string {
  return createHash("sha256").update(clientId).digest("base64url");
}

/** Calls a loader or action the way Remix does and unwraps either a Response or a data() result. */
async function call(
  handler: Handler,
  url: string,
  init: { form?: Record<string, string> | [string, string][]; clientId?: string; database?: DB; logger?: unknown } = {},
): Promise<Reply> {
  const headers = new Headers();
  if (init.clientId) headers.set("cookie", `theme=dark; quiz_client_id=${init.clientId}; qn_host=${hostSecretFor(init.clientId)}`);
  const request = new Request(`http://localhost${url}`, {
    method: init.form ? "POST" : "GET",
    headers,
    body: init.form ? new URLSearchParams(init.form) : undefined,
  });
  const result = await handler({
    request,
    params: {},
    context: {
      db: init.database ?? db,
      hub: null as any,
      sessionSecret: "forms-test-secret-0123456789-0123456789",
      clientIp: "127.0.0.1",
      limits,
      logger: init.logger ?? silentLogger,
    },
  });
  if (result instanceof Response) {
    return { status: result.status, body: null, location: result.headers.get("location"), setCookie: result.headers.get("set-cookie") };
  }
  if (result && typeof result === "object" && "init" in result && "data" in result) {
    const wrapped = result as { data: unknown; init: ResponseInit | null };
    return { status: wrapped.init?.status ?? 200, body: wrapped.data, location: null, setCookie: null };
  }
  return { status: 200, body: result, location: null, setCookie: null };
}

function quizForm(change: Record<string, string> = {}): Record<string, string> {
  return {
    title: "  Pub night  ",
    description: "Fun for all",
    timeLimit: "30",
    visibility: "public",
    "questions[0].text": "2 + 2?",
    "questions[0].answers[0]": "3",
    "questions[0].answers[1]": "4",
    "questions[0].answers[2]": "5",
    "questions[0].answers[3]": "22",
    "questions[0].correctAnswerIndex": "1",
    "questions[1].text": "Capital of France?",
    "questions[1].answers[0]": "Paris",
    "questions[1].answers[1]": "Rome",
    "questions[1].answers[2]": "Madrid",
    "questions[1].answers[3]": "Berlin",
    "questions[1].correctAnswerIndex": "0",
    intent: "save",
    ...change,
  };
}

async function seedQuiz(options: { title: string; isPublic: boolean; ownerClientId?: string }) {
  const quiz = await createQuiz(
    db,
    { title: options.title, description: "", timeLimit: 20, isPublic: options.isPublic },
    { clientId: options.ownerClientId ?? null },
  );
  await addQuestion(db, { quizId: quiz.id, text: "Q?", answers: ["a", "b", "c", "d"], correctAnswerIndex: 0, order: 0 });
  return quiz;
}

async function gameRow(gameCode: string) {
  return db.selectFrom("games").selectAll().where("game_code", "=", gameCode).executeTakeFirstOrThrow();
}

function codeFrom(location: string | null): string {
  const match = /^\/waiting\/([A-Z0-9]{6})\?/.exec(location ?? "");
  expect(match, `redirect to a lobby, got ${location}`).not.toBeNull();
  return match![1];
}

describe("/create action", () => {
  it("saves the quiz, its questions in order and a game hosted by the cookie's client, then goes to the lobby", async () => {
    const reply = await call(createRoute.action, "/create", { form: quizForm(), clientId: "creator-1" });
    expect(reply.status).toBe(302);
    expect(reply.location).toMatch(/^\/waiting\/[A-Z0-9]{6}\?created=1$/);
    expect(reply.setCookie).toBeNull();

    const game = await gameRow(codeFrom(reply.location));
    expect(game).toMatchObject({ host_client_id: "creator-1", status: "waiting" });
    const quiz = await db.selectFrom("quizzes").selectAll().where("id", "=", game.quiz_id).executeTakeFirstOrThrow();
    expect(quiz).toMatchObject({ title: "Pub night", description: "Fun for all", time_limit: 30, is_public: 1, owner_client_id: "creator-1" });
    const questions = await db.selectFrom("questions").selectAll().where("quiz_id", "=", quiz.id).orderBy("order").execute();
    expect(questions.map(({ text, answers, correct_answer_index, order }) => ({ text, answers: JSON.parse(answers), correct_answer_index, order }))).toEqual([
      { text: "2 + 2?", answers: ["3", "4", "5", "22"], correct_answer_index: 1, order: 0 },
      { text: "Capital of France?", answers: ["Paris", "Rome", "Madrid", "Berlin"], correct_answer_index: 0, order: 1 },
    ]);
  });

  it("gives a browser without a client id one, in a cookie, and makes it the owner and host", async () => {
    const reply = await call(createRoute.action, "/create", { form: quizForm({ visibility: "private" }) });
    expect(reply.status).toBe(302);
    const clientId = /quiz_client_id=([^;]+)/.exec(reply.setCookie ?? "")?.[1];
    expect(clientId).toBeTruthy();
    const game = await gameRow(codeFrom(reply.location));
    expect(game.host_client_id).toBe(clientId);
    const quiz = await db.selectFrom("quizzes").selectAll().where("id", "=", game.quiz_id).executeTakeFirstOrThrow();
    expect(quiz).toMatchObject({ owner_client_id: clientId, is_public: 0 });
  });

  it("re-renders a quiz with problems with each message beside its field and every entered value kept", async () => {
    const before = await db
      .selectFrom("quizzes")
      .select(sql<number>`count(*)`.as("n"))
      .executeTakeFirstOrThrow();
    const reply = await call(createRoute.action, "/create", {
      form: quizForm({ title: "   ", "questions[1].text": "", "questions[1].answers[2]": "" }),
      clientId: "creator-2",
    });
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual({
      title: "Please give your quiz a title.",
      "questions.1.text": "Question 2 is empty.",
      "questions.1.answers.2": "Question 2 has an empty answer option.",
    });
    expect(reply.body.draft).toMatchObject({
      title: "   ",
      description: "Fun for all",
      timeLimit: 30,
      visibility: "public",
      questions: [
        { text: "2 + 2?", answers: ["3", "4", "5", "22"], correctAnswerIndex: 1 },
        { text: "", answers: ["Paris", "Rome", "", "Berlin"], correctAnswerIndex: 0 },
      ],
    });
    const after = await db
      .selectFrom("quizzes")
      .select(sql<number>`count(*)`.as("n"))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it("adds an empty question without JavaScript, keeping what was typed", async () => {
    const reply = await call(createRoute.action, "/create", { form: quizForm({ intent: "add-question" }) });
    expect(reply.status).toBe(200);
    expect(reply.body.draft.questions).toHaveLength(3);
    expect(reply.body.draft.questions[2]).toMatchObject({ kind: "choice", text: "", answers: ["", "", "", ""], correctAnswerIndex: 0 });
    expect(reply.body.draft.title).toBe("  Pub night  ");
  });

  it("removes the chosen question without JavaScript", async () => {
    const reply = await call(createRoute.action, "/create", { form: quizForm({ intent: "remove-question-0" }) });
    expect(reply.status).toBe(200);
    expect(reply.body.draft.questions.map((question: { text: string }) => question.text)).toEqual(["Capital of France?"]);
  });

  it("refuses to remove the last question with its message (docs/product.md#validation)", async () => {
    const form = Object.entries(quizForm({ intent: "remove-question-0" })).filter(([name]) => !name.startsWith("questions[1]"));
    const reply = await call(createRoute.action, "/create", { form });
    expect(reply.status).toBe(400);
    // With the codes its title and description are said by (docs/decisions/0047-errors-as-codes.md).
    expect(reply.body.formError).toEqual({
      title: "Cannot remove question",
      description: "A quiz must have at least one question.",
      codes: { title: { code: "QUIZ_NEEDS_A_QUESTION_TITLE" }, description: { code: "QUIZ_NEEDS_A_QUESTION" } },
    });
    expect(reply.body.draft.questions).toHaveLength(1);
  });

  it("saves nothing and says so when the database fails half way", async () => {
    const broken = await freshDatabase("broken.sqlite");
    await sql`CREATE TRIGGER no_games BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'disk full'); END`.execute(broken);
    const logged = vi.fn();
    const reply = await call(createRoute.action, "/create", { form: quizForm(), clientId: "creator-3", database: broken, logger: { error: logged } });
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ event: "quiz_save_failed", err: expect.any(Error) }), "could not save a quiz");
    expect(reply.status).toBe(500);
    expect(reply.body.formError).toEqual({
      title: "Failed to create quiz",
      description: "There was an error creating your quiz. Please try again.",
      codes: { title: { code: "CREATE_QUIZ_FAILED_TITLE" }, description: { code: "CREATE_QUIZ_FAILED" } },
    });
    expect(reply.body.draft.title).toBe("  Pub night  ");
    expect(await broken.selectFrom("quizzes").selectAll().execute()).toEqual([]);
    expect(await broken.selectFrom("questions").selectAll().execute()).toEqual([]);
    await broken.destroy();
  });
});

describe("/host", () => {
  let mine: { id: number };
  let theirs: { id: number };
  let shared: { id: number };

  beforeAll(async () => {
    mine = await seedQuiz({ title: "My private quiz", isPublic: false, ownerClientId: "host-1" });
    theirs = await seedQuiz({ title: "Their private quiz", isPublic: false, ownerClientId: "someone-else" });
    shared = await seedQuiz({ title: "Shared quiz", isPublic: true, ownerClientId: "someone-else" });
  });

  it("lists public quizzes and the requester's own, with question counts", async () => {
    const reply = await call(hostRoute.loader, "/host", { clientId: "host-1" });
    const titles = reply.body.quizzes.map((quiz: { title: string }) => quiz.title);
    expect(titles).toContain("My private quiz");
    expect(titles).toContain("Shared quiz");
    expect(titles).not.toContain("Their private quiz");
    expect(reply.body.quizzes.find((quiz: { id: number }) => quiz.id === mine.id)).toEqual({
      id: mine.id,
      title: "My private quiz",
      description: "",
      questionCount: 1,
      isPublic: false,
    });
    expect(reply.body.loadFailed).toBe(false);
  });

  it("says the list could not load when the database fails", async () => {
    const broken = await freshDatabase("host-broken.sqlite");
    await broken.destroy();
    const log = captureLogs();
    const reply = await call(hostRoute.loader, "/host", { database: broken, logger: log.logger });
    expect(reply.body).toEqual({ quizzes: [], loadFailed: true });
    expect(log.lines).toEqual([
      expect.objectContaining({ level: ERROR, event: "quiz_list_failed", err: expect.objectContaining({ message: expect.any(String) }) }),
    ]);
  });

  // Each message with the code the page says it by (docs/decisions/0047-errors-as-codes.md).
  const GAME_CODE_LENGTH = { code: "GAME_CODE_LENGTH" };
  const HOST_NAME_LENGTH = { code: "HOST_NAME_LENGTH" };
  it.each([
    [
      { quizCode: "ABC", quizId: "", hostName: "S" },
      { quizCode: "Quiz code must be 6 characters", hostName: "Host name must be between 2-15 characters" },
      { quizCode: GAME_CODE_LENGTH, hostName: HOST_NAME_LENGTH },
    ],
    [{ quizCode: "", quizId: "", hostName: "Sam" }, { quizCode: "Quiz code must be 6 characters" }, { quizCode: GAME_CODE_LENGTH }],
    [
      { quizCode: "ABC123", quizId: "", hostName: "A very long host name" },
      { hostName: "Host name must be between 2-15 characters" },
      { hostName: HOST_NAME_LENGTH },
    ],
  ])("re-renders %j with the messages of docs/product.md#validation and the values kept", async (form, errors, codes) => {
    const reply = await call(hostRoute.action, "/host?index", { form, clientId: "host-1" });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ values: form, errors, codes });
  });

  it("starts a new game of a chosen quiz with this browser as host", async () => {
    const reply = await call(hostRoute.action, "/host?index", { form: { quizCode: "", quizId: String(mine.id), hostName: "Sam" }, clientId: "host-1" });
    expect(reply.status).toBe(302);
    expect(reply.location).toMatch(/^\/waiting\/[A-Z0-9]{6}\?hosted=1&hostName=Sam$/);
    expect(await gameRow(codeFrom(reply.location))).toMatchObject({ quiz_id: mine.id, host_client_id: "host-1", status: "waiting" });
  });

  it("hosts someone's public quiz but not their private one", async () => {
    const ok = await call(hostRoute.action, "/host?index", { form: { quizId: String(shared.id), hostName: "Sam" }, clientId: "host-1" });
    expect(ok.status).toBe(302);
    const refused = await call(hostRoute.action, "/host?index", { form: { quizId: String(theirs.id), hostName: "Sam" }, clientId: "host-1" });
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toEqual({ quizId: "This quiz is private. Only its creator can host it." });
    const missing = await call(hostRoute.action, "/host?index", { form: { quizId: "999999", hostName: "Sam" }, clientId: "host-1" });
    expect(missing.body.errors).toEqual({ quizId: "Quiz not found." });
  });

  it("claims the host seat of a game by its code, normalising the code and naming the host in the lobby URL", async () => {
    const game = await createGame(db, { quizId: mine.id, hostId: null, creatorClientId: "host-2", hostSecret: hostSecretFor("host-2") });
    const reply = await call(hostRoute.action, "/host?index", {
      form: { quizCode: game.gameCode.toLowerCase(), quizId: "", hostName: " Sam Smith " },
      clientId: "host-2",
    });
    expect(reply.status).toBe(302);
    expect(reply.location).toBe(`/waiting/${game.gameCode}?hosted=1&hostName=Sam+Smith`);
    expect((await gameRow(game.gameCode)).host_client_id).toBe("host-2");

    const again = await call(hostRoute.action, "/host?index", { form: { quizCode: game.gameCode, hostName: "Sam" }, clientId: "host-2" });
    expect(again.status).toBe(302);
    const taken = await call(hostRoute.action, "/host?index", { form: { quizCode: game.gameCode, hostName: "Alex" }, clientId: "host-3" });
    expect(taken.status).toBe(403);
    expect(taken.body.errors).toEqual({ quizCode: "This game already has a host." });
  });

  it("leaves the host seat of someone else's game alone, even while it is free", async () => {
    const game = await createGame(db, { quizId: mine.id, hostId: null, creatorClientId: "host-2" });
    const refused = await call(hostRoute.action, "/host?index", { form: { quizCode: game.gameCode, hostName: "Alex" }, clientId: "host-3" });
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toEqual({ quizCode: "Only the browser or account that created this game can host it." });
    expect((await gameRow(game.gameCode)).host_client_id).toBeNull();
  });

  it("says an unknown code names no game", async () => {
    const reply = await call(hostRoute.action, "/host?index", { form: { quizCode: "ZZZZ99", hostName: "Sam" }, clientId: "host-1" });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({
      values: { quizCode: "ZZZZ99", quizId: "", hostName: "Sam" },
      errors: { quizCode: "Game not found. Check the code and try again." },
      codes: { quizCode: { code: "GAME_NOT_FOUND" } },
    });
  });
});

describe("/join", () => {
  let quiz: { id: number };
  let listed: { gameCode: string };

  beforeAll(async () => {
    quiz = await seedQuiz({ title: "Open quiz", isPublic: true });
    listed = await createGame(db, { quizId: quiz.id, hostId: null, creatorClientId: "lister" });
  });

  it("lists live public games and prefills a normalised code from the URL", async () => {
    const reply = await call(joinRoute.loader, "/join?code=ab-c12x9");
    expect(reply.body.code).toBe("ABC12X");
    expect(reply.body.sessions).toContainEqual(
      expect.objectContaining({ quizId: quiz.id, title: "Open quiz", gameCode: listed.gameCode, status: "waiting", timeLimit: 20 }),
    );
  });

  // Each message with the code the page says it by (docs/decisions/0047-errors-as-codes.md).
  it.each([
    [{ gameCode: "AB1", nickname: "Sam" }, { gameCode: "Quiz code must be 6 characters" }, { gameCode: { code: "GAME_CODE_LENGTH" } }],
    [
      { gameCode: "", nickname: "" },
      { gameCode: "Quiz code must be 6 characters", nickname: "Enter a nickname." },
      { gameCode: { code: "GAME_CODE_LENGTH" }, nickname: { code: "NICKNAME_REQUIRED" } },
    ],
    [
      { gameCode: "ABC123", nickname: "Sixteen chars!!!" },
      { nickname: "Nickname must be at most 15 characters." },
      { nickname: { code: "NICKNAME_TOO_LONG" } },
    ],
  ])("re-renders %j with the messages and the values kept", async (form, errors, codes) => {
    const reply = await call(joinRoute.action, "/join", { form });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ values: form, errors, codes });
  });

  it("says an unknown code names no game", async () => {
    const reply = await call(joinRoute.action, "/join", { form: { gameCode: "zzzz99", nickname: "Sam" } });
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({
      values: { gameCode: "zzzz99", nickname: "Sam" },
      errors: { gameCode: "Game not found. Check the code and try again." },
      codes: { gameCode: { code: "GAME_NOT_FOUND" } },
    });
  });

  it("goes to the lobby of a live game with the nickname", async () => {
    const typed = `${listed.gameCode.slice(0, 3).toLowerCase()}-${listed.gameCode.slice(3)}`;
    const reply = await call(joinRoute.action, "/join", { form: { gameCode: typed, nickname: " Sam Smith " } });
    expect(reply.status).toBe(302);
    expect(reply.location).toBe(`/waiting/${listed.gameCode}?nickname=Sam+Smith`);
  });

  it("marks the games this browser hosts, and no other, so the page links only those to their host screen", async () => {
    const hosted = await createGame(db, {
      quizId: quiz.id,
      hostId: null,
      creatorClientId: "host-9",
      hostClientId: "host-9",
      hostSecret: hostSecretFor("host-9"),
    });
    const sessionOf = (reply: Reply, code: string) => (reply.body.sessions as { gameCode: string; isHost: boolean }[]).find((s) => s.gameCode === code);

    const asHost = await call(joinRoute.loader, "/join", { clientId: "host-9" });
    expect(sessionOf(asHost, hosted.gameCode)).toMatchObject({ isHost: true });
    // Someone else's game is not.
    expect(sessionOf(asHost, listed.gameCode)).toMatchObject({ isHost: false });

    for (const reply of [await call(joinRoute.loader, "/join", { clientId: "someone-else" }), await call(joinRoute.loader, "/join")]) {
      expect(sessionOf(reply, hosted.gameCode)).toMatchObject({ isHost: false });
    }
  });

  it("never starts a copy of a listed game: Start Game is not a post any more", async () => {
    const games = async () =>
      Number(
        (
          await db
            .selectFrom("games")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await games();
    const reply = await call(joinRoute.action, "/join", { form: { intent: "start", quizId: String(quiz.id) }, clientId: "starter-1" });
    expect(reply.status).toBe(400);
    expect(await games()).toBe(before);
  });
});
