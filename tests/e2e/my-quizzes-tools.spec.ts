import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, openHydrated, test } from "./fixtures";

/** Issue 14 on My Quizzes: duplicate a quiz, and export it as a quiz file or a spreadsheet. */

/**
 * Chromium logs a console error for every 4xx/5xx document or fetch; a lobby may answer 404 before
 * its game is registered: that is expected, nothing else.
 */
function allowStatusLogs(consoleErrors: string[], ...statuses: number[]) {
  const expected = (error: string) => statuses.some((status) => error.startsWith(`Failed to load resource: the server responded with a status of ${status} `));
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !expected(error)));
}

let accounts = 0;

/** Signs up through the /auth form (or, if the page has none, by posting it), signed in afterwards. */
async function register(page: Page, name: string, javaScript = true) {
  const id = `${name}${Date.now().toString(36)}${++accounts}`;
  const account = { username: id, email: `${id}@example.com`, password: "tools-password" };
  if (javaScript) await openHydrated(page, "/auth?tab=register");
  else await page.goto("/auth?tab=register");
  const form = page.getByRole("form", { name: "Register" });
  if ((await form.count()) === 0) {
    const response = await page.request.post("/auth", {
      form: { intent: "register", username: account.username, email: account.email, password: account.password, confirmPassword: account.password },
    });
    expect(response.ok()).toBe(true);
    await page.goto("/");
    return;
  }
  await form.getByLabel("Username").fill(account.username);
  await form.getByLabel("Email").fill(account.email);
  await form.getByLabel("Password", { exact: true }).fill(account.password);
  await form.getByLabel("Confirm Password").fill(account.password);
  await form.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/(\?.*)?$/);
}

/** Makes a one-question quiz in the editor; saving opens its lobby, hosted by this browser. */
async function createQuiz(page: Page, title: string, javaScript = true) {
  if (javaScript) await openHydrated(page, "/create");
  else await page.goto("/create");
  await page.getByLabel("Title").fill(title);
  const card = page.getByRole("group", { name: "Question 1", exact: true });
  await card.getByLabel("Question text").fill("2 + 2?");
  for (const [index, answer] of ["3", "4", "5", "22"].entries()) await card.getByLabel(`Answer ${"ABCD"[index]}`).fill(answer);
  await card.getByRole("group", { name: "Correct answer" }).getByLabel("B", { exact: true }).check();
  await page.getByRole("button", { name: "Save Quiz" }).click();
  await expect(page).toHaveURL(/\/waiting\/[A-Z0-9]{6}/);
  // A browser hosting a game is brought back to its lobby from any page; leaving lets it go elsewhere.
  if (javaScript) {
    await expect(page.getByRole("button", { name: "Start Game" })).toBeVisible();
    await page.getByRole("button", { name: "Leave" }).click();
    await expect(page).toHaveURL(/\/$/);
  }
}

const quizCard = (page: Page, title: string) => page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

test.describe("with JavaScript", () => {
  test("a quiz is duplicated on My Quizzes, and its JSON export downloads the quiz file", async ({ page, consoleErrors }) => {
    await register(page, "copier");
    await createQuiz(page, "Tools quiz");

    await openHydrated(page, "/my-quizzes");
    const original = quizCard(page, "Tools quiz");
    await original.getByRole("button", { name: "Duplicate Tools quiz" }).click();

    await expect(page).toHaveURL(/\/my-quizzes\?duplicated=1&copy=\d+$/);
    await expect(page.getByRole("status").filter({ hasText: "Quiz duplicated. “Copy of Tools quiz” is ready to edit." })).toBeVisible();
    const copy = quizCard(page, "Copy of Tools quiz");
    await expect(copy).toBeVisible();
    await expect(copy).toContainText("1 question · 20 s per question");
    await expect(copy).toContainText("Private");
    await expect(quizCard(page, "Tools quiz")).toBeVisible();
    // Newest first: the copy heads the list.
    await expect(page.locator(".my-quiz-list > li").first().getByRole("heading", { level: 2 })).toHaveText("Copy of Tools quiz");

    // The copy is the owner's to edit, with the same question.
    await copy.getByRole("link", { name: "Edit Copy of Tools quiz" }).click();
    await expect(page).toHaveURL(/\/create\?edit=\d+$/);
    await expect(page.getByLabel("Title")).toHaveValue("Copy of Tools quiz");
    await expect(page.getByRole("group", { name: "Question 1", exact: true }).getByLabel("Question text")).toHaveValue("2 + 2?");

    await openHydrated(page, "/my-quizzes");
    const card = quizCard(page, "Tools quiz");
    const jsonLink = card.getByRole("link", { name: "Export Tools quiz as JSON" });
    await expect(jsonLink).toHaveText("Export (JSON)");
    const csvLink = card.getByRole("link", { name: "Export Tools quiz as CSV" });
    await expect(csvLink).toHaveAttribute("href", /^\/api\/quizzes\/\d+\/export\?format=csv$/);
    await expect(csvLink).toHaveAccessibleDescription(/pictures travel only in the JSON file/i);
    await expect(card.getByRole("link", { name: "Export Tools quiz as Excel" })).toHaveAttribute("href", /^\/api\/quizzes\/\d+\/export\?format=xlsx$/);

    const downloading = page.waitForEvent("download");
    await jsonLink.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.quiz\.json$/);
    const file = JSON.parse(await fs.readFile(await download.path(), "utf8"));
    expect(file).toMatchObject({ format: "quiz-night.quiz", version: 1, title: "Tools quiz", timeLimit: 20 });
    expect(file.questions).toEqual([expect.objectContaining({ kind: "choice", text: "2 + 2?", answers: ["3", "4", "5", "22"], correctAnswerIndex: 1 })]);
    // Downloading leaves the page where it was.
    await expect(page).toHaveURL(/\/my-quizzes$/);
    allowStatusLogs(consoleErrors, 404);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Duplicate posts as a plain form, and the export links are plain downloads", async ({ page, consoleErrors }) => {
    await register(page, "plaincopier", false);
    await createQuiz(page, "Plain tools quiz", false);

    await page.goto("/my-quizzes");
    await quizCard(page, "Plain tools quiz").getByRole("button", { name: "Duplicate Plain tools quiz" }).click();
    await expect(page).toHaveURL(/\/my-quizzes\?duplicated=1&copy=\d+$/);
    await expect(page.getByText("Quiz duplicated. “Copy of Plain tools quiz” is ready to edit.")).toBeVisible();
    await expect(quizCard(page, "Copy of Plain tools quiz")).toContainText("1 question · 20 s per question");

    const downloading = page.waitForEvent("download");
    await quizCard(page, "Copy of Plain tools quiz").getByRole("link", { name: "Export Copy of Plain tools quiz as JSON" }).click();
    const file = JSON.parse(await fs.readFile(await (await downloading).path(), "utf8"));
    expect(file).toMatchObject({ format: "quiz-night.quiz", title: "Copy of Plain tools quiz" });
    allowStatusLogs(consoleErrors, 404);
  });
});
