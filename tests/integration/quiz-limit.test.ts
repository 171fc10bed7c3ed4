/**
 * When the AI quiz limit cannot be read (docs/product.md#messages, "Failed to check quiz limit"),
 * the pages that show it say so instead of failing whole, and the API answers with that message.
 * The real server on its own database, whose table of AI generations is then taken away.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogs, ERROR } from "#tests/log-capture";
import { signInAs, startTestServer, type SignedIn, type TestServer } from "./harness";

const logs = captureLogs();
let server: TestServer;
let account: SignedIn;
let guest: SignedIn;

beforeAll(async () => {
  server = await startTestServer({ logger: logs.logger });
  account = await signInAs(server, "user");
  guest = await signInAs(server, "guest");
});

afterAll(async () => {
  await server?.stop();
});

async function page(path: string, caller: SignedIn): Promise<{ status: number; text: string }> {
  const response = await fetch(server.url + path, { headers: { cookie: caller.cookie } });
  return { status: response.status, text: (await response.text()).replaceAll("<!-- -->", "") };
}

describe("the AI quiz limit", () => {
  it("shows as a count while it can be read", async () => {
    expect((await page("/ai-quiz", guest)).text).toContain("AI quizzes left: <strong>5 of 5</strong>");
    expect((await server.api("/api/auth/quiz-limit", { headers: { cookie: guest.cookie } })).body).toEqual({ remainingQuizzes: 5 });
  });

  describe("when it cannot be read", () => {
    beforeAll(async () => {
      await sql`drop table ai_generations`.execute(server.db);
    });

    it("the AI quiz page says 'Failed to check quiz limit' and still offers the form", async () => {
      const before = logs.lines.length;
      const { status, text } = await page("/ai-quiz", guest);
      expect(status).toBe(200);
      expect(text).toContain("Failed to check quiz limit");
      expect(text).toContain("Generate Quiz");
      expect(logs.lines.slice(before)).toContainEqual(expect.objectContaining({ level: ERROR, event: "quiz_limit_failed" }));
    });

    it("My Account says so where the count would be", async () => {
      const { status, text } = await page("/account", account);
      expect(status).toBe(200);
      expect(text).toContain("Failed to check quiz limit");
    });

    it("every other page still opens for the signed-in user", async () => {
      const { status, text } = await page("/", account);
      expect(status).toBe(200);
      expect(text).toContain(account.user.username);
    });

    it("GET /api/auth/quiz-limit answers 500 with the message", async () => {
      const response = await server.api("/api/auth/quiz-limit", { headers: { cookie: guest.cookie } });
      expect(response).toEqual({ status: 500, body: { error: "Failed to check quiz limit" } });
    });
  });
});
