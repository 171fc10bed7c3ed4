/**
 * My Quizzes' tools: Duplicate (a private copy for the owner, every question kind and picture
 * kept) posted to the route's action as a browser without JavaScript posts it, and the export the
 * page links to. Route loaders and actions called with real Requests, signed in through real
 * sessions, against a real SQLite file.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection.server";
import { storeImage } from "#app/models/image.server";
import { addQuestion, contentOf, createQuiz, getQuestions, type NewQuestion, type Quiz } from "#app/models/quiz.server";
import { deleteQuiz } from "#app/models/quiz-delete.server";
import { listOwnQuizzes } from "#app/models/quiz-lists.server";
import { createAccount, type User } from "#app/models/user.server";
import * as exportApi from "#app/routes/api.quizzes_.$id.export";
import * as myQuizzesRoute from "#app/routes/my-quizzes";
import { QUIZ_NOT_FOUND } from "#app/game-pages/game-messages";
import { DEFAULT_LIMIT_RULES, type LimitRules } from "#app/limits/rate-limits.server";
import { startSession } from "#app/sessions/session.server";
import { openTempDatabase, testLimits, type TempDatabase } from "./temp-database";

let database: TempDatabase;
let db: DB;

const limits = testLimits();

const context = (overrides: { limits?: ReturnType<typeof testLimits> } = {}) => ({
  db,
  hub: null as any,
  sessionSecret: "my-quizzes-tools-test-secret-0123456789-0123456789",
  clientIp: "127.0.0.1",
  limits: overrides.limits ?? limits,
});

beforeAll(async () => {
  database = await openTempDatabase("my-quizzes-tools");
  db = database.db;
});

afterAll(() => database.remove());

interface Account {
  user: User;
  /** `qn_session=...`, for a Cookie header. */
  cookie: string;
  clientId: string;
}

let accounts = 0;

async function signUp(name: string): Promise<Account> {
  const n = ++accounts;
  const user = await createAccount(db, { username: `${name}${n}`, email: `${name}${n}@example.com`, password: "secret-password" });
  const setCookie = await startSession(context(), new Request("http://localhost/auth"), user.id);
  return { user, cookie: setCookie.split(";")[0], clientId: `browser-${name}-${n}` };
}

type Handler = (args: any) => Promise<unknown>;

interface Reply {
  status: number;
  body: any;
  location: string | null;
  headers: Headers | null;
}

/** Calls a loader or action the way Remix does, thrown Responses included, and unwraps the result. */
async function call(
  handler: Handler,
  url: string,
  init: { as?: Account; form?: Record<string, string>; params?: Record<string, string>; limits?: ReturnType<typeof testLimits> } = {},
): Promise<Reply> {
  const headers = new Headers();
  const cookies = [init.as?.cookie, init.as ? `quiz_client_id=${init.as.clientId}` : null].filter(Boolean);
  if (cookies.length) headers.set("cookie", cookies.join("; "));
  const body = init.form ? new URLSearchParams(init.form) : undefined;
  const request = new Request(`http://localhost${url}`, { method: body ? "POST" : "GET", headers, body });
  let result: unknown;
  try {
    result = await handler({ request, params: init.params ?? {}, context: context({ limits: init.limits }) });
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
    return { status: result.status, body: parsed, location: result.headers.get("location"), headers: result.headers };
  }
  if (result && typeof result === "object" && "init" in result && "data" in result) {
    const wrapped = result as { data: unknown; init: ResponseInit | null };
    return { status: wrapped.init?.status ?? 200, body: wrapped.data, location: null, headers: new Headers(wrapped.init?.headers) };
  }
  return { status: 200, body: result, location: null, headers: null };
}

const duplicate = (as: Account | undefined, quizId: number, limitsOf?: ReturnType<typeof testLimits>) =>
  call(myQuizzesRoute.action, "/my-quizzes", { as, form: { intent: "duplicate", quizId: String(quizId) }, limits: limitsOf });

let pictures = 0;

/** A stored picture of the owner's: a different PNG each call, re-encoded as the editor stores it. */
async function picture(owner: Account): Promise<string> {
  const seed = ++pictures;
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: (seed * 37) % 256, g: (seed * 91) % 256, b: (seed * 53) % 256 } } })
    .png()
    .toBuffer();
  const stored = await storeImage(db, png, { userId: owner.user.id, clientId: null }, 100 * 1024 * 1024);
  if (stored.status !== "ok") throw new Error(`picture not stored: ${JSON.stringify(stored)}`);
  return stored.value.id;
}

/** A quiz with one question of every kind, two of them with pictures, each with its own settings. */
async function quizOfEveryKind(owner: Account, title: string, isPublic: boolean): Promise<Quiz> {
  const quiz = await createQuiz(db, { title, description: "Every kind", timeLimit: 25, isPublic }, { userId: owner.user.id, clientId: owner.clientId });
  const [flag, tower] = [await picture(owner), await picture(owner)];
  const questions: Omit<NewQuestion, "quizId" | "order">[] = [
    { kind: "choice", text: "Whose flag?", answers: ["France", "Italy", "Chad"], correctAnswerIndex: 2, imageId: flag, timeLimit: 40, points: "double" },
    { kind: "trueFalse", text: "The sun is a star.", answers: ["True", "False"], correctAnswerIndex: 0 },
    { kind: "multiSelect", text: "Primes?", answers: ["2", "4", "5", "9"], correctAnswerIndex: -1, correctAnswerIndexes: [0, 2], points: "none" },
    {
      kind: "typeAnswer",
      text: "Which tower?",
      answers: [],
      correctAnswerIndex: -1,
      acceptedAnswers: ["Eiffel Tower", "Eiffel"],
      imageId: tower,
      timeLimit: 60,
    },
    { kind: "closestNumber", text: "Metres tall?", answers: [], correctAnswerIndex: -1, correctNumber: 330 },
    { kind: "poll", text: "Best cheese?", answers: ["Brie", "Comté"], correctAnswerIndex: -1, points: "none" },
  ];
  for (const [order, question] of questions.entries()) await addQuestion(db, { quizId: quiz.id, order, ...question });
  return quiz;
}

async function quizRow(id: number) {
  return db.selectFrom("quizzes").selectAll().where("id", "=", id).executeTakeFirst();
}

async function quizCount(): Promise<number> {
  const { n } = await db
    .selectFrom("quizzes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

describe("Duplicate on My Quizzes", () => {
  let owner: Account;
  let stranger: Account;
  let original: Quiz;

  beforeAll(async () => {
    owner = await signUp("dana");
    stranger = await signUp("eve");
    original = await quizOfEveryKind(owner, "Picture round", true);
  });

  it("makes a private copy for the owner with the same questions (every kind, setting and picture) and comes back to My Quizzes", async () => {
    const reply = await duplicate(owner, original.id);
    expect(reply.status).toBe(302);
    const copyId = Number(/^\/my-quizzes\?duplicated=1&copy=(\d+)$/.exec(reply.location ?? "")?.[1]);
    expect(copyId, `redirect to My Quizzes naming the copy, got ${reply.location}`).toBeGreaterThan(0);
    expect(copyId).not.toBe(original.id);

    expect(await quizRow(copyId)).toMatchObject({
      title: "Copy of Picture round",
      description: "Every kind",
      time_limit: 25,
      is_public: 0,
      creator_id: owner.user.id,
      deleted_at: null,
    });
    const originalQuestions = await getQuestions(db, original.id);
    const copiedQuestions = await getQuestions(db, copyId);
    expect(copiedQuestions.map(contentOf)).toEqual(originalQuestions.map(contentOf));
    expect(copiedQuestions.map((question) => question.kind)).toEqual(["choice", "trueFalse", "multiSelect", "typeAnswer", "closestNumber", "poll"]);
    expect(copiedQuestions.map((question) => question.imageId).filter(Boolean)).toHaveLength(2);
    expect(copiedQuestions.map((question) => question.order)).toEqual([0, 1, 2, 3, 4, 5]);
    // New rows: editing the copy never touches the original.
    const originalIds = new Set(originalQuestions.map((question) => question.id));
    expect(copiedQuestions.some((question) => originalIds.has(question.id))).toBe(false);

    // The original is as it was.
    expect(await quizRow(original.id)).toMatchObject({ title: "Picture round", is_public: 1, deleted_at: null });
    expect((await getQuestions(db, original.id)).map(contentOf)).toEqual(originalQuestions.map(contentOf));

    // My Quizzes lists it, newest first, with its question count.
    const page = await call(myQuizzesRoute.loader, `/my-quizzes?duplicated=1&copy=${copyId}`, { as: owner });
    expect(page.body.quizzes[0]).toMatchObject({ id: copyId, title: "Copy of Picture round", questionCount: 6, isPublic: false });
  });

  it("copies a copy again, and a quiz without questions", async () => {
    const first = await duplicate(owner, original.id);
    const copyId = Number(new URL(first.location!, "http://localhost").searchParams.get("copy"));
    const again = await duplicate(owner, copyId);
    expect(again.status).toBe(302);
    const againId = Number(new URL(again.location!, "http://localhost").searchParams.get("copy"));
    expect(await quizRow(againId)).toMatchObject({ title: "Copy of Copy of Picture round", is_public: 0 });
    expect((await getQuestions(db, againId)).map(contentOf)).toEqual((await getQuestions(db, original.id)).map(contentOf));

    const empty = await createQuiz(db, { title: "Empty", description: "", timeLimit: 20, isPublic: false }, { userId: owner.user.id });
    const emptyCopy = await duplicate(owner, empty.id);
    expect(emptyCopy.status).toBe(302);
    const emptyCopyId = Number(new URL(emptyCopy.location!, "http://localhost").searchParams.get("copy"));
    expect(await quizRow(emptyCopyId)).toMatchObject({ title: "Copy of Empty" });
    expect(await getQuestions(db, emptyCopyId)).toEqual([]);
  });

  it("is 404 for someone else's quiz, public or private, and copies nothing", async () => {
    const secret = await quizOfEveryKind(owner, "Secret round", false);
    const before = await quizCount();
    for (const quiz of [original, secret]) {
      const reply = await duplicate(stranger, quiz.id);
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ error: QUIZ_NOT_FOUND });
      expect(reply.location).toBeNull();
    }
    expect(await quizCount()).toBe(before);
    expect(await listOwnQuizzes(db, stranger.user.id)).toEqual([]);
  });

  it("is 404 for another account in the owner's own browser (its client id), and copies nothing", async () => {
    const before = await quizCount();
    const reply = await duplicate({ ...stranger, clientId: owner.clientId }, original.id);
    expect(reply.status).toBe(404);
    expect(await quizCount()).toBe(before);
  });

  it("is 404 for a quiz that does not exist or was deleted", async () => {
    const gone = await createQuiz(db, { title: "Gone", description: "", timeLimit: 20, isPublic: false }, { userId: owner.user.id });
    expect((await deleteQuiz(db, gone.id, { userId: owner.user.id })).status).toBe("ok");
    const before = await quizCount();
    expect((await duplicate(owner, gone.id)).status).toBe(404);
    expect((await duplicate(owner, 999_999)).status).toBe(404);
    expect(await quizCount()).toBe(before);
  });

  it("refuses a post without a quiz id, and sends a visitor who is not signed in to sign in", async () => {
    const noId = await call(myQuizzesRoute.action, "/my-quizzes", { as: owner, form: { intent: "duplicate" } });
    expect(noId.status).toBe(400);
    const before = await quizCount();
    const anonymous = await duplicate(undefined, original.id);
    expect(anonymous).toMatchObject({ status: 302, location: "/auth?redirectTo=%2Fmy-quizzes" });
    expect(await quizCount()).toBe(before);
  });

  it("counts against the quiz creation limit: over it, 429 with Retry-After and nothing copied", async () => {
    const rules: Partial<LimitRules> = { quiz: { ...DEFAULT_LIMIT_RULES.quiz, points: 1 } };
    const tight = testLimits(rules);
    try {
      expect((await duplicate(owner, original.id, tight)).status).toBe(302);
      const before = await quizCount();
      const refused = await duplicate(owner, original.id, tight);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatch(/^Too many quizzes were created from your network\./);
      expect(Number(refused.headers?.get("Retry-After"))).toBeGreaterThan(0);
      expect(await quizCount()).toBe(before);
    } finally {
      tight.close();
    }
  });
});

describe("Export from My Quizzes", () => {
  let owner: Account;
  let stranger: Account;
  let quiz: Quiz;

  beforeAll(async () => {
    owner = await signUp("fay");
    stranger = await signUp("gus");
    quiz = await quizOfEveryKind(owner, "Exported round", false);
  });

  const exportAs = (as: Account, format: string) =>
    call(exportApi.loader, `/api/quizzes/${quiz.id}/export?format=${format}`, { as, params: { id: String(quiz.id) } });

  it("the JSON link gives the owner the quiz file with its pictures, as an attachment", async () => {
    const reply = await exportAs(owner, "json");
    expect(reply.status).toBe(200);
    expect(reply.headers?.get("content-disposition")).toMatch(/^attachment; filename=".+\.quiz\.json"$/);
    expect(reply.body).toMatchObject({ format: "quiz-night.quiz", title: "Exported round" });
    expect(reply.body.questions).toHaveLength(6);
    expect(JSON.stringify(reply.body)).toContain("Eiffel Tower");
    const withPictures = reply.body.questions.filter((question: { image?: { data?: string } | null }) => question.image?.data);
    expect(withPictures.map((question: { text: string }) => question.text)).toEqual(["Whose flag?", "Which tower?"]);
  });

  it("the CSV and Excel links give the owner a spreadsheet", async () => {
    const csv = await exportAs(owner, "csv");
    expect(csv.status).toBe(200);
    expect(csv.headers?.get("content-disposition")).toMatch(/^attachment; filename=".+\.csv"$/);
    expect(String(csv.body)).toContain("Whose flag?");
    // Pictures travel only in the JSON file.
    expect(String(csv.body)).not.toMatch(/[0-9a-f]{64}|base64/);
    const xlsx = await exportAs(owner, "xlsx");
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers?.get("content-disposition")).toMatch(/^attachment; filename=".+\.xlsx"$/);
  });

  it("someone else gets no file", async () => {
    for (const format of ["json", "csv", "xlsx"]) {
      const reply = await exportAs(stranger, format);
      expect(reply.status).toBe(403);
      expect(reply.headers?.get("content-disposition")).toBeNull();
      expect(JSON.stringify(reply.body)).not.toContain("Whose flag?");
    }
  });
});
