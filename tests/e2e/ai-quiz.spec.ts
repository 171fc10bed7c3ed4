import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, openHydrated, test, waitForHydration } from "./fixtures";

/**
 * AI quiz generation in Chromium. The server talks through the real `openai` SDK to the local
 * stand-in started by playwright.config.ts (tests/fakes/openai.ts), which writes the questions of
 * the requested kinds and the right answer of a multiple-choice one as "Right N"; the server
 * shuffles where it lands.
 */

async function continueAsGuest(page: Page) {
  await openHydrated(page, "/auth");
  await page.getByRole("button", { name: "Continue as Guest" }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** Chromium logs every 4xx/5xx fetch as a console error; a refused generation is expected to. */
function allowStatusLogs(consoleErrors: string[], ...statuses: number[]) {
  const expected = (error: string) => statuses.some((status) => error.startsWith(`Failed to load resource: the server responded with a status of ${status} `));
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !expected(error)));
}

async function newPlayer(browser: Browser, gameCode: string, nickname: string): Promise<Page> {
  const player = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await player.goto(`/join?code=${gameCode}`);
  await player.getByLabel("Nickname").fill(nickname);
  await player.getByRole("button", { name: "Join Game" }).click();
  await expect(player.getByText("Waiting for host to start the game...")).toBeVisible();
  return player;
}

test("a signed-out visitor sees Login Required with Sign In and Back to Home", async ({ page }) => {
  await openHydrated(page, "/ai-quiz");
  await expect(page.getByRole("heading", { name: "Login Required" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/auth?redirectTo=%2Fai-quiz");
  await page.getByRole("link", { name: "Back to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("a guest generates a quiz, lands in its lobby as host, and plays it to the podium", async ({ page, browser }, testInfo) => {
  test.setTimeout(90_000);
  await continueAsGuest(page);
  await page.getByRole("navigation").getByRole("link", { name: "AI Quiz" }).first().click();
  await expect(page).toHaveURL(/\/ai-quiz$/);
  await waitForHydration(page);
  await expect(page.getByTestId("ai-quota")).toContainText("AI quizzes left: 5 of 5");

  // No topic: the Topic Required toast (docs/product.md#messages) and the message beside the field.
  await page.getByRole("button", { name: "Generate Quiz" }).click();
  await expect(page.locator(".toast-title")).toHaveText("Topic Required");
  await expect(page.locator(".toast-description")).toHaveText("Please describe what you want your quiz to be about.");
  await expect(page.getByLabel("Topic")).toBeFocused();

  // The defaults, then a chip, the suggested name, and the sliders.
  await expect(page.getByLabel("Difficulty")).toHaveValue("medium");
  await expect(page.getByLabel("Question kinds")).toHaveValue("mixed");
  await expect(page.getByLabel("Question kinds").locator("option")).toHaveText([
    "Mix of kinds",
    "Multiple choice",
    "True or false",
    "Multi-select",
    "Type the answer",
    "Closest number",
    "Poll",
  ]);
  await expect(page.getByLabel(/Number of questions/)).toHaveValue("5");
  await expect(page.getByLabel(/Time per question/)).toHaveValue("20");
  await expect(page.getByRole("group", { name: "Popular topics" }).getByRole("button")).toHaveCount(12);
  await expect(page.getByLabel("Quiz name (optional)")).toHaveAttribute("placeholder", "AI Generated Quiz");
  await page.getByRole("button", { name: "Space & Astronomy" }).click();
  await expect(page.getByLabel("Topic")).toHaveValue("Space & Astronomy");
  await expect(page.getByRole("button", { name: "Space & Astronomy" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByLabel("Quiz name (optional)")).toHaveAttribute("placeholder", "Intermediate Space & Astronomy Quiz");
  await page.getByLabel("Topic").fill("Planets [delay]");
  await page.getByLabel("Difficulty").selectOption("hard");
  // Multiple choice only, so the player below can pick "Right N" in every question.
  await page.getByLabel("Question kinds").selectOption("choice");
  await expect(page.getByLabel("Quiz name (optional)")).toHaveAttribute("placeholder", "Expert Planets [delay] Quiz");
  await page.getByLabel("Quiz name (optional)").fill("Planet Night");
  const questionCount = page.getByLabel(/Number of questions/);
  await questionCount.focus();
  for (let i = 0; i < 2; i++) await page.keyboard.press("ArrowLeft");
  await expect(questionCount).toHaveValue("3");
  await expect(page.getByText("Number of questions: 3")).toBeVisible();
  const seconds = page.getByLabel(/Time per question/);
  await seconds.focus();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByText("Time per question: 10 seconds")).toBeVisible();

  await page.screenshot({ path: testInfo.outputPath("ai-form.png"), fullPage: true });
  await page.getByRole("button", { name: "Generate Quiz" }).click();
  const waiting = page.getByRole("button", { name: "Creating Your Quiz..." });
  await expect(waiting).toBeVisible();
  await expect(waiting).toBeDisabled();
  await expect(page.locator(".toast-title")).toHaveText("Quiz Generated!");
  await expect(page.locator(".toast-description")).toHaveText('"Planet Night" is ready with 3 questions. Opening the lobby...');
  await expect(page).toHaveURL(/\/waiting\/[A-Z0-9]{6}$/);
  const gameCode = new URL(page.url()).pathname.split("/").pop()!;
  await expect(page.getByRole("main").getByText("Planet Night", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Start Game" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("ai-lobby.png") });

  const player = await newPlayer(browser, gameCode, "Vera");
  await expect(page.getByTestId("player-count")).toHaveText("1");
  await page.getByRole("button", { name: "Start Game" }).click();
  for (let n = 1; n <= 3; n++) {
    await expect(page.getByRole("heading", { name: `Question ${n} of 3` })).toBeVisible({ timeout: 15_000 });
    await expect(player.getByText(`Planets [delay] question ${n}?`)).toBeVisible();
    await player.getByRole("button", { name: new RegExp(`Right ${n}$`) }).click();
    await expect(player.getByRole("heading", { name: "Correct!" })).toBeVisible();
  }
  await expect(player).toHaveURL(`/results/${gameCode}`, { timeout: 15_000 });
  await expect(player.getByTestId("own-rank")).toContainText("You finished #1 of 1");

  // One AI quiz spent.
  await page.goto("/ai-quiz");
  await expect(page.getByTestId("ai-quota")).toContainText("AI quizzes left: 4 of 5");
});

test("a failed generation says why and leaves the form as it was", async ({ page, consoleErrors }) => {
  await continueAsGuest(page);
  await openHydrated(page, "/ai-quiz");
  await page.getByLabel("Topic").fill(`Oceans [error-500] ${randomUUID()}`);
  await page.getByRole("button", { name: "Generate Quiz" }).click();
  await expect(page.locator(".toast-title")).toHaveText("Generation Failed");
  await expect(page.locator(".toast-description")).toHaveText("The AI service had a problem (HTTP 500). Please try again.");
  await expect(page.getByRole("alert")).toContainText("Generation Failed: The AI service had a problem (HTTP 500). Please try again.");
  await expect(page.getByRole("button", { name: "Generate Quiz" })).toBeEnabled();
  await expect(page.getByLabel("Topic")).toHaveValue(/^Oceans \[error-500\]/);
  await expect(page.getByTestId("ai-quota")).toContainText("AI quizzes left: 5 of 5");
  expect(page.url()).toMatch(/\/ai-quiz$/);
  allowStatusLogs(consoleErrors, 502);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a chip fills the topic and Generate opens the lobby", async ({ page }) => {
    await page.goto("/auth");
    await page.getByRole("button", { name: "Continue as Guest" }).click();
    await page.goto("/ai-quiz");
    await page.getByRole("button", { name: "Music & Movies" }).click();
    await expect(page.getByLabel("Topic")).toHaveValue("Music & Movies");
    await page.getByRole("button", { name: "Generate Quiz" }).click();
    await expect(page).toHaveURL(/\/waiting\/[A-Z0-9]{6}$/);
    await expect(page.getByRole("main").getByText("Intermediate Music & Movies Quiz", { exact: true })).toBeVisible();
  });
});
