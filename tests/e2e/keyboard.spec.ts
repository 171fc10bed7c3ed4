import { randomUUID } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { contextWithClientId, expect, test, waitForHydration } from "./fixtures";

const PHONE = { width: 390, height: 844 };

/**
 * What a keyboard user sees of the element that has focus: it must match :focus-visible and draw a
 * ring (an outline of 2 px or more), and the ring must not be hidden under anything (the sticky
 * header, a toast): WCAG 2.4.7 and 2.4.11. Returns a description of the failure, or null.
 */
async function focusProblem(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return "nothing has focus";
    const name = `${element.tagName.toLowerCase()} "${(element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 40)}"`;
    if (!element.matches(":focus-visible")) return `${name} has focus but does not match :focus-visible`;
    const style = getComputedStyle(element);
    if (style.outlineStyle === "none" || parseFloat(style.outlineWidth) < 2) return `${name} shows no focus ring (outline ${style.outline})`;
    const box = element.getBoundingClientRect();
    const x = Math.min(Math.max(box.left + box.width / 2, 0), window.innerWidth - 1);
    const y = Math.min(Math.max(box.top + box.height / 2, 0), window.innerHeight - 1);
    if (box.bottom < 0 || box.top > window.innerHeight) return `${name} has focus out of view`;
    const top = document.elementFromPoint(x, y);
    if (top && top !== element && !element.contains(top) && !top.contains(element))
      return `${name} is hidden under ${top.tagName.toLowerCase()}.${top.className}`;
    return null;
  });
}

async function expectFocusVisible(page: Page) {
  expect(await focusProblem(page)).toBeNull();
}

/**
 * Whether `target` has the focus now, read in one look: a control can be swapped for another
 * (a tooltip's, tests/e2e/tooltips.spec.ts) between finding an element and asking it.
 */
async function hasFocus(target: Locator): Promise<boolean> {
  return (await target.and(target.page().locator(":focus")).count()) > 0;
}

/** Presses Tab (or Shift+Tab) until `target` has focus, checking the focus ring of every control on the way. */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 40 } = {}) {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < max; presses++) {
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    await expectFocusVisible(page);
    if (await hasFocus(target)) return;
  }
  throw new Error(`${max} presses of ${backwards ? "Shift+Tab" : "Tab"} did not reach ${target}`);
}

/** A game screen starts with focus on its heading (tests/e2e/accessibility.spec.ts). */
async function expectScreen(page: Page, heading: string | RegExp) {
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeFocused();
}

/**
 * The reveal and the leaderboard move on by themselves after a few seconds; the host's Next only
 * hurries them. The host presses it by keyboard when it is still there; either way the game reaches `next`.
 */
async function hostHurries(host: Page, button: RegExp, next: string | RegExp) {
  const control = host.getByRole("button", { name: button });
  const nextHeading = host.getByRole("heading", { level: 1, name: next });
  for (let presses = 0; presses < 10 && !(await nextHeading.isVisible()); presses++) {
    await host.keyboard.press("Tab");
    if (await hasFocus(control)) {
      await expectFocusVisible(host);
      await host.keyboard.press("Enter");
      break;
    }
  }
  await expect(nextHeading).toBeVisible({ timeout: 15_000 });
}

test("a whole game by keyboard alone: the host picks a demo quiz and hosts it, a player joins and answers every kind of question, on to the podium", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const host = await (await contextWithClientId(browser, `host-${randomUUID()}`)).newPage();

  // The host: from the home page to the host form, the "Pub Quiz Sampler" demo quiz (one question of each kind), Host Game.
  await host.goto("/");
  await waitForHydration(host);
  await tabTo(host, host.getByRole("link", { name: "Host a quiz" }));
  await host.keyboard.press("Enter");
  await expect(host.getByRole("heading", { name: "Host a Quiz" })).toBeVisible();
  await waitForHydration(host);
  const sampler = host.getByRole("radio", { name: "Pub Quiz Sampler" });
  await tabTo(host, host.getByRole("radio").first());
  // Arrow keys move through a radio group and choose as they go.
  for (let presses = 0; presses < 20 && !(await sampler.isChecked()); presses++) {
    await host.keyboard.press("ArrowDown");
    await expectFocusVisible(host);
  }
  await expect(sampler).toBeChecked();
  await expect(sampler).toBeFocused();
  await tabTo(host, host.getByLabel("Host name"));
  await host.keyboard.type("Quizmaster");
  await tabTo(host, host.getByRole("button", { name: "Host Game" }));
  await host.keyboard.press("Enter");
  await expect(host).toHaveURL(/\/waiting\/[A-Z0-9]{6}$/);
  const gameCode = new URL(host.url()).pathname.split("/").pop()!;
  await expectScreen(host, "Game code");

  // The player, on a phone: the join form, the code and a nickname, Enter.
  const player = await (await contextWithClientId(browser, `player-${randomUUID()}`, { viewport: PHONE })).newPage();
  await player.goto("/join");
  await waitForHydration(player);
  await tabTo(player, player.getByLabel("Game code"));
  await player.keyboard.type(gameCode.toLowerCase());
  await tabTo(player, player.getByLabel("Nickname"));
  await player.keyboard.type("Kim");
  await tabTo(player, player.getByRole("button", { name: "Join Game" }));
  await player.keyboard.press("Enter");
  await expect(player).toHaveURL(`/waiting/${gameCode}`);
  await expect(player.getByText("Waiting for host to start the game...")).toBeVisible();
  await expectScreen(player, "Game code");

  // A second player who never answers keeps each question open until the host skips it (no race with the clock).
  const idle = await (await contextWithClientId(browser, `player-${randomUUID()}`)).newPage();
  await idle.goto(`/waiting/${gameCode}?nickname=Idle`);
  await expect(host.getByTestId("player-count")).toHaveText("2");

  await tabTo(host, host.getByRole("button", { name: "Start Game" }));
  await host.keyboard.press("Enter");

  /** The player has answered; the host skips to the reveal and moves on to the next question (or the podium). */
  async function hostMovesOn(questionNumber: number, last = false) {
    await expect(player.getByText("Answer submitted! Waiting for other players...")).toBeVisible();
    await expectScreen(host, `Question ${questionNumber} of 6`);
    await tabTo(host, host.getByRole("button", { name: "Skip" }));
    await host.keyboard.press("Enter");
    await expect(host.getByRole("button", { name: "Next" })).toBeVisible();
    await hostHurries(host, /^Next$/, "Leaderboard");
    await expectScreen(player, "Leaderboard");
    await hostHurries(host, last ? /^Show final results$/ : /^Next question$/, last ? "Game Complete" : `Question ${questionNumber + 1} of 6`);
  }

  // 1. Choice: Tab to the answer, Enter.
  await expectScreen(player, "Question 1 of 6");
  await tabTo(player, player.getByRole("button", { name: /B\. Clarinet/ }));
  await player.keyboard.press("Enter");
  await hostMovesOn(1);

  // 2. True or false: Tab past the answer, Shift+Tab back to it, Space.
  await expectScreen(player, "Question 2 of 6");
  await tabTo(player, player.getByRole("button", { name: /A\. True/ }));
  await tabTo(player, player.getByRole("button", { name: /B\. False/ }));
  await tabTo(player, player.getByRole("button", { name: /A\. True/ }), { backwards: true });
  await player.keyboard.press("Tab");
  await expect(player.getByRole("button", { name: /B\. False/ })).toBeFocused();
  await player.keyboard.press("Space");
  await hostMovesOn(2);

  // 3. Pick several: a group of checkboxes, each ticked with Space, then the submit button.
  await expectScreen(player, "Question 3 of 6");
  const picks = player.getByRole("group", { name: /Answers/ });
  for (const name of [/A\. 2/, /C\. 11/, /E\. 17/]) {
    const pick = picks.getByRole("checkbox", { name });
    await tabTo(player, pick);
    await player.keyboard.press("Space");
    await expect(pick).toBeChecked();
  }
  await expect(picks.getByRole("checkbox", { name: /B\. 9/ })).not.toBeChecked();
  await tabTo(player, player.getByRole("button", { name: "Submit answers (3)" }));
  await player.keyboard.press("Enter");
  await hostMovesOn(3);

  // 4. Type the answer: Tab to the field (focus stays on the heading until then), type, Enter.
  await expectScreen(player, "Question 4 of 6");
  await tabTo(player, player.getByLabel("Your answer"));
  await player.keyboard.type("Mercury");
  await player.keyboard.press("Enter");
  await hostMovesOn(4);

  // 5. Closest number: type, Tab to the button, Space.
  await expectScreen(player, "Question 5 of 6");
  await tabTo(player, player.getByLabel("Your guess"));
  await player.keyboard.type("1969");
  await tabTo(player, player.getByRole("button", { name: "Submit guess" }));
  await player.keyboard.press("Space");
  await hostMovesOn(5);

  // 6. Poll: a number key answers while focus is in the question, and not from the header (a one-key
  // shortcut is active only on focus). "1" pressed on the menu button leaves A unpicked; "2" back in the question picks B.
  await expectScreen(player, "Question 6 of 6");
  await player.keyboard.press("Shift+Tab");
  await expect(player.getByRole("button", { name: "Open menu" })).toBeFocused();
  await player.keyboard.press("1");
  await player.keyboard.press("Tab");
  await expect(player.getByRole("button", { name: /A\. Music/ })).toBeFocused();
  await player.keyboard.press("2");
  await expect(player.getByRole("button", { name: /B\. Films/ })).toHaveAttribute("aria-pressed", "true");
  await expect(player.getByRole("button", { name: /A\. Music/ })).toHaveAttribute("aria-pressed", "false");
  await hostMovesOn(6, true);

  await expectScreen(host, "Game Complete");
  await expectScreen(player, "Game Complete");
  await expect(player.getByTestId("own-rank")).toContainText("You finished #1 of 2");
  for (const name of ["Play Again", "Download CSV"]) await tabTo(host, host.getByRole("button", { name }));
  await tabTo(player, player.getByRole("button", { name: "Home" }));
  await player.keyboard.press("Enter");
  await expect(player).toHaveURL("/");
});

test("an open menu closes on Escape and gives focus back to its button, on a phone", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  // Before hydration the toggle is a <details> summary that hydration replaces, taking focus with
  // it; on a busy machine that can land after the network is idle, so wait for the button itself.
  const toggle = page.locator("button.menu-toggle[aria-expanded]");
  await expect(toggle).toHaveAccessibleName("Open menu");
  await tabTo(page, toggle);
  await page.keyboard.press("Enter");
  const menu = page.getByRole("navigation", { name: "Mobile" });
  await expect(menu).toBeVisible();
  await tabTo(page, menu.getByRole("link", { name: "Featured Quizzes" }));
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();
});

test("the first Tab offers a skip past the header, and Enter on it takes the next Tab into the page's content", async ({ page }) => {
  await page.goto("/featured");
  await page.waitForLoadState("networkidle");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await expectFocusVisible(page);
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expectFocusVisible(page);
  expect(await page.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);
  await expect(page).toHaveURL(/\/featured#main$/);
});
