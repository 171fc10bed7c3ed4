/**
 * The interface's language in a real browser (docs/decisions/0029-languages.md): a German browser
 * gets German pages from the server itself, the footer's switcher changes the language for this
 * browser and keeps it, and the messages the page's own script produces speak it too.
 */
import { expect, test } from "./fixtures";

test.use({ locale: "de-DE" });

const htmlLang = (html: string) => /<html[^>]*\blang="([a-z-]+)"/.exec(html)?.[1];

test("a German browser gets the home and join pages in German, in the server's HTML before any script runs", async ({ page }) => {
  const home = await page.goto("/");
  const homeHtml = await home!.text();
  expect(home!.headers()["content-language"]).toBe("de");
  expect(htmlLang(homeHtml)).toBe("de");
  expect(homeHtml).toContain("KI-Quiz erstellen");
  expect(homeHtml).not.toContain("Create AI Quiz");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("link", { name: "Quiz beitreten" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Warum Quiz Night" })).toBeVisible();

  const join = await page.goto("/join");
  const joinHtml = await join!.text();
  expect(htmlLang(joinHtml)).toBe("de");
  expect(joinHtml).toContain("<title>Spiel beitreten – Quiz Night</title>");
  expect(joinHtml).toMatch(/<label for="gameCode">Spielcode<\/label>/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Spiel beitreten");
  await expect(page).toHaveTitle("Spiel beitreten – Quiz Night");
  await expect(page.getByLabel("Spitzname")).toBeVisible();
});

test("the footer's switcher changes the language, keeps it across a reload, and the page's own form check speaks it", async ({ page }) => {
  await page.goto("/join");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Spiel beitreten");
  const switcher = page.getByRole("form", { name: "Sprache" });

  await switcher.getByRole("button", { name: "Español" }).click();
  await expect(page).toHaveURL(/\/join$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Unirse a un juego");
  await expect(page.getByRole("button", { name: "Español" })).toHaveAttribute("aria-pressed", "true");

  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "es");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Unirse a un juego");

  // A code too short is refused by the page's script, before anything is posted: its English message arrives in Spanish.
  // Once the script runs, the button waits, disabled, for both fields (docs/product.md#screens): the check below is the script's.
  await expect(page.getByRole("button", { name: "Unirse", exact: true })).toBeDisabled();
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  await page.getByLabel("Código del juego").fill("AB");
  await page.getByLabel("Apodo").fill("Sam");
  await page.getByRole("button", { name: "Unirse", exact: true }).click();
  await expect(page.locator("#gameCode-error")).toHaveText("El código debe tener 6 caracteres");
  await expect(page.getByLabel("Código del juego")).toHaveAttribute("aria-invalid", "true");
  expect(posts).toEqual([]);

  await page.getByRole("form", { name: "Idioma" }).getByRole("button", { name: "English" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Join a Game");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Join a Game");
  await expect(page.getByRole("button", { name: "English" })).toHaveAttribute("aria-pressed", "true");
});
