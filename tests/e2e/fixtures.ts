import { test as base, expect, type Browser, type BrowserContext, type BrowserContextOptions, type Cookie, type Page } from "@playwright/test";
import { startWorkerServer, type WorkerServer } from "./worker-server";

/**
 * Each worker's own built server (its own port, fresh database and fakes: worker-server.ts), whose
 * address every page, request and `browser.newContext()` of the worker's tests gets as `baseURL`;
 * and every page fails its test on an uncaught exception or a console error.
 */
export const test = base.extend<{ consoleErrors: string[] }, { workerServer: WorkerServer }>({
  workerServer: [
    // Playwright reads a fixture's needs from its first parameter's pattern: this one needs none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startWorkerServer();
      await use(server);
      await server.stop();
    },
    { scope: "worker", timeout: 90_000 },
  ],
  baseURL: async ({ workerServer }, use) => {
    await use(workerServer.baseURL);
  },
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await use(errors);
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Waits until React has hydrated the page (app/root.tsx marks `<html data-hydrated>`), so a click
 * reaches React's handlers, not the plain form. A quiet network is no such sign: on a busy machine
 * hydration can land after the last request.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** Opens `url` and waits for hydration. */
export async function openHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await waitForHydration(page);
}

/** The `qn_host` cookie the server set for each host client id that `createHostedGame` made a game for. */
const hostSecrets = new Map<string, Cookie>();

/**
 * A browser context whose persisted client id is known, like a real returning browser; a desktop
 * window unless `options` says otherwise (a phone's viewport, a colour scheme, reduced motion, ...).
 */
export async function contextWithClientId(browser: Browser, clientId: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  await context.addInitScript((id) => window.localStorage.setItem("quizClientId", id), clientId);
  // The host secret the server set when this browser's game was made elsewhere (`createHostedGame`).
  const secret = hostSecrets.get(clientId);
  if (secret) await context.addCookies([secret]);
  return context;
}

export interface ChoiceQuestion {
  text: string;
  answers: string[];
  correctAnswerIndex: number;
}

/** A public quiz of `questions` made through the API as `hostClientId`, and a game of it with that browser as host: its code. */
export async function createHostedGame(
  page: Page,
  hostClientId: string,
  quiz: { title: string; timeLimit: number; questions: readonly ChoiceQuestion[] },
): Promise<string> {
  const headers = { "x-client-id": hostClientId };
  const created = await (
    await page.request.post("/api/quizzes", { data: { title: quiz.title, description: "", timeLimit: quiz.timeLimit, isPublic: true }, headers })
  ).json();
  for (const [order, question] of quiz.questions.entries()) {
    await page.request.post("/api/questions", { data: { quizId: created.id, order, ...question }, headers });
  }
  const game = await (await page.request.post("/api/games", { data: { quizId: created.id }, headers })).json();
  await page.request.post(`/api/games/${game.gameCode}/register-host`, { data: { clientId: hostClientId } });
  // The game is the browser's that holds the host secret the server set (docs/decisions/0044-shared-browsers.md):
  // the host's own context gets it from `contextWithClientId`.
  const secret = (await page.context().cookies()).find((cookie) => cookie.name === "qn_host");
  if (secret) hostSecrets.set(hostClientId, secret);
  return game.gameCode as string;
}
