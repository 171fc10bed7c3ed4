import { describe, expect, it } from "vitest";
import { MAX_OPTIONS } from "#app/game/question-kinds";
import { MAX_ROUNDS } from "#app/game/rules";
import { MAX_QUESTIONS, NightDraftSchema } from "#app/schemas/form-schemas";
import { PostedQuizSchema } from "#app/schemas/quiz-form-schema";
import { bodyCapOf, ROUTE_BODIES } from "#app/limits/body-limits";
import englishErrors from "#app/locales/en/errors.json";
import { BODY_REFUSAL_TEXTS, BodyRefusal, jsonDepthExceeds, largestIndexOf, readFormWithin } from "#app/http/request-body.server";

const form = (body: string, contentType = "application/x-www-form-urlencoded") =>
  new Request("http://quiz.test/x", { method: "POST", headers: { "content-type": contentType }, body });

async function refusalOf(promise: Promise<unknown>): Promise<{ status: number; message: string } | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    if (!(error instanceof BodyRefusal)) throw error;
    return { status: error.status, message: error.message };
  }
}

describe("largestIndexOf", () => {
  it.each([
    ["title", -1],
    ["questions[12].text", 12],
    ["questions[3].answers[5]", 5],
    ["rounds.7.quizId", 7],
    ["questions[0004294967294]", 4294967294],
    ["a1[2]", 2],
    ["x[" + "9".repeat(400) + "]", Number.POSITIVE_INFINITY],
  ])("%s gives %d", (name, index) => {
    expect(largestIndexOf(name)).toBe(index);
  });
});

describe("jsonDepthExceeds", () => {
  it("counts arrays and objects, not brackets in strings", () => {
    expect(jsonDepthExceeds('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ text: '[[[[[[[[\\"[[[[' }), 1)).toBe(false);
    expect(jsonDepthExceeds("[".repeat(17) + "]".repeat(17), 16)).toBe(true);
  });
});

describe("readFormWithin", () => {
  const join = ROUTE_BODIES["/join"];

  it("reads a form within its limits, leaving out conform's own fields", async () => {
    const read = await readFormWithin(form("gameCode=ABCDEF&nickname=Ann&__state__=%5B%5B%5B"), join);
    expect([...read]).toEqual([
      ["gameCode", "ABCDEF"],
      ["nickname", "Ann"],
    ]);
  });

  it("refuses each limit with its status and message", async () => {
    expect(await refusalOf(readFormWithin(form(Array.from({ length: 40 }, (_, i) => `f${i}=`).join("&")), join))).toEqual({
      status: 400,
      message: "The form has too many fields.",
    });
    expect(await refusalOf(readFormWithin(form("a=1&".repeat(9)), join))).toEqual({ status: 400, message: "A field of the form is sent too many times." });
    expect((await refusalOf(readFormWithin(form("a[1]=x"), join)))?.status).toBe(400);
    expect((await refusalOf(readFormWithin(form("a=" + "x".repeat(70_000)), join)))?.status).toBe(413);
    expect((await refusalOf(readFormWithin(form("{}", "application/json"), join)))?.status).toBe(415);
  });

  it("takes a list index up to the route's largest", async () => {
    const night = ROUTE_BODIES["/night/new"];
    expect([...(await readFormWithin(form("rounds%5B10%5D.quizId=1"), night))]).toHaveLength(1);
    expect(await refusalOf(readFormWithin(form("rounds%5B11%5D.quizId=1"), night))).toEqual({
      status: 400,
      message: "A field of the form names a list position past what the form can hold.",
    });
  });
});

describe("bodyCapOf", () => {
  it("gives each path its route's size, more only for the editor's multipart", () => {
    expect(bodyCapOf("/join", "application/x-www-form-urlencoded")).toBe(64 * 1024);
    expect(bodyCapOf("/create", "application/x-www-form-urlencoded")).toBe(1024 * 1024);
    expect(bodyCapOf("/create", "multipart/form-data; boundary=x")).toBeGreaterThan(50 * 1024 * 1024);
    expect(bodyCapOf("/Create/", "multipart/form-data; boundary=x")).toBe(bodyCapOf("/create", "multipart/form-data; boundary=x"));
    expect(bodyCapOf("/my-games/12", undefined)).toBe(64 * 1024);
    expect(bodyCapOf("/api/quizzes", "application/json")).toBe(64 * 1024);
    expect(bodyCapOf("/anything-else", "multipart/form-data; boundary=x")).toBe(64 * 1024);
  });

  it("gives a page's single-fetch post (`PATH.data`, `/_root.data` for `/`) its page's size", () => {
    expect(bodyCapOf("/create.data", "application/x-www-form-urlencoded")).toBe(bodyCapOf("/create", "application/x-www-form-urlencoded"));
    expect(bodyCapOf("/create.data", "multipart/form-data; boundary=x")).toBe(bodyCapOf("/create", "multipart/form-data; boundary=x"));
    expect(bodyCapOf("/night/new.data", undefined)).toBe(bodyCapOf("/night/new", undefined));
    expect(bodyCapOf("/_root.data", undefined)).toBe(bodyCapOf("/", undefined));
  });
});

describe("the form schemas' lists", () => {
  /** A list as conform builds it from `name[4294967294]=x`: one element, four billion long. */
  function sparseList(element: unknown): unknown[] {
    const list: unknown[] = [];
    list[4294967294] = element;
    return list;
  }

  it("stop at one past their rule's maximum, whatever length the posted list claims", () => {
    const quiz = PostedQuizSchema.parse({ title: "Quiz", questions: sparseList({ text: "x" }) });
    expect(quiz.draft.questions).toHaveLength(MAX_QUESTIONS + 1);
    const night = NightDraftSchema.parse({ title: "Night", rounds: sparseList({ quizId: "1" }) });
    expect(night.draft.rounds).toHaveLength(MAX_ROUNDS + 1);
    const question = PostedQuizSchema.parse({ questions: [{ answers: sparseList("a"), correctAnswerIndexes: sparseList("1") }] });
    expect(question.draft.questions[0].answers.length).toBeLessThanOrEqual(MAX_OPTIONS);
    expect(question.draft.questions[0].correctAnswerIndexes).toHaveLength(MAX_OPTIONS + 1);
  });
});

describe("the refusals' codes for answers given in front of Remix", () => {
  it("are the codes the errors catalog gives each refusal's words", () => {
    for (const [code, message] of Object.entries(BODY_REFUSAL_TEXTS)) expect(englishErrors[code as keyof typeof englishErrors], code).toBe(message);
  });
});
