import { expect, test } from "./fixtures";

const backgroundOf = (page: import("@playwright/test").Page) => page.evaluate(() => getComputedStyle(document.body.parentElement!).backgroundColor);
const LIGHT = "rgb(248, 247, 252)";
const DARK = "rgb(17, 24, 39)";

test("the theme follows the system's colour scheme", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/join");
  expect(await backgroundOf(page)).toBe(DARK);
  await page.emulateMedia({ colorScheme: "light" });
  expect(await backgroundOf(page)).toBe(LIGHT);
});

test("the footer's switch overrides it, stays on the same page, and is remembered by this browser", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/join");
  await page.getByRole("button", { name: "Colour theme: Dark" }).click();
  await expect(page.getByRole("button", { name: "Colour theme: Dark" })).toHaveAttribute("aria-pressed", "true");
  await expect(page).toHaveURL(/\/join$/);
  expect(await backgroundOf(page)).toBe(DARK);
  await page.reload();
  expect(await backgroundOf(page)).toBe(DARK);
  await page.getByRole("button", { name: "Colour theme: System" }).click();
  await expect(page.getByRole("button", { name: "Colour theme: System" })).toHaveAttribute("aria-pressed", "true");
  expect(await backgroundOf(page)).toBe(LIGHT);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the switch is a plain form", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/");
    await page.getByRole("button", { name: "Colour theme: Dark" }).click();
    await expect(page).toHaveURL(/\/$/);
    expect(await backgroundOf(page)).toBe(DARK);
  });
});
