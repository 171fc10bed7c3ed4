import type { Page } from "@playwright/test";
import { expect, openHydrated, test, waitForHydration } from "./fixtures";

/**
 * The plans page in Chromium. Billing talks through the real `stripe` SDK to the local stand-in
 * started by playwright.config.ts (tests/fakes/stripe.ts), which also serves the Checkout page.
 */

let accounts = 0;

async function registerAndSignIn(page: Page) {
  const id = `payer${Date.now().toString(36)}${++accounts}`;
  await openHydrated(page, "/auth?tab=register");
  const form = page.getByRole("form", { name: "Register" });
  await form.getByLabel("Username").fill(id);
  await form.getByLabel("Email").fill(`${id}@example.com`);
  await form.getByLabel("Password", { exact: true }).fill("first-password");
  await form.getByLabel("Confirm Password").fill("first-password");
  await form.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/(\?.*)?$/);
}

const planCard = (page: Page, name: string) =>
  page
    .getByRole("list", { name: "Plans" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name }) });

test("a signed-out visitor sees every plan and is asked to sign in to subscribe", async ({ page }) => {
  await openHydrated(page, "/subscription");
  for (const [name, price, perDay] of [
    ["Free", "$0", "10"],
    ["Standard", "$4.99", "50"],
    ["Premium", "$9.99", "100"],
  ]) {
    const card = planCard(page, name);
    await expect(card).toContainText(`${price} / month`);
    await expect(card).toContainText(`${perDay} AI quizzes per day`);
  }
  await expect(planCard(page, "Premium")).toContainText(/Unlimited AI quizzes/);
  await expect(page.getByText("Plans are billed monthly and can be cancelled at any time.")).toBeVisible();
  await page.getByRole("button", { name: "Subscribe to Standard" }).click();
  await expect(page.locator(".toast-title")).toHaveText("Please sign in");
  await expect(page.locator(".toast-description")).toHaveText("You need to be signed in to subscribe to a plan.");
});

test("a free user sees Current on Free and is sent to Stripe Checkout for Standard", async ({ page }, testInfo) => {
  await registerAndSignIn(page);
  await page.getByRole("link", { name: "Upgrade Plan" }).first().click();
  await expect(page).toHaveURL(/\/subscription$/);
  await waitForHydration(page);
  const free = planCard(page, "Free");
  await expect(free.getByText("Current", { exact: true })).toBeVisible();
  await expect(free.getByRole("button", { name: "Current Plan" })).toBeDisabled();
  await expect(planCard(page, "Premium").getByText("Current", { exact: true })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("plans.png"), fullPage: true });

  const createSession = page.waitForRequest((request) => request.url().endsWith("/api/subscription/create-session") && request.method() === "POST");
  await page.getByRole("button", { name: "Subscribe to Standard" }).click();
  expect((await createSession).postDataJSON()).toEqual({ planId: 2 });
  await expect(page.getByRole("heading", { name: "Fake Stripe Checkout" })).toBeVisible();
  expect(page.url()).toMatch(/\/checkout\/cs_test_\d+$/);
  await expect(page.locator("[data-price]")).toHaveAttribute("data-price", "price_e2e_standard");

  // Back from Checkout: the page thanks the user; the plan changes when Stripe's webhook arrives.
  await page.getByRole("link", { name: "Back to Quiz Night" }).click();
  await expect(page.locator(".toast-title")).toHaveText("Subscription started");
  await expect(page).toHaveURL(/\/subscription$/);

  // Now a Stripe customer: Manage billing on My Account opens the customer portal.
  await openHydrated(page, "/account");
  await page.getByRole("button", { name: "Manage billing" }).click();
  await expect(page.getByRole("heading", { name: "Fake Stripe customer portal" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Subscribe still goes to Checkout", async ({ page }) => {
    const id = `nojs${Date.now().toString(36)}`;
    const response = await page.request.post("/auth", {
      form: { intent: "register", username: id, email: `${id}@example.com`, password: "first-password", confirmPassword: "first-password" },
    });
    expect(response.ok()).toBe(true);
    await page.goto("/subscription");
    await page.getByRole("button", { name: "Subscribe to Premium" }).click();
    await expect(page.getByRole("heading", { name: "Fake Stripe Checkout" })).toBeVisible();
  });
});
