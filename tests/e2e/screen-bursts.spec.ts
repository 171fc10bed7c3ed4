import { randomUUID } from "node:crypto";
import type { Browser, Page, Request, Route } from "@playwright/test";
import { contextWithClientId, createHostedGame, expect, test } from "./fixtures";

const QUESTIONS = [
  { text: "What is 2 + 2?", answers: ["3", "4", "5", "22"], correctAnswerIndex: 1 },
  { text: "Capital of France?", answers: ["Paris", "Rome", "Madrid", "Berlin"], correctAnswerIndex: 0 },
];

/** A game of QUESTIONS with one player, Dee, on the first question: the host's page and the player's. */
async function gameOnFirstQuestion(browser: Browser, page: Page, baseURL: string): Promise<{ host: Page; player: Page; gameCode: string }> {
  const hostId = `host-${randomUUID()}`;
  const gameCode = await createHostedGame(page, hostId, { title: "Burst Night", timeLimit: 20, questions: QUESTIONS });
  const host = await (await contextWithClientId(browser, hostId)).newPage();
  await host.context().addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL }]);
  await host.goto(`/waiting/${gameCode}`);
  const player = await (await contextWithClientId(browser, `player-${randomUUID()}`)).newPage();
  await player.goto(`/waiting/${gameCode}?nickname=Dee`);
  await expect(host.getByTestId("player-count")).toHaveText("1");
  await host.getByRole("button", { name: "Start Game" }).click();
  await expect(player).toHaveURL(`/play/${gameCode}`);
  await expect(player.getByText("What is 2 + 2?")).toBeVisible();
  return { host, player, gameCode };
}

/** Waits until the router has no navigation under way (Remix keeps its router on window.__remixRouter). */
function routerIdle(page: Page): Promise<unknown> {
  return page.waitForFunction(() => window.__remixRouter.state.navigation.state === "idle");
}

test("a slow venue network: the next question, arriving while the leaderboard still loads, wins", async ({ baseURL, browser, page }) => {
  const { player, gameCode } = await gameOnFirstQuestion(browser, page, baseURL!);

  // The result's and the leaderboard's data (Remix single fetch: `<path>.data`) hang, as on a slow
  // network, until the next question has come: the player's page stays on /play/CODE all along, with
  // the navigation to the leaderboard still loading when the question arrives.
  const held: { route: Route; request: Request }[] = [];
  await player.route(new RegExp(`/(result|leaderboard)/${gameCode}\\.data`), (route, request) => void held.push({ route, request }));
  await player.getByRole("button", { name: /B\. 4/ }).click();

  // The play screen, still the current route, shows the new question; the leaderboard's load is pending.
  await expect(player.getByText("Capital of France?")).toBeVisible({ timeout: 15_000 });
  expect(held.map(({ request }) => new URL(request.url()).pathname)).toContain(`/leaderboard/${gameCode}.data`);

  // The slow responses come in at last (an aborted request's route can no longer be continued).
  await player.unroute(/\.data/);
  await Promise.all(held.map(({ route }) => route.continue().catch(() => {})));
  await routerIdle(player);

  await expect(player).toHaveURL(`/play/${gameCode}`);
  await expect(player.getByText("Capital of France?")).toBeVisible();
  await expect(player.getByRole("button", { name: /A\. Paris/ })).toBeEnabled();
});

test("a player's own way out of the game screens stands until the game's screen changes", async ({ baseURL, browser, page }) => {
  const { player, gameCode } = await gameOnFirstQuestion(browser, page, baseURL!);
  await player.getByRole("button", { name: /B\. 4/ }).click();
  await expect(player).toHaveURL(`/leaderboard/${gameCode}`, { timeout: 10_000 });

  // Home by the header's link, while the leaderboard is up: the app does not bring them back...
  await player
    .getByRole("link", { name: /Quiz Night/ })
    .first()
    .click();
  await expect(player).toHaveURL("/");
  await routerIdle(player);
  await player.waitForTimeout(1_000);
  await expect(player).toHaveURL("/");
  // ...until the next question opens.
  await expect(player).toHaveURL(`/play/${gameCode}`, { timeout: 10_000 });
  await expect(player.getByText("Capital of France?")).toBeVisible();
});
