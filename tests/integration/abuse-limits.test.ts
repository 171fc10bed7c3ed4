/**
 * Cost and abuse limits on everything that creates something or spends the operator's money
 * (issue 13, items 2 and 4), against the real server: each answers 429 with its message and a
 * Retry-After, from a script with no Origin as from a browser, and a limit survives a restart.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "#tests/fakes/openai";
import { DEFAULT_LIMITS } from "../../server/server-limits";
import { SAMPLE_QUESTIONS, signInAs, startTestServer, type TestServer } from "./harness";

let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
});

afterAll(() => fake.close());

/** A form post as curl sends it: no Origin, no cookie unless given. */
async function postForm(server: TestServer, pathname: string, form: Record<string, string>, cookie?: string) {
  const response = await fetch(server.url + pathname, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(form),
    redirect: "manual",
  });
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    text: await response.text(),
    setCookie: response.headers.get("set-cookie"),
  };
}

function expectRetryAfter(value: string | null, atMostSeconds: number): void {
  expect(Number(value)).toBeGreaterThan(0);
  expect(Number(value)).toBeLessThanOrEqual(atMostSeconds);
}

describe("guests and registrations", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it(`mints at most ${DEFAULT_LIMITS.guestsPerIpPerHour} guests an hour from one address, then 429 with Retry-After`, async () => {
    for (let i = 0; i < DEFAULT_LIMITS.guestsPerIpPerHour; i++) {
      const guest = await postForm(server, "/auth", { intent: "guest" });
      expect(guest.status).toBe(302);
      expect(guest.setCookie).toMatch(/^qn_session=/);
    }
    const refused = await postForm(server, "/auth", { intent: "guest" });
    expect(refused.status).toBe(429);
    expectRetryAfter(refused.retryAfter, 3600);
    expect(refused.text).toContain("Too many guest sessions were started from your network. Please try again in");
    expect(refused.setCookie).toBeNull();
    const guests = await server.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("is_guest", "=", 1)
      .executeTakeFirstOrThrow();
    expect(Number(guests.n)).toBe(DEFAULT_LIMITS.guestsPerIpPerHour);
  });

  it(`registers at most ${DEFAULT_LIMITS.registrationsPerIpPerHour} accounts an hour from one address`, async () => {
    const form = (n: number) => ({
      intent: "register",
      username: `maker${n}`,
      email: `maker${n}@example.com`,
      password: "secret-password",
      confirmPassword: "secret-password",
    });
    for (let n = 0; n < DEFAULT_LIMITS.registrationsPerIpPerHour; n++) expect((await postForm(server, "/auth", form(n))).status).toBe(302);
    const refused = await postForm(server, "/auth", form(99));
    expect(refused.status).toBe(429);
    expectRetryAfter(refused.retryAfter, 3600);
    expect(refused.text).toContain("Too many accounts were registered from your network.");
    expect(await server.db.selectFrom("users").select("id").where("username", "=", "maker99").executeTakeFirst()).toBeUndefined();
  });
});

describe("AI generation", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      ai: { apiKey: "test-key", baseURL: fake.baseURL, model: "test-model", timeoutMs: 5000 },
      limits: { aiQuizzesPerIpPerHour: 4, aiQuizzesPerDay: 6 },
      trustProxy: ["127.0.0.1"],
    });
  });
  afterAll(() => server.stop());

  const body = (topic: string) => ({ title: "", description: `Quiz about ${topic}`, topic, difficulty: "easy", questionCount: 3, timeLimit: 20 });

  async function generateAs(guest: Awaited<ReturnType<typeof signInAs>>, topic: string, address: string) {
    return server.api("/api/generate-quiz", { body: body(topic), clientId: guest.clientId, headers: { cookie: guest.cookie, "x-forwarded-for": address } });
  }

  it("holds fresh guests from one address to its hourly limit, and the whole server to AI_DAILY_LIMIT, whatever the quotas left", async () => {
    const calls = () => fake.requests.filter((request) => request.body.messages.some((message) => message.content.includes("Limit topic"))).length;
    // Every guest still has all 5 of its own AI quizzes: the address and the server are what run out.
    for (let i = 0; i < 4; i++) expect((await generateAs(await signInAs(server, "guest"), `Limit topic ${i}`, "203.0.113.7")).status).toBe(201);
    const refused = await generateAs(await signInAs(server, "guest"), "Limit topic 4", "203.0.113.7");
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/^Too many AI quizzes were requested from your network\. Please try again in \d+ minutes?\.$/);
    expect(refused.body).toMatchObject({ code: "LIMIT_AI_ADDRESS", values: { wait: expect.stringMatching(/^\d+ minutes?$/) } });
    expect(calls()).toBe(4);

    for (let i = 5; i < 7; i++) expect((await generateAs(await signInAs(server, "guest"), `Limit topic ${i}`, `198.51.100.${i}`)).status).toBe(201);
    const overall = await generateAs(await signInAs(server, "guest"), "Limit topic 7", "198.51.100.99");
    expect(overall.status).toBe(429);
    expect(overall.body.error).toMatch(/^This server has generated all the AI quizzes its operator allows today\./);
    expect(overall.body).toMatchObject({ code: "LIMIT_AI_SERVER", values: { wait: expect.stringMatching(/^\d+ (minutes?|hours?)$/) } });
    expect(calls()).toBe(6);
  });

  it("counts a generation that failed: the model was paid for all the same", async () => {
    const other = await startTestServer({
      ai: { apiKey: "test-key", baseURL: fake.baseURL, model: "test-model", timeoutMs: 5000 },
      limits: { aiQuizzesPerIpPerHour: 2 },
    });
    try {
      const guest = await signInAs(other, "guest");
      const failing = { ...body("[error-500] sink"), topic: "[error-500] sink" };
      for (let i = 0; i < 2; i++) {
        expect((await other.api("/api/generate-quiz", { body: failing, clientId: guest.clientId, headers: { cookie: guest.cookie } })).status).toBe(502);
      }
      const third = await other.api("/api/generate-quiz", { body: body("Fine now"), clientId: guest.clientId, headers: { cookie: guest.cookie } });
      expect(third.status).toBe(429);
    } finally {
      await other.stop();
    }
  });
});

describe("quizzes, questions and games", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ limits: { quizzesPerIpPerHour: 5, questionsPerIpPerHour: 8, gamesPerIpPerHour: 4 } });
  });
  afterAll(() => server.stop());

  it("each has its own hourly limit per address, through the API and the forms alike, and a refusal creates nothing", async () => {
    const owner = "limited-owner";
    const quizzes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const quiz = await server.api("/api/quizzes", { body: { title: `Q${i}`, timeLimit: 20, isPublic: true }, clientId: owner });
      expect(quiz.status).toBe(201);
      quizzes.push(quiz.body.id);
    }
    const sixth = await fetch(`${server.url}/api/quizzes`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-client-id": owner },
      body: JSON.stringify({ title: "Too many", timeLimit: 20 }),
    });
    expect(sixth.status).toBe(429);
    expectRetryAfter(sixth.headers.get("retry-after"), 3600);
    // The wait is a value of its own, for any client to say the refusal in its language.
    const refusal = await sixth.json();
    expect(refusal).toEqual({
      error: expect.stringMatching(/^Too many quizzes were created from your network\. Please try again in \d+ minutes?\.$/),
      code: "LIMIT_QUIZZES",
      values: { wait: expect.stringMatching(/^\d+ minutes?$/) },
    });
    expect(refusal.error).toBe(`Too many quizzes were created from your network. Please try again in ${refusal.values.wait}.`);

    for (const [order, question] of [...SAMPLE_QUESTIONS, ...SAMPLE_QUESTIONS, ...SAMPLE_QUESTIONS].slice(0, 8).entries()) {
      expect((await server.api("/api/questions", { body: { ...question, quizId: quizzes[0], order }, clientId: owner })).status).toBe(201);
    }
    const ninth = await server.api("/api/questions", { body: { ...SAMPLE_QUESTIONS[0], quizId: quizzes[0], order: 8 }, clientId: owner });
    expect(ninth.status).toBe(429);
    expect(ninth.body.error).toMatch(/^Too many questions were added from your network\./);
    expect(ninth.body).toMatchObject({ code: "LIMIT_QUESTIONS", values: { wait: expect.stringMatching(/^\d+ minutes?$/) } });

    for (let i = 0; i < 4; i++) expect((await server.api("/api/games", { body: { quizId: quizzes[0] }, clientId: owner })).status).toBe(201);
    const fifth = await server.api("/api/games", { body: { quizId: quizzes[0] }, clientId: owner });
    expect(fifth.status).toBe(429);
    expect(fifth.body.error).toMatch(/^Too many games were opened from your network\./);
    expect(fifth.body).toMatchObject({ code: "LIMIT_GAMES", values: { wait: expect.stringMatching(/^\d+ minutes?$/) } });
    // The host form opens games too: the same limit.
    const hosted = await postForm(server, "/host?index", { quizId: String(quizzes[1]), hostName: "Sam" }, `quiz_client_id=${owner}`);
    expect(hosted.status).toBe(429);
    expect(hosted.text).toContain("Too many games were opened from your network.");

    const counts = await server.db
      .selectFrom("games")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("quiz_id", "in", quizzes)
      .executeTakeFirstOrThrow();
    expect(Number(counts.n)).toBe(4);
  });

  it("keeps its count across a restart (the counts are in a file beside the database)", async () => {
    const first = await startTestServer({ limits: { quizzesPerIpPerHour: 2 } });
    const databasePath = first.databasePath;
    for (let i = 0; i < 2; i++) expect((await first.api("/api/quizzes", { body: { title: `R${i}`, timeLimit: 20 }, clientId: "restarts" })).status).toBe(201);
    await first.close();
    const second = await startTestServer({ databasePath, limits: { quizzesPerIpPerHour: 2 } });
    try {
      expect((await second.api("/api/quizzes", { body: { title: "R2", timeLimit: 20 }, clientId: "restarts" })).status).toBe(429);
    } finally {
      await second.stop();
      fs.rmSync(path.dirname(databasePath), { recursive: true, force: true });
    }
  });

  it("hold a signed-in account to its address's limits too", async () => {
    const user = await signInAs(server);
    const quiz = await server.api("/api/quizzes", { body: { title: "Still limited", timeLimit: 20 }, headers: { cookie: user.cookie } });
    expect(quiz.status).toBe(429);
  });
});
