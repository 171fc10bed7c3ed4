/**
 * Who may see, edit, delete and host a quiz, and what an account can do to itself: route loaders
 * and actions called with real Requests, signed in through real sessions, against a real SQLite file.
 */
import { createHash, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection.server";
import { hostNewGame } from "#app/models/game.server";
import { addQuestion, createQuiz, type Quiz } from "#app/models/quiz.server";
import { purgeDeletedQuizzes } from "#app/models/quiz-delete.server";
import { listOwnQuizzes } from "#app/models/quiz-lists.server";
import { createAccount, createGuest, type User } from "#app/models/user.server";
import * as accountRoute from "#app/routes/account";
import * as quizApi from "#app/routes/api.quizzes";
import * as quizByIdApi from "#app/routes/api.quizzes_.$id";
import * as createRoute from "#app/routes/create";
import * as myQuizzesRoute from "#app/routes/my-quizzes";
import { AuthError, login } from "#app/auth/auth.server";
import { getUser, startSession } from "#app/sessions/session.server";
import { openTempDatabase, testLimits, type TempDatabase } from "./temp-database";
import { silentLogger } from "#server/logger";

let database: TempDatabase;
let db: DB;

const limits = testLimits();

const context = () => ({
  db,
  hub: null as any,
  sessionSecret: "ownership-test-secret-0123456789-0123456789",
  clientIp: "127.0.0.1",
  limits,
  logger: silentLogger,
});

beforeAll(async () => {
  database = await openTempDatabase("ownership");
  db = database.db;
});

afterAll(() => database.remove());

interface Account {
  user: User;
  /** `qn_session=...`, for a Cookie header. */
  cookie: string;
  clientId: string;
  password: string;
}

let accounts = 0;

async function signUp(name: string, password = "secret-password"): Promise<Account> {
  const n = ++accounts;
  const user = await createAccount(db, { username: `${name}${n}`, email: `${name}${n}@example.com`, password });
  const setCookie = await startSession(context(), new Request("http://localhost/auth"), user.id);
  return { user, cookie: setCookie.split(";")[0], clientId: `browser-${name}-${n}`, password };
}

type Handler = (args: any) => Promise<unknown>;

interface Reply {
  status: number;
  body: any;
  location: string | null;
  setCookie: string | null;
}

/** Calls a loader or action the way Remix does, thrown Responses included, and unwraps the result. */
async function call(
  handler: Handler,
  url: string,
  init: { as?: Account; form?: Record<string, string>; json?: unknown; params?: Record<string, string> } = {},
): Promise<Reply> {
  const headers = new Headers();
  const cookies = [init.as?.cookie, init.as ? `quiz_client_id=${init.as.clientId}` : null].filter(Boolean);
  if (cookies.length) headers.set("cookie", cookies.join("; "));
  let body: BodyInit | undefined;
  if (init.form) body = new URLSearchParams(init.form);
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  const request = new Request(`http://localhost${url}`, { method: body ? "POST" : "GET", headers, body });
  let result: unknown;
  try {
    result = await handler({ request, params: init.params ?? {}, context: context() });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    result = thrown;
  }
  if (result instanceof Response) {
    const text = await result.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: result.status, body: parsed, location: result.headers.get("location"), setCookie: result.headers.get("set-cookie") };
  }
  if (result && typeof result === "object" && "init" in result && "data" in result) {
    const wrapped = result as { data: unknown; init: ResponseInit | null };
    return { status: wrapped.init?.status ?? 200, body: wrapped.data, location: null, setCookie: null };
  }
  return { status: 200, body: result, location: null, setCookie: null };
}

/** A session row for the user beside its current one, as `startSession` itself never leaves. */
async function extraSession(userId: number): Promise<string> {
  const id = randomBytes(32).toString("hex");
  await db
    .insertInto("sessions")
    .values({ id_hash: createHash("sha256").update(id).digest("hex"), user_id: userId, created_at: Date.now(), expires_at: Date.now() + 60_000 })
    .execute();
  const signed = await createCookie("qn_session", { secrets: [context().sessionSecret] }).serialize(id);
  return signed.split(";")[0];
}

async function quizOf(owner: Account, title: string, isPublic: boolean, questions = ["First?", "Second?"]): Promise<Quiz> {
  const quiz = await createQuiz(db, { title, description: "", timeLimit: 20, isPublic }, { userId: owner.user.id, clientId: owner.clientId });
  for (const [order, text] of questions.entries()) {
    await addQuestion(db, { quizId: quiz.id, text, answers: ["a", "b", "c", "d"], correctAnswerIndex: 0, order });
  }
  return quiz;
}

async function quizRow(id: number) {
  return db.selectFrom("quizzes").selectAll().where("id", "=", id).executeTakeFirst();
}

async function questionsOf(quizId: number) {
  const rows = await db.selectFrom("questions").selectAll().where("quiz_id", "=", quizId).orderBy("order").execute();
  return rows.map(({ text, answers, correct_answer_index, order }) => ({ text, answers: JSON.parse(answers), correct_answer_index, order }));
}

function editForm(title: string, questions: { text: string; answers: string[]; correct: number }[], change: Record<string, string> = {}) {
  const form: Record<string, string> = { intent: "save", title, description: "Edited", timeLimit: "60", visibility: "private" };
  for (const [i, question] of questions.entries()) {
    form[`questions[${i}].text`] = question.text;
    for (const [j, answer] of question.answers.entries()) form[`questions[${i}].answers[${j}]`] = answer;
    form[`questions[${i}].correctAnswerIndex`] = String(question.correct);
  }
  return { ...form, ...change };
}

function loginRequest(email: string, password: string): Request {
  return new Request("http://localhost/auth", { method: "POST", body: new URLSearchParams({ email, password }) });
}

describe("a private quiz", () => {
  let a: Account;
  let b: Account;
  let quiz: Quiz;

  beforeAll(async () => {
    a = await signUp("alice");
    b = await signUp("bob");
    quiz = await quizOf(a, "Alice's secret quiz", false);
  });

  it("can be read through the API by its owner only (403 for another account, whatever its client id)", async () => {
    const own = await call(quizByIdApi.loader, `/api/quizzes/${quiz.id}`, { as: a, params: { id: String(quiz.id) } });
    expect(own.status).toBe(200);
    expect(own.body.questions.map((q: { text: string }) => q.text)).toEqual(["First?", "Second?"]);

    const other = await call(quizByIdApi.loader, `/api/quizzes/${quiz.id}`, { as: b, params: { id: String(quiz.id) } });
    expect(other.status).toBe(403);
    expect(JSON.stringify(other.body)).not.toContain("First?");
  });

  it("cannot be opened for editing by another account: 404, and a post changes nothing", async () => {
    expect((await call(createRoute.loader, `/create?edit=${quiz.id}`, { as: b })).status).toBe(404);
    const post = await call(createRoute.action, `/create?edit=${quiz.id}`, {
      as: b,
      form: editForm("Hijacked", [{ text: "Mine now?", answers: ["1", "2", "3", "4"], correct: 0 }]),
    });
    expect(post.status).toBe(404);
    expect(await quizRow(quiz.id)).toMatchObject({ title: "Alice's secret quiz" });
    expect((await questionsOf(quiz.id)).map((q) => q.text)).toEqual(["First?", "Second?"]);
  });

  it("a quiz id that does not exist, or is not a number, is 404 too", async () => {
    expect((await call(createRoute.loader, "/create?edit=999999", { as: a })).status).toBe(404);
    expect((await call(createRoute.loader, "/create?edit=abc", { as: a })).status).toBe(404);
  });

  it("cannot be deleted from My Quizzes by another account", async () => {
    const reply = await call(myQuizzesRoute.action, "/my-quizzes", { as: b, form: { intent: "delete", quizId: String(quiz.id) } });
    expect(reply.status).toBe(403);
    expect(await quizRow(quiz.id)).toBeDefined();
  });

  it("cannot be hosted by another account", async () => {
    const hosted = await hostNewGame(db, quiz.id, { userId: b.user.id, clientId: b.clientId });
    expect(hosted.status).toBe("forbidden");
    const reply = await call(myQuizzesRoute.action, "/my-quizzes", { as: b, form: { intent: "host", quizId: String(quiz.id) } });
    expect(reply.status).toBe(403);
    const games = await db.selectFrom("games").select("id").where("quiz_id", "=", quiz.id).execute();
    expect(games).toEqual([]);
  });

  it("does not appear in another account's My Quizzes, and only its owner's", async () => {
    const mine = await call(myQuizzesRoute.loader, "/my-quizzes", { as: a });
    expect(mine.body.quizzes.map((q: { id: number }) => q.id)).toContain(quiz.id);
    const theirs = await call(myQuizzesRoute.loader, "/my-quizzes", { as: b });
    expect(theirs.body.quizzes.map((q: { id: number }) => q.id)).not.toContain(quiz.id);
  });

  it("is not the account's that later uses the owner's browser", async () => {
    const sameBrowser = { ...b, clientId: a.clientId };
    expect((await call(createRoute.loader, `/create?edit=${quiz.id}`, { as: sameBrowser })).status).toBe(404);
    const reply = await call(myQuizzesRoute.action, "/my-quizzes", { as: sameBrowser, form: { intent: "delete", quizId: String(quiz.id) } });
    expect(reply.status).toBe(403);
    expect(await quizRow(quiz.id)).toBeDefined();
  });
});

describe("a public quiz", () => {
  let a: Account;
  let b: Account;
  let quiz: Quiz;

  beforeAll(async () => {
    a = await signUp("pat");
    b = await signUp("sam");
    quiz = await quizOf(a, "Everyone's quiz", true);
  });

  it("can be hosted by another account, from My Quizzes as from the model", async () => {
    const hosted = await hostNewGame(db, quiz.id, { userId: b.user.id, clientId: b.clientId });
    expect(hosted.status).toBe("ok");
    const reply = await call(myQuizzesRoute.action, "/my-quizzes", { as: b, form: { intent: "host", quizId: String(quiz.id) } });
    expect(reply.status).toBe(302);
    const code = /^\/waiting\/([A-Z0-9]{6})\?hosted=1$/.exec(reply.location ?? "")?.[1];
    expect(code, `redirect to a lobby, got ${reply.location}`).toBeTruthy();
    const game = await db.selectFrom("games").selectAll().where("game_code", "=", code!).executeTakeFirstOrThrow();
    expect(game).toMatchObject({ quiz_id: quiz.id, host_id: b.user.id, host_client_id: b.clientId, status: "waiting" });
  });

  it("cannot be edited or deleted by another account", async () => {
    expect((await call(createRoute.loader, `/create?edit=${quiz.id}`, { as: b })).status).toBe(404);
    const post = await call(createRoute.action, `/create?edit=${quiz.id}`, {
      as: b,
      form: editForm("Defaced", [{ text: "?", answers: ["1", "2", "3", "4"], correct: 0 }]),
    });
    expect(post.status).toBe(404);
    const del = await call(myQuizzesRoute.action, "/my-quizzes", { as: b, form: { intent: "delete", quizId: String(quiz.id) } });
    expect(del.status).toBe(403);
    expect(await quizRow(quiz.id)).toMatchObject({ title: "Everyone's quiz", is_public: 1 });
  });
});

describe("the owner", () => {
  let a: Account;

  beforeAll(async () => {
    a = await signUp("olive");
  });

  it("opens the edit form filled in with the quiz as saved", async () => {
    const quiz = await quizOf(a, "To edit", true);
    const reply = await call(createRoute.loader, `/create?edit=${quiz.id}`, { as: a });
    expect(reply.status).toBe(200);
    expect(reply.body.editing).toMatchObject({
      id: quiz.id,
      draft: {
        title: "To edit",
        description: "",
        timeLimit: 20,
        visibility: "public",
        questions: [
          { text: "First?", answers: ["a", "b", "c", "d"], correctAnswerIndex: 0 },
          { text: "Second?", answers: ["a", "b", "c", "d"], correctAnswerIndex: 0 },
        ],
      },
    });
    expect((await call(createRoute.loader, "/create", { as: a })).body).toEqual({ editing: null });
  });

  it("edits: details and questions are replaced in order, and saving goes back to My Quizzes without a new game", async () => {
    const quiz = await quizOf(a, "Before", true);
    const before = await db.selectFrom("questions").select("id").where("quiz_id", "=", quiz.id).orderBy("order").execute();

    const grown = await call(createRoute.action, `/create?edit=${quiz.id}`, {
      as: a,
      form: editForm("  After  ", [
        { text: "New one", answers: ["w", "x", "y", "z"], correct: 3 },
        { text: "New two", answers: ["1", "2", "3", "4"], correct: 1 },
        { text: "New three", answers: ["p", "q", "r", "s"], correct: 2 },
      ]),
    });
    expect(grown).toMatchObject({ status: 302, location: "/my-quizzes?saved=1" });
    expect(await quizRow(quiz.id)).toMatchObject({ title: "After", description: "Edited", time_limit: 60, is_public: 0, creator_id: a.user.id });
    expect(await questionsOf(quiz.id)).toEqual([
      { text: "New one", answers: ["w", "x", "y", "z"], correct_answer_index: 3, order: 0 },
      { text: "New two", answers: ["1", "2", "3", "4"], correct_answer_index: 1, order: 1 },
      { text: "New three", answers: ["p", "q", "r", "s"], correct_answer_index: 2, order: 2 },
    ]);
    // Questions are rewritten in place, so a game that already loaded them keeps valid ids.
    const after = await db.selectFrom("questions").select("id").where("quiz_id", "=", quiz.id).orderBy("order").execute();
    expect(after.slice(0, 2)).toEqual(before);

    const shrunk = await call(createRoute.action, `/create?edit=${quiz.id}`, {
      as: a,
      form: editForm("After", [{ text: "Only one", answers: ["a", "b", "c", "d"], correct: 0 }]),
    });
    expect(shrunk.status).toBe(302);
    expect(await questionsOf(quiz.id)).toEqual([{ text: "Only one", answers: ["a", "b", "c", "d"], correct_answer_index: 0, order: 0 }]);
    expect(await db.selectFrom("games").select("id").where("quiz_id", "=", quiz.id).execute()).toEqual([]);
  });

  it("an invalid edit is refused with the field messages and changes nothing", async () => {
    const quiz = await quizOf(a, "Kept", false);
    const reply = await call(createRoute.action, `/create?edit=${quiz.id}`, {
      as: a,
      form: editForm("   ", [{ text: "", answers: ["a", "b", "c", "d"], correct: 0 }]),
    });
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toMatchObject({ title: "Please give your quiz a title.", "questions.0.text": "Question 1 is empty." });
    expect(await quizRow(quiz.id)).toMatchObject({ title: "Kept" });
    expect((await questionsOf(quiz.id)).map((q) => q.text)).toEqual(["First?", "Second?"]);
  });

  it("deletes a quiz nobody has played with its questions at once", async () => {
    const quiz = await quizOf(a, "Doomed", false);
    const reply = await call(myQuizzesRoute.action, "/my-quizzes", { as: a, form: { intent: "delete", quizId: String(quiz.id) } });
    expect(reply).toMatchObject({ status: 302, location: "/my-quizzes?deleted=1" });
    expect(await quizRow(quiz.id)).toBeUndefined();
    expect(await questionsOf(quiz.id)).toEqual([]);
  });

  it("hides a played quiz at once and keeps its finished games' reports until the last goes", async () => {
    const quiz = await quizOf(a, "Played", false);
    const hosted = await hostNewGame(db, quiz.id, { userId: a.user.id, clientId: a.clientId });
    if (hosted.status !== "ok") throw new Error("not hosted");
    await db.updateTable("games").set({ status: "finished", ended_at: Date.now() }).where("id", "=", hosted.value.id).execute();
    const reply = await call(myQuizzesRoute.action, "/my-quizzes", { as: a, form: { intent: "delete", quizId: String(quiz.id) } });
    expect(reply).toMatchObject({ status: 302, location: "/my-quizzes?deleted=1" });
    expect((await listOwnQuizzes(db, a.user.id)).map((entry) => entry.id)).not.toContain(quiz.id);
    expect((await hostNewGame(db, quiz.id, { userId: a.user.id, clientId: a.clientId })).status).toBe("not-found");
    expect(await purgeDeletedQuizzes(db)).toBe(0);
    expect(await questionsOf(quiz.id)).not.toEqual([]);

    await db.deleteFrom("games").where("id", "=", hosted.value.id).execute();
    expect(await purgeDeletedQuizzes(db)).toBe(1);
    expect(await quizRow(quiz.id)).toBeUndefined();
  });

  it("hides a quiz with an unfinished game at once; the game plays on and keeps its report", async () => {
    const quiz = await quizOf(a, "Being played", true);
    const hosted = await hostNewGame(db, quiz.id, { userId: a.user.id, clientId: a.clientId });
    if (hosted.status !== "ok") throw new Error("not hosted");
    const reply = await call(myQuizzesRoute.action, "/my-quizzes", { as: a, form: { intent: "delete", quizId: String(quiz.id) } });
    expect(reply).toMatchObject({ status: 302, location: "/my-quizzes?deleted=1&playing=1" });
    expect((await listOwnQuizzes(db, a.user.id)).map((entry) => entry.id)).not.toContain(quiz.id);
    expect((await hostNewGame(db, quiz.id, { userId: a.user.id, clientId: a.clientId })).status).toBe("not-found");
    expect((await call(myQuizzesRoute.action, "/my-quizzes", { as: a, form: { intent: "delete", quizId: String(quiz.id) } })).status).toBe(404);

    await db.updateTable("games").set({ status: "finished", ended_at: Date.now() }).where("id", "=", hosted.value.id).execute();
    expect(await purgeDeletedQuizzes(db)).toBe(0);
    expect(await db.selectFrom("games").select("id").where("quiz_id", "=", quiz.id).execute()).toHaveLength(1);
  });

  it("sees its quizzes newest first with question counts", async () => {
    const owner = await signUp("lister");
    const older = await quizOf(owner, "Older", false, ["1?"]);
    const newer = await quizOf(owner, "Newer", true, ["1?", "2?", "3?"]);
    const reply = await call(myQuizzesRoute.loader, "/my-quizzes", { as: owner });
    expect(reply.body.quizzes).toEqual([
      { id: newer.id, title: "Newer", description: "", questionCount: 3, timeLimit: 20, isPublic: true },
      { id: older.id, title: "Older", description: "", questionCount: 1, timeLimit: 20, isPublic: false },
    ]);
    expect((await listOwnQuizzes(db, owner.user.id)).map((q) => q.title)).toEqual(["Newer", "Older"]);
  });

  it("hosts its private quiz from My Quizzes", async () => {
    const quiz = await quizOf(a, "Private night", false);
    const reply = await call(myQuizzesRoute.action, "/my-quizzes", { as: a, form: { intent: "host", quizId: String(quiz.id) } });
    expect(reply.status).toBe(302);
    expect(reply.location).toMatch(/^\/waiting\/[A-Z0-9]{6}\?hosted=1$/);
  });
});

describe("My Quizzes without an account", () => {
  it("sends a visitor with no session to /auth, and lets a guest in", async () => {
    const loader = await call(myQuizzesRoute.loader, "/my-quizzes");
    expect(loader).toMatchObject({ status: 302, location: "/auth?redirectTo=%2Fmy-quizzes" });
    const action = await call(myQuizzesRoute.action, "/my-quizzes", { form: { intent: "delete", quizId: "1" } });
    expect(action.status).toBe(302);
    expect(action.location).toMatch(/^\/auth\?/);

    const guest = await createGuest(db);
    const cookie = (await startSession(context(), new Request("http://localhost/auth"), guest.id)).split(";")[0];
    const asGuest: Account = { user: guest, cookie, clientId: "guest-browser", password: "" };
    const reply = await call(myQuizzesRoute.loader, "/my-quizzes", { as: asGuest });
    expect(reply).toMatchObject({ status: 200, body: { quizzes: [] } });
  });
});

describe("POST /api/quizzes", () => {
  it("makes the signed-in user the owner, whatever creatorId the body claims", async () => {
    const a = await signUp("api");
    const reply = await call(quizApi.action, "/api/quizzes", {
      as: a,
      json: { title: "Via the API", timeLimit: 30, isPublic: false, creatorId: 999 },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.creatorId).toBe(a.user.id);
    expect(await quizRow(reply.body.id)).toMatchObject({ creator_id: a.user.id });

    const other = await signUp("nosy");
    const read = await call(quizByIdApi.loader, `/api/quizzes/${reply.body.id}`, { as: other, params: { id: String(reply.body.id) } });
    expect(read.status).toBe(403);
  });
});

describe("/account", () => {
  it("sends visitors and guests to /auth and shows an account its profile and plan", async () => {
    expect((await call(accountRoute.loader, "/account")).location).toBe("/auth?redirectTo=%2Faccount");
    const guest = await createGuest(db);
    const cookie = (await startSession(context(), new Request("http://localhost/auth"), guest.id)).split(";")[0];
    const asGuest = await call(accountRoute.loader, "/account", { as: { user: guest, cookie, clientId: "g", password: "" } });
    expect(asGuest).toMatchObject({ status: 302, location: "/auth?redirectTo=%2Faccount" });

    const a = await signUp("viewer");
    const reply = await call(accountRoute.loader, "/account", { as: a });
    expect(reply.body).toEqual({
      account: {
        username: a.user.username,
        displayName: null,
        email: a.user.email,
        plan: "Free",
        isFree: true,
        hasPassword: true,
        hasBillingAccount: false,
        language: null,
      },
      remainingQuizzes: 10,
    });
  });

  it("changes the password: the old one no longer logs in, the new one does", async () => {
    const a = await signUp("changer", "old-password");
    const reply = await call(accountRoute.action, "/account", {
      as: a,
      form: { intent: "change-password", currentPassword: "old-password", newPassword: "new-password", confirmPassword: "new-password" },
    });
    expect(reply).toMatchObject({ status: 302, location: "/account?password=changed" });

    await expect(login(context(), loginRequest(a.user.email!, "old-password"))).rejects.toBeInstanceOf(AuthError);
    const { user } = await login(context(), loginRequest(a.user.email!, "new-password"));
    expect(user.id).toBe(a.user.id);
  });

  it("refuses a wrong current password, a short new one and a confirmation that does not match", async () => {
    const a = await signUp("careful", "right-password");
    const attempt = (form: Record<string, string>) => call(accountRoute.action, "/account", { as: a, form: { intent: "change-password", ...form } });

    const wrong = await attempt({ currentPassword: "wrong-password", newPassword: "new-password", confirmPassword: "new-password" });
    expect(wrong).toMatchObject({ status: 400, body: { intent: "change-password", errors: { currentPassword: "Current password is incorrect" } } });

    const missing = await attempt({ currentPassword: "", newPassword: "new-password", confirmPassword: "new-password" });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.currentPassword).toBe("Enter your current password");

    const short = await attempt({ currentPassword: "right-password", newPassword: "12345", confirmPassword: "12345" });
    expect(short.body.errors).toEqual({ newPassword: "Password must be at least 6 characters" });

    const mismatch = await attempt({ currentPassword: "right-password", newPassword: "new-password", confirmPassword: "new-passwort" });
    expect(mismatch.body.errors).toEqual({ confirmPassword: "Passwords don't match" });

    const { user } = await login(context(), loginRequest(a.user.email!, "right-password"));
    expect(user.id).toBe(a.user.id);
  });

  it("deletes the account only when confirmed, with its quizzes and sessions, and signs out", async () => {
    const a = await signUp("leaver");
    // A second browser signed in to the account before the one-session rule saw it (a session row of its own).
    const otherSession = await extraSession(a.user.id);
    const quizzes = [await quizOf(a, "Gone 1", false), await quizOf(a, "Gone 2", true)];
    const played = await hostNewGame(db, quizzes[1].id, { userId: a.user.id, clientId: a.clientId });
    if (played.status !== "ok") throw new Error("not hosted");
    await db.updateTable("games").set({ status: "finished", ended_at: Date.now() }).where("id", "=", played.value.id).execute();
    const bystander = await signUp("stayer");
    const kept = await quizOf(bystander, "Stays", true);

    const unconfirmed = await call(accountRoute.action, "/account", { as: a, form: { intent: "delete-account" } });
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.errors.confirm).toBeTruthy();
    expect(await getUser(context(), new Request("http://localhost/", { headers: { cookie: a.cookie } }))).not.toBeNull();

    const reply = await call(accountRoute.action, "/account", { as: a, form: { intent: "delete-account", confirm: "yes" } });
    expect(reply).toMatchObject({ status: 302, location: "/" });
    expect(reply.setCookie).toMatch(/^qn_session=;.*Max-Age=0/i);

    expect(await db.selectFrom("users").select("id").where("id", "=", a.user.id).executeTakeFirst()).toBeUndefined();
    for (const quiz of quizzes) expect(await quizRow(quiz.id)).toBeUndefined();
    expect(
      await db
        .selectFrom("questions")
        .select("id")
        .where(
          "quiz_id",
          "in",
          quizzes.map((q) => q.id),
        )
        .execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom("games")
        .select("id")
        .where(
          "quiz_id",
          "in",
          quizzes.map((q) => q.id),
        )
        .execute(),
    ).toEqual([]);
    expect(await db.selectFrom("sessions").select("id_hash").where("user_id", "=", a.user.id).execute()).toEqual([]);
    for (const cookie of [a.cookie, otherSession]) {
      expect(await getUser(context(), new Request("http://localhost/", { headers: { cookie } }))).toBeNull();
    }
    expect((await call(accountRoute.loader, "/account", { as: a })).location).toBe("/auth?redirectTo=%2Faccount");
    await expect(login(context(), loginRequest(a.user.email!, a.password))).rejects.toBeInstanceOf(AuthError);

    expect(await quizRow(kept.id)).toBeDefined();
  });
});
