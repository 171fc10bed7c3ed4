import type { Route } from "@playwright/test";
import { expect, openHydrated, test } from "./fixtures";

/**
 * The account pages in a German browser: what the browser itself writes after hydrating (the form
 * checks' messages, the toasts of a refused sign-in, of a failed logout and of a plan chosen while
 * signed out) is in German too, not only what the server rendered.
 */
test.use({ locale: "de-DE" });

test("the sign-in page checks the form and refuses a wrong password in German", async ({ page, consoleErrors }) => {
  await openHydrated(page, "/auth?tab=register");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  const register = page.getByRole("form", { name: "Registrieren" });
  await register.getByLabel("Benutzername").fill("ab");
  await register.getByLabel("E-Mail").fill("not-an-email");
  await register.getByRole("button", { name: "Registrieren" }).click();
  await expect(register.getByText("Der Benutzername muss mindestens 3 Zeichen lang sein")).toBeVisible();
  await expect(register.getByText("Bitte gib eine gültige E-Mail-Adresse ein")).toBeVisible();

  await page.getByRole("tab", { name: "Anmelden" }).click();
  const login = page.getByRole("form", { name: "Anmelden" });
  await login.getByLabel("E-Mail").fill(`nobody-${Date.now()}@example.com`);
  await login.getByLabel("Passwort").fill("wrong-password");
  await login.getByRole("button", { name: "Anmelden" }).click();
  await expect(page.locator(".toast-title")).toHaveText("Anmeldung fehlgeschlagen");
  await expect(page.locator(".toast-description")).toHaveText("E-Mail-Adresse oder Passwort ist falsch");
  await expect(login.getByRole("alert")).toHaveText("E-Mail-Adresse oder Passwort ist falsch");
  // Chromium logs the expected 401 of the refused post.
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !error.includes("status of 401")));
});

test("the plans page asks a signed-out visitor to sign in, in German", async ({ page }) => {
  await openHydrated(page, "/subscription");
  await expect(page.getByRole("heading", { name: "Wähle deinen Tarif" })).toBeVisible();
  await page.getByRole("button", { name: "Standard abonnieren" }).click();
  await expect(page.locator(".toast-title")).toHaveText("Bitte melde dich an");
  await expect(page.locator(".toast-description")).toHaveText("Du musst angemeldet sein, um einen Tarif abzuschließen.");
});

test("a login and a logout the server fails say so in German", async ({ page, consoleErrors }) => {
  const fail = (route: Route) => route.fulfill({ status: 500, contentType: "text/html", body: "<h1>Internal Server Error</h1>" });
  await openHydrated(page, "/auth");
  const login = page.getByRole("form", { name: "Anmelden" });
  await login.getByLabel("E-Mail").fill("someone@example.com");
  await login.getByLabel("Passwort").fill("s3cret-pass");
  await page.route(/\/auth\.data/, fail);
  await login.getByRole("button", { name: "Anmelden" }).click();
  await expect(page.locator(".toast-title")).toHaveText("Anmeldung fehlgeschlagen");
  await expect(login.getByRole("alert")).toHaveText("Die Anmeldung hat nicht geklappt");
  await page.unroute(/\/auth\.data/);

  await page.getByRole("button", { name: "Als Gast fortfahren" }).click();
  const userMenu = page.getByRole("button", { name: "Gast", exact: true });
  await expect(userMenu).toBeVisible();
  await page.route(/\/logout/, fail);
  await userMenu.click();
  await page.getByRole("button", { name: "Abmelden" }).click();
  await expect(page.locator(".toast-title").last()).toHaveText("Abmelden fehlgeschlagen");
  await expect(page.locator(".toast-description").last()).toHaveText("Bitte versuche es noch einmal.");
  // Chromium logs the failed requests the test itself caused, and Remix why it could not read the answer.
  consoleErrors.splice(
    0,
    consoleErrors.length,
    ...consoleErrors.filter((error) => !error.startsWith("Failed to load resource:") && !error.startsWith("SyntaxError")),
  );
});
