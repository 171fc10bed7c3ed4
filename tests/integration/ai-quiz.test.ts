/**
 * AI quiz generation against the real server, a real SQLite file and the real `openai` SDK, which
 * talks to a local stand-in for an OpenAI-compatible server (tests/fakes/openai.ts).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "#tests/fakes/openai";
import { signInAs, startTestServer, TestClient, type SignedIn, type TestServer } from "./harness";

const TIMEOUT_MS = 2000;

let fake: FakeOpenAI;
let server: TestServer;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer({ ai: { apiKey: "test-key", baseURL: fake.baseURL, model: "test-model", timeoutMs: TIMEOUT_MS } });
});

afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

type Caller = SignedIn;
const signIn = (target: TestServer, kind: "user" | "guest", tier = "free") => signInAs(target, kind, tier);

function generate(caller: Caller | null, body: Record<string, unknown>, target: TestServer = server) {
  return target.api("/api/generate-quiz", {
    body: { description: `Quiz about ${body.topic}`, ...body },
    clientId: caller?.clientId,
    headers: caller ? { cookie: caller.cookie } : {},
  });
}

async function remaining(caller: Caller): Promise<number> {
  const response = await server.api("/api/auth/quiz-limit", { headers: { cookie: caller.cookie } });
  expect(response.status).toBe(200);
  return response.body.remainingQuizzes;
}

async function quizCount(caller: Caller): Promise<number> {
  const row = await server.db
    .selectFrom("quizzes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("creator_id", "=", caller.user.id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page's HTML without the comments React puts between adjacent text parts. */
async function pageText(response: Response): Promise<string> {
  return (await response.text()).replaceAll("<!-- -->", "");
}

const requestsFor = (topic: string) =>
  fake.requests.filter((request) => request.body.messages.some((message) => message.content.includes(JSON.stringify(topic))));

describe("POST /api/generate-quiz", () => {
  it("generates a quiz, stores it for the caller, opens a game with the caller's browser as host, and spends one AI quiz", async () => {
    const caller = await signIn(server, "user");
    expect(await remaining(caller)).toBe(10);

    const response = await generate(caller, { title: "", topic: "Volcanoes", difficulty: "medium", kinds: "choice", questionCount: 5, timeLimit: 25 });
    expect(response.status).toBe(201);
    const { quiz, questions, gameSession } = response.body;
    expect(quiz).toMatchObject({
      title: "Intermediate Volcanoes Quiz",
      description: "Quiz about Volcanoes",
      timeLimit: 25,
      isPublic: false,
      creatorId: caller.user.id,
    });
    expect(questions).toHaveLength(5);
    for (const [order, question] of questions.entries()) {
      expect(question).toMatchObject({ quizId: quiz.id, order, kind: "choice", text: `Volcanoes question ${order + 1}?` });
      expect(question.answers).toHaveLength(4);
      expect(question.answers[question.correctAnswerIndex]).toBe(`Right ${order + 1}`);
    }
    expect(gameSession).toMatchObject({ gameCode: expect.stringMatching(/^[A-Z0-9]{6}$/), status: "waiting", quizId: quiz.id, timeLimit: 25 });
    const game = await server.db.selectFrom("games").selectAll().where("game_code", "=", gameSession.gameCode).executeTakeFirstOrThrow();
    expect(game.host_client_id).toBe(caller.clientId);
    expect(await remaining(caller)).toBe(9);

    // What the SDK sent: the configured model and key, and a strict JSON schema for exactly 5 multiple-choice questions.
    const [sent] = requestsFor("Volcanoes");
    expect(sent.authorization).toBe("Bearer test-key");
    expect(sent.body.model).toBe("test-model");
    expect(sent.body.response_format?.type).toBe("json_schema");
    expect(sent.body.response_format?.json_schema?.strict).toBe(true);
    expect(sent.body.response_format?.json_schema?.schema.properties.questions).toMatchObject({ minItems: 5, maxItems: 5 });
    expect(sent.body.response_format?.json_schema?.schema.properties.questions.items.properties.kind.enum).toEqual(["choice"]);
    expect(sent.body.messages.find((message) => message.role === "user")?.content).toContain("medium");

    // The generated quiz plays: the host starts it and a player gets its first question.
    // The game is the account's: the host's socket comes from the signed-in browser (docs/decisions/0044).
    const host = await TestClient.connect(server, caller.clientId, { cookie: caller.cookie });
    await host.joinAsHost(gameSession.gameCode);
    const player = await TestClient.connect(server);
    await player.joinAsPlayer(gameSession.gameCode, "Ada");
    host.send("START_GAME", { gameCode: gameSession.gameCode });
    const started = await player.next("QUESTION_STARTED");
    expect(JSON.stringify(started)).toContain("Volcanoes question 1?");
    await Promise.all([host.close(), player.close()]);
  });

  it("keeps a given title and description and defaults the rest (medium, 5 questions, 20 seconds)", async () => {
    const caller = await signIn(server, "user");
    const response = await server.api("/api/generate-quiz", {
      body: { title: "  Friday Night Rocks ", description: "For the club", topic: "Geology" },
      clientId: caller.clientId,
      headers: { cookie: caller.cookie },
    });
    expect(response.status).toBe(201);
    expect(response.body.quiz).toMatchObject({ title: "Friday Night Rocks", description: "For the club", timeLimit: 20 });
    expect(response.body.questions).toHaveLength(5);
    expect(requestsFor("Geology")[0].body.messages[1].content).toContain("medium");
  });

  it("asks the model for the quiz in the chosen language, English when none is given", async () => {
    const caller = await signIn(server, "user");
    const topic = `Volcanes ${randomUUID()}`;
    const response = await server.api("/api/generate-quiz", {
      body: { topic, language: "es", kinds: "choice" },
      clientId: caller.clientId,
      headers: { cookie: caller.cookie },
    });
    expect(response.status).toBe(201);
    const [sent] = requestsFor(topic);
    const prompt = sent.body.messages.find((message) => message.role === "user")?.content;
    expect(prompt).toContain("Write every question and answer in Spanish.");
    // The suggested title and description are the quiz's words, so they are in its language too.
    expect(response.body.quiz).toMatchObject({ title: `Cuestionario de ${topic} (nivel intermedio)`, description: `Cuestionario sobre ${topic}` });

    const english = `Volcanoes ${randomUUID()}`;
    expect((await server.api("/api/generate-quiz", { body: { topic: english }, clientId: caller.clientId, headers: { cookie: caller.cookie } })).status).toBe(
      201,
    );
    expect(requestsFor(english)[0].body.messages.find((message) => message.role === "user")?.content).toContain("Write every question and answer in English.");
  });

  it("refuses a language it does not write in, naming the choices, and calls nothing", async () => {
    const caller = await signIn(server, "user");
    const before = fake.requests.length;
    const response = await generate(caller, { topic: "Vulcani", language: "it" });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: "The quiz language must be en, de, es or fr.", code: "AI_LANGUAGE_CHOICE" });
    expect(response.body.fieldErrors.language).toEqual(["The quiz language must be en, de, es or fr."]);
    expect(fake.requests.length).toBe(before);
  });

  it("shuffles answer positions so the right answer is not always where the model put it", async () => {
    const caller = await signIn(server, "user");
    const response = await generate(caller, { topic: "Shuffle check", difficulty: "hard", kinds: "choice", questionCount: 15, timeLimit: 60 });
    expect(response.status).toBe(201);
    const questions: { answers: string[]; correctAnswerIndex: number }[] = response.body.questions;
    expect(questions).toHaveLength(15);
    questions.forEach((question, i) => expect(question.answers[question.correctAnswerIndex]).toBe(`Right ${i + 1}`));
    // The fake always puts the right answer first; 15 questions all left there would happen 1 time in 4^15.
    expect(new Set(questions.map((question) => question.correctAnswerIndex)).size).toBeGreaterThan(1);
    expect(response.body.quiz.title).toBe("Expert Shuffle check Quiz");
  });

  it("writes a mix of kinds by default, each stored and played in its own shape", async () => {
    const caller = await signIn(server, "user");
    const topic = `Mixed bag ${randomUUID()}`;
    const response = await generate(caller, { topic, questionCount: 6 });
    expect(response.status).toBe(201);
    const questions: Record<string, unknown>[] = response.body.questions;
    // The fake goes through the kinds the schema lists, in order.
    expect(questions.map((question) => question.kind)).toEqual(["choice", "trueFalse", "multiSelect", "typeAnswer", "closestNumber", "poll"]);
    const [first, trueFalse, multi, typed, number, poll] = questions;
    expect((first.answers as string[])[first.correctAnswerIndex as number]).toBe("Right 1");
    expect(trueFalse).toMatchObject({ answers: ["True", "False"], correctAnswerIndex: 0, correctAnswerIndexes: [0] });
    expect([...(multi.correctAnswerIndexes as number[])].map((index) => (multi.answers as string[])[index]).sort()).toEqual(["Also right 3", "Right 3"]);
    expect(typed).toMatchObject({ answers: [], acceptedAnswers: ["Right 4", "Right number 4"], correctNumber: null });
    expect(number).toMatchObject({ answers: [], acceptedAnswers: [], correctNumber: 1905 });
    expect(poll).toMatchObject({ answers: ["Option A6", "Option B6", "Option C6"], correctAnswerIndexes: [], points: "none" });
    const stored = await server.db.selectFrom("questions").select("kind").where("quiz_id", "=", response.body.quiz.id).orderBy("order").execute();
    expect(stored.map((row) => row.kind)).toEqual(["choice", "trueFalse", "multiSelect", "typeAnswer", "closestNumber", "poll"]);

    // The request listed every kind and asked for at least two of them.
    const [sent] = requestsFor(topic);
    expect(sent.body.response_format?.json_schema?.schema.properties.questions.items.properties.kind.enum).toEqual([
      "choice",
      "trueFalse",
      "multiSelect",
      "typeAnswer",
      "closestNumber",
      "poll",
    ]);
    expect(sent.body.messages[1].content).toContain("Use at least 2 different kinds");
  });

  it("accepts a mixed quiz that came back with one kind", async () => {
    const caller = await signIn(server, "user");
    const topic = `Monotone [one-kind] ${randomUUID()}`;
    const response = await generate(caller, { topic, kinds: "mixed", questionCount: 4 });
    expect(response.status).toBe(201);
    expect(response.body.questions.map((question: { kind: string }) => question.kind)).toEqual(["choice", "choice", "choice", "choice"]);
    expect(requestsFor(topic)).toHaveLength(1);
  });

  it("asks for one kind only when one is chosen, and refuses a reply of another kind", async () => {
    const caller = await signIn(server, "user");
    const response = await generate(caller, { topic: `Numbers ${randomUUID()}`, kinds: "closestNumber", questionCount: 3 });
    expect(response.status).toBe(201);
    expect(response.body.questions.map((question: { kind: string }) => question.kind)).toEqual(["closestNumber", "closestNumber", "closestNumber"]);

    const topic = `Statements [wrong-kind] ${randomUUID()}`;
    const refused = await generate(caller, { topic, kinds: "trueFalse", questionCount: 3 });
    expect(refused.status).toBe(502);
    // The host is told how many were usable, in words the errors catalog has; the model's retry is told which were dropped and why.
    expect(refused.body.error).toContain("(it had 0 usable questions instead of 3)");
    expect(refused.body).toMatchObject({ code: "AI_UNUSABLE", values: { reason: "it had 0 usable questions instead of 3" } });
    expect(requestsFor(topic)).toHaveLength(2);
    expect(requestsFor(topic)[1].body.messages.at(-1)?.content).toContain(
      "dropped a multiple choice question where only true or false questions were asked for",
    );
    expect(await remaining(caller)).toBe(9);
  });

  it("refuses a signed-out caller with 401 and calls nothing", async () => {
    const before = fake.requests.length;
    const response = await generate(null, { topic: "Anything" });
    expect(response.status).toBe(401);
    expect(response.body.error).toBe("Sign in or continue as a guest to generate AI quizzes.");
    expect(fake.requests.length).toBe(before);
  });

  it.each([
    [{ topic: "   " }, "topic", "Please describe what you want your quiz to be about."],
    [{ topic: "Cats", questionCount: 2 }, "questionCount", "The number of questions must be a whole number from 3 to 15."],
    [{ topic: "Cats", questionCount: 16 }, "questionCount", "The number of questions must be a whole number from 3 to 15."],
    [{ topic: "Cats", timeLimit: 12 }, "timeLimit", "The time per question must be 10 to 60 in steps of 5."],
    [{ topic: "Cats", timeLimit: 65 }, "timeLimit", "The time per question must be 10 to 60 in steps of 5."],
    [{ topic: "Cats", difficulty: "insane" }, "difficulty", "Choose easy, medium or hard."],
    [
      { topic: "Cats", kinds: "essay" },
      "kinds",
      'Question kinds must be one of mixed, choice, trueFalse, multiSelect, typeAnswer, closestNumber, poll ("mixed" for a mix of kinds).',
    ],
  ])("refuses %j with a 400 naming the field, spending nothing", async (body, field, message) => {
    const caller = await signIn(server, "user");
    const before = fake.requests.length;
    const response = await generate(caller, body);
    expect(response.status).toBe(400);
    expect(response.body.fieldErrors[field]).toEqual([message]);
    expect(fake.requests.length).toBe(before);
    expect(await remaining(caller)).toBe(10);
  });

  it("asks once more after an unusable reply, telling the model what was wrong", async () => {
    const caller = await signIn(server, "user");
    const topic = `Rivers [malformed-once] ${randomUUID()}`;
    const response = await generate(caller, { topic, questionCount: 4 });
    expect(response.status).toBe(201);
    expect(response.body.questions).toHaveLength(4);
    const sent = requestsFor(topic);
    expect(sent).toHaveLength(2);
    const retry = sent[1].body.messages;
    expect(retry.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(retry[3].content).toContain("not valid JSON");
    expect(await remaining(caller)).toBe(9);
  });

  it.each([
    ["[malformed]", 502, /did not return a usable quiz \(the reply was not valid JSON\)/, 2],
    ["[duplicates]", 502, /did not return a usable quiz \(it had 1 usable question instead of 5\)\./, 2],
    ["[error-500]", 502, /The AI service had a problem \(HTTP 500\)/, 2],
    ["[hang-up]", 502, /^Could not reach the AI service\. Please try again later\.$/, 2],
    ["[refuse]", 422, /declined to write a quiz about this topic/, 1],
  ])("fails clearly on %s (HTTP %i), spending nothing and storing nothing", async (marker, status, message, calls) => {
    const caller = await signIn(server, "user");
    const topic = `Bad ${marker} ${randomUUID()}`;
    const response = await generate(caller, { topic });
    expect(response.status).toBe(status);
    expect(response.body.error).toMatch(message);
    // The host's page says it in its language: the code, and the reason as a value that is itself a text of the catalog.
    if (marker === "[malformed]") expect(response.body).toMatchObject({ code: "AI_UNUSABLE", values: { reason: "the reply was not valid JSON" } });
    if (marker === "[duplicates]") expect(response.body).toMatchObject({ code: "AI_UNUSABLE", values: { reason: "it had 1 usable question instead of 5" } });
    if (marker === "[hang-up]") expect(response.body).toMatchObject({ code: "AI_UNREACHABLE" });
    // [error-500] and [hang-up]: the SDK's one retry; the others: our retry of an unusable reply (none after a refusal).
    expect(requestsFor(topic)).toHaveLength(calls);
    expect(await remaining(caller)).toBe(10);
    expect(await quizCount(caller)).toBe(0);
  });

  it("times out after the configured limit with a clear message, and runs one generation per user at a time", async () => {
    const caller = await signIn(server, "user");
    const topic = `Glaciers [slow] ${randomUUID()}`;
    const started = Date.now();
    const slow = generate(caller, { topic });
    await expect.poll(() => requestsFor(topic).length).toBe(1);
    const second = await generate(caller, { topic: "Meanwhile" });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe("Your previous quiz is still being generated. Please wait for it to finish.");

    const response = await slow;
    expect(response.status).toBe(504);
    expect(response.body.error).toBe("The AI service did not answer within 2 seconds. Please try again, perhaps with fewer questions.");
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(await remaining(caller)).toBe(10);
    expect(await quizCount(caller)).toBe(0);
  });
});

describe("AI quiz quotas", () => {
  it("gives a guest 5 in total, then answers 429 naming the limit and the way to more", async () => {
    const guest = await signIn(server, "guest");
    expect(await remaining(guest)).toBe(5);
    for (let i = 0; i < 5; i++) expect((await generate(guest, { topic: `Guest topic ${i}`, questionCount: 3 })).status).toBe(201);
    expect(await remaining(guest)).toBe(0);

    const before = fake.requests.length;
    const refused = await generate(guest, { topic: "One more" });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toContain("Guests can generate 5 AI quizzes");
    expect(refused.body.error).toContain("Upgrade Plan (/subscription)");
    expect(refused.body).toMatchObject({ code: "AI_QUOTA_GUEST", values: { limit: 5, daily: 10 } });
    expect(fake.requests.length).toBe(before);

    // A guest's allowance is for all time, not per day.
    await server.db
      .updateTable("ai_generations")
      .set({ created_at: Date.now() - 3 * 86_400_000 })
      .where("user_id", "=", guest.user.id)
      .execute();
    expect(await remaining(guest)).toBe(0);
  });

  it("gives a free account 10 a day, resetting at midnight UTC", async () => {
    const caller = await signIn(server, "user");
    const startOfDay = new Date();
    startOfDay.setUTCHours(0, 0, 0, 0);
    // Nine used today, and plenty yesterday (one millisecond before midnight UTC), which do not count.
    const rows = [
      ...Array.from({ length: 9 }, () => ({ user_id: caller.user.id, quiz_id: null, created_at: startOfDay.getTime() + 1 })),
      ...Array.from({ length: 20 }, () => ({ user_id: caller.user.id, quiz_id: null, created_at: startOfDay.getTime() - 1 })),
    ];
    await server.db.insertInto("ai_generations").values(rows).execute();
    expect(await remaining(caller)).toBe(1);

    expect((await generate(caller, { topic: "Last one today" })).status).toBe(201);
    expect(await remaining(caller)).toBe(0);
    const refused = await generate(caller, { topic: "Over the limit" });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe(
      "You have used all 10 AI quizzes of your Free plan for today; more arrive at midnight UTC. For more each day, choose Upgrade Plan (/subscription).",
    );
    expect(refused.body).toMatchObject({ code: "AI_QUOTA_USED_UPGRADE", values: { limit: 10, plan: "Free" } });
  });

  it.each([
    ["standard", 50],
    ["premium", 100],
  ])("gives the %s plan %i a day", async (tier, limit) => {
    const caller = await signIn(server, "user", tier);
    expect(await remaining(caller)).toBe(limit);
    expect((await generate(caller, { topic: `A ${tier} topic` })).status).toBe(201);
    expect(await remaining(caller)).toBe(limit - 1);
  });
});

describe("the /ai-quiz page", () => {
  it("shows a signed-out visitor the Login Required card", async () => {
    const response = await fetch(`${server.url}/ai-quiz`);
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain("Login Required");
    expect(html).toContain("Back to Home");
    expect(html).not.toContain('name="topic"');
  });

  it("shows the form with the remaining AI quizzes and the 12 topic chips", async () => {
    const guest = await signIn(server, "guest");
    const html = await pageText(await fetch(`${server.url}/ai-quiz`, { headers: { cookie: guest.cookie } }));
    expect(html).toContain('name="topic"');
    expect(html).toMatch(/AI quizzes left: <strong>5 of 5<\/strong>/);
    expect(html.match(/name="chip"/g)).toHaveLength(12);
    expect(html).toContain("Space &amp; Astronomy");
    expect(html).toMatch(/<select[^>]*name="kinds"/);
    expect(html).toContain('<option value="mixed" selected="">Mix of kinds</option>');
    expect(html).toContain('<option value="typeAnswer">Type the answer</option>');
  });

  it("works without JavaScript: a chip fills the topic, Generate opens the new game's lobby", async () => {
    const caller = await signIn(server, "user");
    const post = (fields: Record<string, string>) =>
      fetch(`${server.url}/ai-quiz`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie: `${caller.cookie}; quiz_client_id=${caller.clientId}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });

    const chip = await post({ chip: "Food & Cooking", topic: "", difficulty: "easy", questionCount: "7", timeLimit: "30" });
    expect(chip.status).toBe(200);
    expect(await chip.text()).toMatch(/<textarea[^>]*name="topic"[^>]*>Food &amp; Cooking<\/textarea>/);

    const empty = await post({ intent: "generate", topic: "", difficulty: "easy", questionCount: "7", timeLimit: "30" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Please describe what you want your quiz to be about.");

    const generated = await post({
      intent: "generate",
      topic: "Food & Cooking",
      title: "",
      difficulty: "easy",
      kinds: "trueFalse",
      questionCount: "7",
      timeLimit: "30",
    });
    expect(generated.status).toBe(302);
    const gameCode = /\/waiting\/([A-Z0-9]{6})$/.exec(generated.headers.get("location") ?? "")?.[1];
    expect(gameCode).toBeDefined();
    const game = await server.db
      .selectFrom("games")
      .innerJoin("quizzes", "quizzes.id", "games.quiz_id")
      .select(["games.host_client_id", "quizzes.title", "quizzes.time_limit", "quizzes.id"])
      .where("game_code", "=", gameCode!)
      .executeTakeFirstOrThrow();
    expect(game).toMatchObject({ host_client_id: caller.clientId, title: "Beginner Food & Cooking Quiz", time_limit: 30 });
    const stored = await server.db.selectFrom("questions").select("kind").where("quiz_id", "=", game.id).execute();
    expect(stored.map((row) => row.kind)).toEqual(Array(7).fill("trueFalse"));

    // The form's quiz language goes into the prompt.
    const french = `Cuisine ${randomUUID()}`;
    const inFrench = await post({
      intent: "generate",
      topic: french,
      difficulty: "easy",
      kinds: "choice",
      questionCount: "3",
      timeLimit: "30",
      language: "fr",
    });
    expect(inFrench.status).toBe(302);
    expect(requestsFor(french)[0].body.messages.find((message) => message.role === "user")?.content).toContain("Write every question and answer in French.");

    const unknownKinds = await post({ intent: "generate", topic: "Food & Cooking", difficulty: "easy", kinds: "essay", questionCount: "3", timeLimit: "30" });
    expect(unknownKinds.status).toBe(400);
    expect(await pageText(unknownKinds)).toContain("Question kinds must be one of mixed, choice,");

    const failed = await post({ intent: "generate", topic: `Food [error-500] ${randomUUID()}`, difficulty: "easy", questionCount: "3", timeLimit: "30" });
    expect(failed.status).toBe(502);
    expect(await pageText(failed)).toContain("Generation Failed: The AI service had a problem (HTTP 500). Please try again.");
  });
});

describe("without AI configuration", () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startTestServer();
  });
  afterAll(async () => {
    await plain?.stop();
  });

  it("answers 503 saying how to turn generation on, and the page says so too", async () => {
    const caller = await signIn(plain, "user");
    const response = await generate(caller, { topic: "Volcanoes" }, plain);
    expect(response.status).toBe(503);
    expect(response.body.error).toBe(
      "AI quiz generation is not configured on this server. To turn it on, set OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server such as Ollama) and restart Quiz Night.",
    );
    const html = await (await fetch(`${plain.url}/ai-quiz`, { headers: { cookie: caller.cookie } })).text();
    expect(html).toContain("AI quiz generation is not configured on this server.");
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Generate Quiz<\/button>/);
  });
});
