import { expect, test } from "./fixtures";

test("the home page lists the demo quizzes and hydrates without errors", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Quiz Night", level: 1 })).toBeVisible();
  for (const title of ["General Knowledge", "Science Sprint", "Around the World"]) {
    await expect(page.getByText(title)).toBeVisible();
  }
});

test("an unknown page shows the not-found screen with HTTP 404", async ({ page, consoleErrors }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
  await expect(page.getByText("Did you forget to add the page to the router?")).toBeVisible();
  // Chromium logs the document's own 404 status; that one is expected here.
  const expected = "Failed to load resource: the server responded with a status of 404 (Not Found)";
  expect(consoleErrors.filter((error) => error === expected)).toHaveLength(1);
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => error !== expected));
});
