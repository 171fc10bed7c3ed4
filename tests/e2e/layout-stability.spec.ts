import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { contextWithClientId, createHostedGame, expect, test } from "./fixtures";

declare global {
  interface Window {
    layoutShifts?: LayoutShift[];
  }
}

// Lighthouse's mobile screen: what moves there after the first paint counts against the page
// (cumulative-layout-shift), and a player reaching for a button hits the wrong one.
test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });

interface LayoutShift {
  value: number;
  nodes: string[];
  /** Each moved node's box before and after, as "x,y wxh", for the failure message. */
  moves: string[];
}

/** Records every layout shift of the page's life, with the elements that moved, in `window.layoutShifts`. */
async function recordLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    window.layoutShifts = [];
    new PerformanceObserver((list) => {
      type Source = { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
      const box = (rect: DOMRectReadOnly) => `${rect.x},${rect.y} ${rect.width}x${rect.height}`;
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; sources?: Source[] }>) {
        const sources = entry.sources ?? [];
        const nodes = sources.map((source) => (source.node instanceof Element ? `${source.node.tagName.toLowerCase()}.${source.node.className}` : "?"));
        const moves = sources.map((source) => `${box(source.previousRect)} -> ${box(source.currentRect)}`);
        window.layoutShifts!.push({ value: entry.value, nodes, moves });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** The layout shifts so far, once the last frame's have been reported. */
async function layoutShifts(page: Page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.evaluate(() => window.layoutShifts!);
}

test("nothing on the home page moves when the connection badge turns Connected", async ({ page }) => {
  await recordLayoutShifts(page);
  await page.goto("/");
  await expect(page.getByRole("main").getByRole("status").filter({ hasText: "Connected" })).toHaveText(/^\s*Connected$/, { timeout: 5_000 });
  const shifts = await layoutShifts(page);
  // The badge's own row may change width as its text and Reconnect change. Anything else that moves
  // must stay far below what a user (or Lighthouse's cumulative-layout-shift, good under 0.1) would
  // notice: once in a full CI run the header's actions moved by a sliver the page never showed again.
  const others = shifts.filter((shift) => shift.nodes.some((node) => node !== "div.connection"));
  const score = others.reduce((sum, shift) => sum + shift.value, 0);
  expect(score, JSON.stringify(others)).toBeLessThan(0.005);
});

test("nothing in view moves when a player's open question replaces the connecting notice", async ({ baseURL, browser, page }) => {
  const hostId = `host-${randomUUID()}`;
  const gameCode = await createHostedGame(page, hostId, {
    title: "Shifts",
    timeLimit: 60,
    questions: [{ text: "What is 2 + 2?", answers: ["3", "4"], correctAnswerIndex: 1 }],
  });
  const host = await (await contextWithClientId(browser, hostId)).newPage();
  await host.context().addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL! }]);
  await host.goto(`/waiting/${gameCode}`);
  const player = await (
    await contextWithClientId(browser, `player-${randomUUID()}`, { viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true })
  ).newPage();
  await player.goto(`/waiting/${gameCode}?nickname=Kim`);
  await expect(host.getByTestId("player-count")).toHaveText("1");
  await host.getByRole("button", { name: "Start Game" }).click();
  await expect(player.getByText("What is 2 + 2?")).toBeVisible();

  // A fresh load of the question, as a phone that rejoins: the server's page says it is connecting, then the question comes.
  await recordLayoutShifts(player);
  await player.reload();
  await expect(player.getByText("What is 2 + 2?")).toBeVisible();
  // Nothing a user would see: the same sliver of the header's actions as on the home page once showed here in CI.
  const shifts = await layoutShifts(player);
  expect(
    shifts.reduce((sum, shift) => sum + shift.value, 0),
    JSON.stringify(shifts),
  ).toBeLessThan(0.005);
});

test("the header's menu toggle takes the same room before the page's script runs as after, so nothing in the header moves on a slow phone", async ({
  browser,
}) => {
  const phone = { viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true };
  const boxOf = async (javaScriptEnabled: boolean) => {
    const context = await browser.newContext({ ...phone, javaScriptEnabled });
    const page = await context.newPage();
    await page.goto("/");
    if (javaScriptEnabled) await expect(page.locator("button.menu-toggle")).toBeVisible();
    const toggle = page.locator(javaScriptEnabled ? "button.menu-toggle" : "summary.menu-toggle");
    const actions = await page.locator(".header-actions").boundingBox();
    const box = await toggle.boundingBox();
    await context.close();
    return { toggle: box, actions };
  };
  const before = await boxOf(false);
  const after = await boxOf(true);
  expect(after).toEqual(before);
});
