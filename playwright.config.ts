import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./tests/chromium";

const port = Number(process.env.E2E_PORT ?? 4310);
/** The local stand-in for an OpenAI-compatible server that AI quiz generation talks to. */
const fakeOpenAiPort = Number(process.env.E2E_FAKE_OPENAI_PORT ?? port + 1);
/** The local stand-in for Stripe's API that billing talks to. */
const fakeStripePort = Number(process.env.E2E_FAKE_STRIPE_PORT ?? port + 2);
/** A fresh database per run, so every run starts from the demo quizzes alone. */
const databasePath = path.join(os.tmpdir(), `quiz-night-e2e-${process.pid}-${Date.now()}`, "quiz.sqlite");

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [["list"]],
  timeout: 60_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: chromiumLaunchOptions,
  },
  webServer: [
    {
      command: "node_modules/.bin/tsx tests/fakes/openai.ts",
      url: `http://127.0.0.1:${fakeOpenAiPort}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { FAKE_OPENAI_PORT: String(fakeOpenAiPort) },
    },
    {
      command: "node_modules/.bin/tsx tests/fakes/stripe.ts",
      url: `http://127.0.0.1:${fakeStripePort}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { FAKE_STRIPE_PORT: String(fakeStripePort) },
    },
    {
      // The production server as `npm run serve` runs it (npm test builds first).
      command: "node build/node/server.js",
      url: `http://127.0.0.1:${port}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_PATH: databasePath,
        SESSION_SECRET: "e2e-session-secret-that-is-long-enough-0123456789",
        // Shorter pauses between screens keep the journey quick; the texts are the same.
        RESULTS_DELAY_MS: "1500",
        NEXT_QUESTION_SECONDS: "3",
        OPENAI_BASE_URL: `http://127.0.0.1:${fakeOpenAiPort}/v1`,
        OPENAI_API_KEY: "e2e-test-key",
        OPENAI_MODEL: "e2e-model",
        STRIPE_SECRET_KEY: "sk_test_e2e",
        STRIPE_WEBHOOK_SECRET: "whsec_e2e",
        STRIPE_PRICE_STANDARD: "price_e2e_standard",
        STRIPE_API_BASE: `http://127.0.0.1:${fakeStripePort}`,
        // Every browser here is 127.0.0.1: the per-address creation limits are tested elsewhere
        // (tests/integration/abuse-limits.test.ts), so here they are set far above the suite's needs.
        GUEST_LIMIT_PER_IP: "1000",
        REGISTER_LIMIT_PER_IP: "1000",
        AI_LIMIT_PER_IP: "1000",
        QUIZ_LIMIT_PER_IP: "1000",
        QUESTION_LIMIT_PER_IP: "100000",
        GAME_LIMIT_PER_IP: "1000",
        // The suite's unknown codes and team lists all come from this one address (tested in tests/integration/limits-mean-what-they-say.test.ts).
        CODE_LOOKUP_FAILURES_PER_IP: "100000",
        TEAMS_LIMIT_PER_IP: "100000",
      },
    },
  ],
});
