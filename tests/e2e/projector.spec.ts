import { randomUUID } from "node:crypto";
import type { BrowserContext } from "@playwright/test";
import { contextWithClientId, createHostedGame, expect, test } from "./fixtures";

declare global {
  interface Window {
    oscillatorsStarted?: number;
  }
}

const FULL_HD = { width: 1920, height: 1080 };

/** Counts the notes a context's pages play in `window.oscillatorsStarted`: Web Audio runs in headless Chromium, but nobody can listen. */
async function countNotes(context: BrowserContext) {
  await context.addInitScript(() => {
    window.oscillatorsStarted = 0;
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (...args: Parameters<OscillatorNode["start"]>) {
      window.oscillatorsStarted = (window.oscillatorsStarted ?? 0) + 1;
      return start.apply(this, args);
    };
  });
}

test("the host's screen goes full screen for a projector, in large dark type, and plays the game's sounds once they are switched on, remembered by the browser", async ({
  baseURL,
  browser,
  page,
}) => {
  const hostId = `host-${randomUUID()}`;
  const gameCode = await createHostedGame(page, hostId, {
    title: "Projector Night",
    timeLimit: 20,
    questions: [{ text: "Which planet is the largest?", answers: ["Mars", "Jupiter"], correctAnswerIndex: 1 }],
  });
  const context = await contextWithClientId(browser, hostId, { viewport: FULL_HD });
  await context.addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL! }]);
  await countNotes(context);
  const host = await context.newPage();
  await host.goto(`/waiting/${gameCode}`);
  const projector = host.getByRole("group", { name: "Projector" });
  const sound = projector.getByRole("button", { name: "Sound" });
  const fullscreen = projector.getByRole("button", { name: "Full screen" });

  // Sound starts off; the switch is remembered across a reload.
  await expect(sound).toHaveAttribute("aria-pressed", "false");
  await sound.click();
  await expect(sound).toHaveAttribute("aria-pressed", "true");
  await host.reload();
  await expect(sound).toHaveAttribute("aria-pressed", "true");
  // A page loaded with the sound on plays once the host has clicked on it (the browser's rule).
  await host.getByRole("heading", { name: "Game code" }).click();

  await fullscreen.click();
  await expect(fullscreen).toHaveAttribute("aria-pressed", "true");
  expect(await host.evaluate(() => document.fullscreenElement === document.documentElement)).toBe(true);
  // The join code and its QR code stay in sight, large; the site's header is gone.
  await expect(host.getByRole("img", { name: /QR code to join game/ })).toBeVisible();
  await expect(host.locator(".site-header")).toBeHidden();

  const playerContext = await contextWithClientId(browser, `player-${randomUUID()}`);
  await countNotes(playerContext);
  const player = await playerContext.newPage();
  await player.goto(`/waiting/${gameCode}?nickname=Kim`);
  await expect(host.getByTestId("player-count")).toHaveText("1");
  await host.getByRole("button", { name: "Start Game" }).click();
  const question = host.getByText("Which planet is the largest?");
  await expect(question).toBeVisible();

  // Still full screen after the move to the question's page, in type read from the back of a room, light on dark.
  expect(await host.evaluate(() => document.fullscreenElement !== null)).toBe(true);
  const style = await question.evaluate((element) => {
    const computed = getComputedStyle(element);
    return { fontSize: parseFloat(computed.fontSize), color: computed.color, background: getComputedStyle(document.documentElement).backgroundColor };
  });
  expect(style.fontSize).toBeGreaterThanOrEqual(48);
  expect(style.color).toBe("rgb(255, 255, 255)");
  expect(style.background).toBe("rgb(0, 0, 0)");

  // The countdown ticks; the player's phone plays nothing.
  await expect.poll(() => host.evaluate(() => window.oscillatorsStarted ?? 0), { timeout: 5_000 }).toBeGreaterThan(1);
  const beforeReveal = await host.evaluate(() => window.oscillatorsStarted ?? 0);
  await player.getByRole("button", { name: /B\. Jupiter/ }).click();
  // The reveal's sting is four notes at once.
  await expect.poll(() => host.evaluate(() => window.oscillatorsStarted ?? 0)).toBeGreaterThanOrEqual(beforeReveal + 4);
  expect(await player.evaluate(() => window.oscillatorsStarted)).toBe(0);

  // Sound off: silence from then on.
  await sound.click();
  await expect(sound).toHaveAttribute("aria-pressed", "false");
  expect(await host.evaluate(() => localStorage.getItem("projectorSound"))).toBeNull();
  await fullscreen.click();
  await expect(fullscreen).toHaveAttribute("aria-pressed", "false");
});
