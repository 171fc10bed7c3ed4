import type { Page } from "@playwright/test";
import { expect, openHydrated, test } from "./fixtures";

/**
 * Icon-only controls name themselves and show that name as a tooltip: after 700 ms of a resting
 * pointer, at once for the next control within 300 ms, and at once on keyboard focus
 * (docs/product.md#limits). The page's clock is Playwright's, so the delays are counted, not waited.
 */

const tooltip = (page: Page) => page.getByRole("tooltip");

/** From here on the page's timers fire only when the test moves its clock. */
async function stopTheClock(page: Page) {
  await page.clock.pauseAt(new Date(Date.now() + 60_000));
}

test("the editor's icon-only buttons show their names after 700 ms, and the next one at once within 300 ms", async ({ page }) => {
  await page.clock.install();
  await openHydrated(page, "/create");
  await stopTheClock(page);
  const deleteA = page.getByRole("button", { name: "Delete option A of question 1" });
  const deleteB = page.getByRole("button", { name: "Delete option B of question 1" });
  const deleteC = page.getByRole("button", { name: "Delete option C of question 1" });

  await deleteA.hover();
  await page.clock.runFor(699);
  await expect(tooltip(page)).toHaveCount(0);
  await page.clock.runFor(1);
  await expect(tooltip(page)).toHaveText("Delete option A of question 1");

  // Straight on to the next one: no second wait.
  await deleteB.hover();
  await page.clock.runFor(1);
  await expect(tooltip(page)).toHaveText("Delete option B of question 1");

  // Away for longer than 300 ms: the next one waits its 700 ms again.
  await page.getByRole("heading", { name: "Questions" }).hover();
  await page.clock.runFor(301);
  await expect(tooltip(page)).toHaveCount(0);
  await deleteC.hover();
  await page.clock.runFor(699);
  await expect(tooltip(page)).toHaveCount(0);
  await page.clock.runFor(1);
  await expect(tooltip(page)).toHaveText("Delete option C of question 1");

  const handle = page.getByRole("button", { name: "Reorder question 1: drag, or use the arrow keys" });
  await page.getByRole("heading", { name: "Questions" }).hover();
  await page.clock.runFor(301);
  await handle.hover();
  await page.clock.runFor(700);
  await expect(tooltip(page)).toHaveText("Reorder question 1: drag, or use the arrow keys");
});

test("keyboard focus shows the tooltip at once and keeps the focus on the control", async ({ page }) => {
  await page.clock.install();
  // The bare control is swapped for the tooltip's; the focus must be on the new one by the time the
  // swap's changes are seen, or a Tab pressed in between starts from the page's end. Noted from a
  // mutation observer, which runs right after the swap's commit. (The gap showed only on a busy
  // machine, in tests/e2e/keyboard.spec.ts; here it guards the order.)
  await page.addInitScript(() => {
    const dropped: string[] = [];
    Object.assign(window, { focusDrops: dropped });
    new MutationObserver((mutations) => {
      const removedButton = mutations.some((mutation) => [...mutation.removedNodes].some((node) => node instanceof HTMLButtonElement));
      if (removedButton && document.activeElement === document.body) dropped.push("the focus was on the page when a control was swapped");
    }).observe(document, { subtree: true, childList: true });
  });
  await openHydrated(page, "/create");
  await page.getByRole("group", { name: "Question 1", exact: true }).getByLabel("Answer A").focus();
  await page.keyboard.press("Tab");
  const deleteA = page.getByRole("button", { name: "Delete option A of question 1" });
  await expect(tooltip(page)).toHaveText("Delete option A of question 1");
  await expect(deleteA).toBeFocused();
  expect(await page.evaluate(() => (window as unknown as { focusDrops: string[] }).focusDrops)).toEqual([]);
  // Enter still works on it.
  await page.keyboard.press("Enter");
  await expect(page.getByRole("group", { name: "Question 1", exact: true }).getByLabel("Answer D")).toHaveCount(0);
});

test("the menu toggle, a toast's and a dialog's close buttons name themselves in their tooltips", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openHydrated(page, "/");
  const toggle = page.getByRole("button", { name: "Open menu" });
  await toggle.hover();
  await expect(tooltip(page)).toHaveText("Open menu");
  await toggle.click();
  await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
  await page.getByRole("button", { name: "Close menu" }).click();

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole("button", { name: "How to Install on iPhone" }).click();
  const dialog = page.getByRole("dialog");
  const closeDialog = dialog.getByRole("button", { name: "Close" });
  await closeDialog.hover();
  await expect(tooltip(page)).toHaveText("Close");
  await closeDialog.click();
  await expect(dialog).toHaveCount(0);

  await openHydrated(page, "/auth");
  await page.getByRole("button", { name: "Continue as Guest" }).click();
  const toast = page.locator(".toast");
  await expect(toast).toContainText("You can explore quizzes as a guest");
  await toast.getByRole("button", { name: "Close" }).hover();
  await expect(tooltip(page)).toHaveText("Close");
});

test.describe("on a phone", () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });

  test("tapping an icon-only control never downloads the tooltip code", async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await openHydrated(page, "/join");
    await page.getByRole("button", { name: "Open menu" }).tap();
    await expect(page.getByRole("navigation", { name: "Mobile" })).toBeVisible();
    await page.getByRole("button", { name: "Close menu" }).tap();
    await expect(page.getByRole("navigation", { name: "Mobile" })).toBeHidden();
    expect(scripts.filter((url) => url.includes("tooltip-popup"))).toEqual([]);
    await expect(tooltip(page)).toHaveCount(0);
  });
});
