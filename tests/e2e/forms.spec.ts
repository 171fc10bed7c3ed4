import type { Page } from "@playwright/test";
import { expect, openHydrated, test } from "./fixtures";

/**
 * Chromium logs a console error for every 4xx/5xx document or fetch. A refused form post answers
 * 400/404, and a lobby that does not exist yet answers 404: those are expected here, nothing else.
 */
function allowStatusLogs(consoleErrors: string[], ...statuses: number[]) {
  const expected = (error: string) => statuses.some((status) => error.startsWith(`Failed to load resource: the server responded with a status of ${status} `));
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !expected(error)));
}

/** An aborted request is logged as a failed resource; the tests that abort one expect that. */
function allowNetworkFailureLogs(consoleErrors: string[]) {
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !error.startsWith("Failed to load resource: net::ERR_FAILED")));
}

const question = (page: Page, n: number) => page.getByRole("group", { name: `Question ${n}`, exact: true });

async function fillQuestion(page: Page, n: number, text: string, answers: string[]) {
  const card = question(page, n);
  await card.getByLabel("Question text").fill(text);
  for (const [index, answer] of answers.entries()) await card.getByLabel(`Answer ${"ABCD"[index]}`).fill(answer);
}

async function expectToast(page: Page, title: string, description: string) {
  await expect(page.locator(".toast-title")).toHaveText(title);
  await expect(page.locator(".toast-description")).toHaveText(description);
}

test.describe("with JavaScript", () => {
  test("create quiz names the first problem in a toast and never removes the last question", async ({ page }) => {
    await openHydrated(page, "/create");
    await expect(question(page, 1).getByRole("textbox")).toHaveCount(5);
    await expect(page.getByLabel("Time limit")).toHaveValue("20");
    await expect(page.getByLabel("Visibility")).toHaveValue("private");
    // What the choice means, read with the control.
    await expect(page.getByLabel("Visibility")).toHaveAccessibleDescription(
      "Public: anyone can find, play and host it, and its live games are listed on Featured Quizzes. Private: only you can see and host it; players join your games with the code.",
    );

    await page.getByRole("button", { name: "Save Quiz" }).click();
    await expectToast(page, "Missing title", "Please give your quiz a title.");
    await expect(page.getByText("Please give your quiz a title.", { exact: true }).first()).toBeVisible();
    await expect(page).toHaveURL(/\/create$/);

    await page.getByLabel("Title").fill("Friday night");
    await page.getByRole("button", { name: "Save Quiz" }).click();
    await expectToast(page, "Empty question", "Question 1 is empty.");

    await question(page, 1).getByLabel("Question text").fill("2 + 2?");
    await page.getByRole("button", { name: "Save Quiz" }).click();
    await expectToast(page, "Empty answer", "Question 1 has an empty answer option.");

    await question(page, 1).getByRole("button", { name: "Remove question 1" }).click();
    await expectToast(page, "Cannot remove question", "A quiz must have at least one question.");
    await expect(question(page, 1)).toBeVisible();

    await page.getByRole("button", { name: "Add Question" }).click();
    await expect(question(page, 2).getByLabel("Question text")).toBeFocused();
    await question(page, 2).getByLabel("Question text").fill("Second");
    await question(page, 1).getByRole("button", { name: "Remove question 1" }).click();
    await expect(question(page, 2)).toHaveCount(0);
    await expect(question(page, 1).getByLabel("Question text")).toHaveValue("Second");
  });

  test("a valid quiz reads Saving... while it is saved, then its host goes to the lobby", async ({ page, consoleErrors }) => {
    await openHydrated(page, "/create");
    await page.getByLabel("Title").fill("Saved with JavaScript");
    await fillQuestion(page, 1, "2 + 2?", ["3", "4", "5", "22"]);
    await question(page, 1).getByRole("radio", { name: "B" }).check();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/create\.data/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Save Quiz" }).click();
    await expect(page.getByRole("button", { name: "Saving..." })).toBeDisabled();
    release();
    // The lobby drops its flash parameter once the host has joined, so the toast is what shows it arrived.
    await expect(page).toHaveURL(/\/waiting\/[A-Z0-9]{6}/);
    await expect(page.getByText("Quiz created!", { exact: true })).toBeVisible();
    allowStatusLogs(consoleErrors, 404);
  });

  test("a save that cannot reach the server says the quiz was not created", async ({ page, consoleErrors }) => {
    await openHydrated(page, "/create");
    await page.getByLabel("Title").fill("Offline quiz");
    await fillQuestion(page, 1, "2 + 2?", ["3", "4", "5", "22"]);
    await page.route(/\/create\.data/, (route) => route.abort());
    await page.getByRole("button", { name: "Save Quiz" }).click();
    await expectToast(page, "Failed to create quiz", "There was an error creating your quiz. Please try again.");
    await expect(page.getByLabel("Title")).toHaveValue("Offline quiz");
    allowNetworkFailureLogs(consoleErrors);
  });

  test("join normalises the code as typed and enables Join Game only with both fields", async ({ page }) => {
    await openHydrated(page, "/join");
    const join = page.getByRole("button", { name: "Join Game" });
    await expect(join).toBeDisabled();

    await page.getByLabel("Game code").pressSequentially("ab-c12x9");
    await expect(page.getByLabel("Game code")).toHaveValue("ABC12X");
    await expect(join).toBeDisabled();

    await page.getByLabel("Nickname").fill("Sam");
    await expect(join).toBeEnabled();
    await page.getByLabel("Nickname").fill("   ");
    await expect(join).toBeDisabled();
    await page.getByLabel("Nickname").fill("x".repeat(20));
    await expect(page.getByLabel("Nickname")).toHaveValue("x".repeat(15));
    await page.getByLabel("Game code").fill("");
    await expect(join).toBeDisabled();
  });

  test("join checks the code with the browser's own constraint and says so beside the field, without a form library", async ({ page }) => {
    const scripts: string[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") scripts.push(response.url());
    });
    await openHydrated(page, "/join");
    await page.getByLabel("Game code").fill("ab1");
    await page.getByLabel("Nickname").fill("Sam");
    await page.getByRole("button", { name: "Join Game" }).click();
    await expect(page.locator("#gameCode-error")).toHaveText("Quiz code must be 6 characters");
    await expect(page.getByLabel("Game code")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Game code")).toBeFocused();
    await expect(page).toHaveURL(/\/join$/);
    // The message goes as soon as the code changes.
    await page.getByLabel("Game code").pressSequentially("c23");
    await expect(page.locator("#gameCode-error")).toHaveCount(0);
    await expect(page.getByLabel("Game code")).not.toHaveAttribute("aria-invalid");
    // docs/decisions/0025-player-download.md: no zod and no conform on a player's phone.
    const sources = await Promise.all(scripts.map(async (url) => (await page.request.get(url)).text()));
    expect(sources.filter((source) => source.includes("ZodError") || source.includes("conform"))).toEqual([]);
  });

  test("join says when no game has the code", async ({ page }) => {
    await openHydrated(page, "/join");
    await page.getByLabel("Game code").fill("ZZZZ99");
    await page.getByLabel("Nickname").fill("Sam");
    await page.getByRole("button", { name: "Join Game" }).click();
    await expect(page.locator("form .form-error")).toHaveText("Game not found. Check the code and try again.");
    await expect(page.getByRole("button", { name: "Join Game" })).toBeEnabled();
    await expect(page).toHaveURL(/\/join$/);
  });

  test("a live game's Join Game fills in its code", async ({ page }) => {
    const quiz = await (await page.request.post("/api/quizzes", { data: { title: "Listed quiz", timeLimit: 30, isPublic: true } })).json();
    await page.request.post("/api/questions", {
      data: { quizId: quiz.id, order: 0, text: "Q?", answers: ["a", "b", "c", "d"], correctAnswerIndex: 0 },
    });
    const listed = await (await page.request.post("/api/games", { data: { quizId: quiz.id } })).json();

    await openHydrated(page, "/join");
    const session = page.getByRole("listitem").filter({ hasText: listed.gameCode });
    await expect(session.getByRole("heading", { name: "Listed quiz" })).toBeVisible();
    await expect(session).toContainText("Open");
    await expect(session).toContainText("30 s per question");
    await session.getByRole("link", { name: "Join Game" }).click();
    await expect(page).toHaveURL(new RegExp(`/join\\?code=${listed.gameCode}$`));
    await expect(page.getByLabel("Game code")).toHaveValue(listed.gameCode);
    await expect(page.getByLabel("Nickname")).toBeFocused();
  });

  test("a live game's Start Game opens its lobby for its host, and tells anyone else that only the host can start it", async ({ page, browser }) => {
    await openHydrated(page, "/host");
    await page.getByRole("radio", { name: "Science Sprint" }).check();
    await page.getByLabel("Host name").fill("Sam");
    await page.getByRole("button", { name: "Host Game" }).click();
    await expect(page).toHaveURL(/\/waiting\/[A-Z0-9]{6}/);
    const code = new URL(page.url()).pathname.split("/").pop()!;
    // The host leaves its lobby (the game goes on without it), then finds its way back from the Join page.
    await page.getByRole("button", { name: "Leave" }).click();
    await expect(page).toHaveURL(/\/$/);

    await openHydrated(page, "/join");
    const mine = page.getByRole("listitem").filter({ hasText: code });
    // Listed, and as this browser's game: Start Game, not the line everyone else reads.
    await expect(mine).toBeVisible();
    await expect(mine).not.toContainText("Only the host can start the game.");
    const open = mine.getByRole("link", { name: "Start Game" });
    await expect(open).toHaveAttribute("href", `/waiting/${code}`);
    await open.click();
    await expect(page).toHaveURL(new RegExp(`/waiting/${code}$`));
    await expect(page.getByRole("button", { name: "Start Game" })).toBeVisible();

    const other = await (await browser.newContext()).newPage();
    await openHydrated(other, "/join");
    const theirs = other.getByRole("listitem").filter({ hasText: code });
    await expect(theirs).toContainText("Only the host can start the game.");
    await expect(theirs.getByRole("link", { name: "Start Game" })).toHaveCount(0);
    await expect(theirs.getByRole("button", { name: "Start Game" })).toHaveCount(0);
    await expect(theirs.getByRole("link", { name: "Join Game" })).toBeVisible();
    await other.context().close();
  });

  test("host checks the code and host name before posting", async ({ page }) => {
    await openHydrated(page, "/host");
    await page.getByLabel("Quiz code").pressSequentially("ab1");
    await expect(page.getByLabel("Quiz code")).toHaveValue("AB1");
    await page.getByLabel("Host name").fill("S");
    await page.getByRole("button", { name: "Host Game" }).click();
    await expect(page.getByText("Quiz code must be 6 characters")).toBeVisible();
    await expect(page.getByText("Host name must be between 2-15 characters")).toBeVisible();

    // Choosing a quiz takes the place of the code.
    await page.getByRole("radio", { name: "General Knowledge" }).check();
    await expect(page.getByLabel("Quiz code")).toHaveValue("");
    await expect(page.getByText("Quiz code must be 6 characters")).toHaveCount(0);
    await page.getByLabel("Quiz code").fill("ABC123");
    await expect(page.getByRole("radio", { name: "General Knowledge" })).not.toBeChecked();
  });

  test("a host request that cannot reach the server says so", async ({ page, consoleErrors }) => {
    await openHydrated(page, "/host");
    await page.getByRole("radio", { name: "Science Sprint" }).check();
    await page.getByLabel("Host name").fill("Sam");
    await page.route(/\/host\.data/, (route) => route.abort());
    await page.getByRole("button", { name: "Host Game" }).click();
    await expectToast(page, "Connection Error", "Failed to connect to the game server. Please try again.");
    await expect(page.getByRole("button", { name: "Host Game" })).toBeEnabled();
    allowNetworkFailureLogs(consoleErrors);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("create with a missing title shows the message and keeps everything typed", async ({ page, consoleErrors }) => {
    await page.goto("/create");
    await page.getByLabel("Description (optional)").fill("Questions for the pub");
    await page.getByLabel("Time limit").selectOption("60");
    await page.getByLabel("Visibility").selectOption("public");
    await fillQuestion(page, 1, "2 + 2?", ["3", "4", "5", "22"]);
    await question(page, 1).getByRole("radio", { name: "B" }).check();
    await page.getByRole("button", { name: "Save Quiz" }).click();

    await expect(page.getByText("Please give your quiz a title.")).toBeVisible();
    await expect(page.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Description (optional)")).toHaveValue("Questions for the pub");
    await expect(page.getByLabel("Time limit")).toHaveValue("60");
    await expect(page.getByLabel("Visibility")).toHaveValue("public");
    await expect(question(page, 1).getByLabel("Question text")).toHaveValue("2 + 2?");
    await expect(question(page, 1).getByLabel("Answer D")).toHaveValue("22");
    await expect(question(page, 1).getByRole("radio", { name: "B" })).toBeChecked();
    allowStatusLogs(consoleErrors, 400);
  });

  test("create adds and removes questions through the server", async ({ page, consoleErrors }) => {
    await page.goto("/create");
    await page.getByLabel("Title").fill("Two rounds");
    await fillQuestion(page, 1, "First?", ["a", "b", "c", "d"]);
    await page.getByRole("button", { name: "Add Question" }).click();
    await expect(question(page, 2)).toBeVisible();
    await expect(page.getByLabel("Title")).toHaveValue("Two rounds");
    await fillQuestion(page, 2, "Second?", ["e", "f", "g", "h"]);

    await question(page, 1).getByRole("button", { name: "Remove question 1" }).click();
    await expect(question(page, 2)).toHaveCount(0);
    await expect(question(page, 1).getByLabel("Question text")).toHaveValue("Second?");

    await question(page, 1).getByRole("button", { name: "Remove question 1" }).click();
    await expect(page.getByRole("alert")).toHaveText("Cannot remove question: A quiz must have at least one question.");
    await expect(question(page, 1).getByLabel("Question text")).toHaveValue("Second?");
    allowStatusLogs(consoleErrors, 400);
  });

  test("a valid quiz is created and its host sent to the lobby", async ({ page, consoleErrors }) => {
    await page.goto("/create");
    await page.getByLabel("Title").fill("No script quiz");
    await fillQuestion(page, 1, "2 + 2?", ["3", "4", "5", "22"]);
    await page.getByLabel("Answer D").press("Enter");
    await expect(page).toHaveURL(/\/waiting\/[A-Z0-9]{6}\?created=1$/);
    allowStatusLogs(consoleErrors, 404);
  });

  test("join lets the browser refuse a blank field, and shows the server's message for a nickname it refuses", async ({ page, consoleErrors }) => {
    await page.goto("/join?code=zz-zz99");
    await page.getByLabel("Nickname").fill("   ");
    await page.getByRole("button", { name: "Join Game" }).click();
    // Refused before posting: the browser's own check (pattern), the page unchanged.
    expect(await page.getByLabel("Nickname").evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(true);
    await expect(page).toHaveURL(/\/join\?code=zz-zz99$/);

    await page.getByLabel("Nickname").fill("sh1thead");
    await page.getByRole("button", { name: "Join Game" }).click();
    await expect(page.locator("#nickname-error")).toHaveText("That nickname is not allowed here. Please choose another one.");
    await expect(page.getByLabel("Nickname")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Nickname")).toHaveValue("sh1thead");
    await expect(page.getByLabel("Game code")).toHaveValue("ZZZZ99");
    allowStatusLogs(consoleErrors, 400);
  });

  test("join with an unknown code shows the not-found error beside the code", async ({ page, consoleErrors }) => {
    await page.goto("/join");
    await page.getByLabel("Game code").fill("zz-zz99");
    await page.getByLabel("Nickname").fill("Sam");
    await page.getByRole("button", { name: "Join Game" }).click();
    await expect(page.locator("#gameCode-error")).toHaveText("Game not found. Check the code and try again.");
    await expect(page.getByLabel("Game code")).toHaveValue("ZZZZ99");
    await expect(page.getByLabel("Nickname")).toHaveValue("Sam");
    allowStatusLogs(consoleErrors, 404);
  });

  test("host shows both messages, then hosts a chosen quiz that the join page then lists", async ({ page, consoleErrors }) => {
    await page.goto("/host");
    await page.getByLabel("Host name").fill("S");
    await page.getByRole("button", { name: "Host Game" }).click();
    await expect(page.getByText("Quiz code must be 6 characters")).toBeVisible();
    await expect(page.getByText("Host name must be between 2-15 characters")).toBeVisible();
    await expect(page.getByLabel("Host name")).toHaveValue("S");

    await page.getByRole("radio", { name: "Around the World" }).check();
    await page.getByLabel("Host name").fill("Sam");
    await page.getByRole("button", { name: "Host Game" }).click();
    await expect(page).toHaveURL(/\/waiting\/[A-Z0-9]{6}\?hosted=1&hostName=Sam$/);
    const gameCode = /\/waiting\/([A-Z0-9]{6})/.exec(page.url())![1];

    await page.goto("/join");
    const session = page.getByRole("listitem").filter({ hasText: gameCode });
    await expect(session.getByRole("heading", { name: "Around the World" })).toBeVisible();
    await session.getByRole("link", { name: "Join Game" }).click();
    await expect(page).toHaveURL(new RegExp(`/join\\?code=${gameCode}$`));
    await expect(page.getByLabel("Game code")).toHaveValue(gameCode);
    allowStatusLogs(consoleErrors, 400, 404);
  });
});
