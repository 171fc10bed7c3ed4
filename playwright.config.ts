import { availableParallelism } from "node:os";
import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./tests/chromium";

/**
 * Each worker starts its own built server with its own fresh database and fakes (tests/e2e/worker-server.ts,
 * through the `workerServer` fixture in tests/e2e/fixtures.ts), so spec files run side by side and
 * share nothing. E2E_WORKERS overrides the count (docs/decisions/0049-ten-minute-test-loop.md).
 */
// Two workers at least: a worker spends most of its time waiting on the game's timers and pages,
// about half a core; more than one per two cores past that (decision 0049).
const workers = Number(process.env.E2E_WORKERS ?? Math.max(2, Math.floor(availableParallelism() / 2)));

export default defineConfig({
  testDir: "tests/e2e",
  // Tests, not files, spread over the workers: each test makes its own accounts, quizzes and games
  // on its worker's server, so none needs another's; a `serial` describe (pwa.spec.ts) stays together.
  fullyParallel: true,
  workers,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [["list"]],
  timeout: 60_000,
  // Two workers share two cores with their servers and Chromiums: an expectation polls up to 10 s
  // rather than Playwright's 5 s before it fails. What it expects is the same, and one that holds at
  // once still returns at once.
  expect: { timeout: 10_000 },
  use: {
    trace: "retain-on-failure",
    launchOptions: chromiumLaunchOptions,
  },
});
