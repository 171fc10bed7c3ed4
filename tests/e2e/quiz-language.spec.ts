import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, openHydrated, test } from "./fixtures";

/**
 * The quiz pages' words that only the browser writes (the editor's checks before saving, the AI
 * form's sliders and its reply) in the page's language: the rules raise each message with its code,
 * and the page says it from the code through the `errors` catalog (docs/decisions/0047-errors-as-codes.md).
 */

/** A browser that asks for `locale` (Chromium sends it as Accept-Language), failing on any console error. */
async function browserIn(browser: Browser, locale: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return { context, page, errors };
}

test("the editor's own checks speak German, numbers and all", async ({ browser }) => {
  const { context, page, errors } = await browserIn(browser, "de-DE");
  await openHydrated(page, "/create");
  await expect(page.getByRole("heading", { name: "Quiz erstellen" })).toBeVisible();

  await page.getByRole("button", { name: "Quiz speichern" }).click();
  await expect(page.locator(".toast-title")).toHaveText("Titel fehlt");
  await expect(page.locator(".toast-description")).toHaveText("Bitte gib deinem Quiz einen Titel.");

  await page.getByLabel("Titel").fill("Freitagabend");
  await page.getByRole("button", { name: "Frage hinzufügen" }).click();
  const second = page.getByTestId("question-1");
  await second.getByLabel("Fragetext").fill("Zweite Frage?");
  await page.getByRole("button", { name: "Quiz speichern" }).click();
  // Built in English with the question's number ("Question 1 is empty."), shown in German.
  await expect(page.locator(".toast-title")).toHaveText("Leere Frage");
  await expect(page.locator(".toast-description")).toHaveText("Frage 1 ist leer.");
  await expect(page.getByText("Frage 2 hat eine leere Antwortoption.").first()).toBeVisible();

  await second.getByRole("button", { name: "Frage 2 nach oben verschieben" }).click();
  await expect(page.getByText("Frage 2 ist jetzt an Position 1 von 2.")).toBeAttached();
  expect(errors).toEqual([]);
  await context.close();
});

test("the AI form speaks French, and the quiz is written in the language chosen on it", async ({ browser }) => {
  const { context, page, errors } = await browserIn(browser, "en-US");
  await openHydrated(page, "/auth");
  await page.getByRole("button", { name: "Continue as Guest" }).click();
  await expect(page).toHaveURL(/\/$/);
  await openHydrated(page, "/ai-quiz");
  // The footer's switcher reloads the page in French.
  await page.getByRole("contentinfo").getByRole("button", { name: "Français" }).click();
  await page.waitForLoadState("networkidle");
  await expect(page.getByRole("heading", { name: "Générateur de quiz IA" })).toBeVisible();
  await expect(page.getByLabel("Langue du quiz")).toHaveValue("fr");

  const seconds = page.getByLabel(/Temps par question/);
  await seconds.focus();
  await seconds.press("Home");
  await expect(page.getByText("Temps par question : 10 secondes")).toBeVisible();

  await page.getByRole("button", { name: "Générer le quiz" }).click();
  await expect(page.locator(".toast-title")).toHaveText("Sujet requis");
  await expect(page.locator(".toast-description")).toHaveText("Veuillez décrire le sujet de votre quiz.");

  await page.getByLabel("Sujet", { exact: true }).fill("Volcanes");
  await page.getByLabel("Langue du quiz").selectOption("es");
  await expect(page.getByLabel("Nom du quiz (facultatif)")).toHaveAttribute("placeholder", "Cuestionario de Volcanes (nivel intermedio)");
  await page.getByRole("button", { name: "Générer le quiz" }).click();
  // The page's words in French; the quiz's own, suggested by the server in the language sent, in Spanish.
  await expect(page.locator(".toast-title")).toHaveText("Quiz généré !");
  await expect(page.locator(".toast-description")).toHaveText("« Cuestionario de Volcanes (nivel intermedio) » est prêt avec 5 questions. Ouverture du salon…");
  await expect(page).toHaveURL(/\/waiting\/[A-Z0-9]{6}$/);
  expect(errors).toEqual([]);
  await context.close();
});
