import type { Page } from "@playwright/test";
import { expect, openHydrated, test } from "./fixtures";

/**
 * Chromium logs a console error for every 4xx/5xx document or fetch. A refused form post answers
 * 400, and a lobby may answer 404 before its game is registered: those are expected, nothing else.
 */
function allowStatusLogs(consoleErrors: string[], ...statuses: number[]) {
  const expected = (error: string) => statuses.some((status) => error.startsWith(`Failed to load resource: the server responded with a status of ${status} `));
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !expected(error)));
}

let accounts = 0;

interface Account {
  username: string;
  email: string;
  password: string;
}

function newAccount(name: string): Account {
  const id = `${name}${Date.now().toString(36)}${++accounts}`;
  return { username: id, email: `${id}@example.com`, password: "first-password" };
}

/** Registers through the /auth form; falls back to posting it if the page has no Register form. */
async function register(page: Page, account: Account, javaScript = true) {
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

const question = (page: Page, n: number) => page.getByRole("group", { name: `Question ${n}`, exact: true });

async function createQuiz(page: Page, title: string) {
  await openHydrated(page, "/create");
  await page.getByLabel("Title").fill(title);
  const card = question(page, 1);
  await card.getByLabel("Question text").fill("2 + 2?");
  for (const [index, answer] of ["3", "4", "5", "22"].entries()) await card.getByLabel(`Answer ${"ABCD"[index]}`).fill(answer);
  await card.getByRole("radio", { name: "B" }).check();
  await page.getByRole("button", { name: "Save Quiz" }).click();
  await expect(page).toHaveURL(/\/waiting\/[A-Z0-9]{6}/);
  await leaveLobby(page);
}

/** A browser hosting a game is brought back to its lobby from any page; leaving lets it go elsewhere. */
async function leaveLobby(page: Page) {
  await expect(page.getByRole("button", { name: "Start Game" })).toBeVisible();
  await page.getByRole("button", { name: "Leave" }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** Logs in with a fresh request context (no cookies of the page) and says whether it worked. */
async function canLogIn(page: Page, email: string, password: string): Promise<boolean> {
  const context = await page
    .context()
    .browser()!
    .newContext({ baseURL: new URL(page.url()).origin });
  try {
    const response = await context.request.post("/auth", { form: { intent: "login", email, password }, maxRedirects: 0 });
    return response.status() === 302;
  } finally {
    await context.close();
  }
}

const quizCard = (page: Page, title: string) => page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title, exact: true }) });

test.describe("with JavaScript", () => {
  test("My Quizzes lists a new quiz, which can be edited, hosted and deleted", async ({ page, consoleErrors }) => {
    await register(page, newAccount("quizzer"));
    await createQuiz(page, "Pub quiz draft");

    await openHydrated(page, "/my-quizzes");
    await expect(page.getByRole("heading", { name: "My Quizzes", level: 1 })).toBeVisible();
    const card = quizCard(page, "Pub quiz draft");
    await expect(card).toContainText("1 question · 20 s per question");
    await expect(card).toContainText("Private");

    await card.getByRole("link", { name: "Edit Pub quiz draft" }).click();
    await expect(page).toHaveURL(/\/create\?edit=\d+$/);
    await expect(page.getByRole("heading", { name: "Edit Quiz" })).toBeVisible();
    await expect(page.getByLabel("Title")).toHaveValue("Pub quiz draft");
    await expect(question(page, 1).getByLabel("Answer D")).toHaveValue("22");
    await expect(question(page, 1).getByRole("radio", { name: "B" })).toBeChecked();
    await page.getByLabel("Title").fill("Pub quiz final");
    await page.getByLabel("Visibility").selectOption("public");
    await page.getByRole("button", { name: "Add Question" }).click();
    const second = question(page, 2);
    await second.getByLabel("Question text").fill("Capital of France?");
    for (const [index, answer] of ["Paris", "Rome", "Madrid", "Berlin"].entries()) {
      await second.getByLabel(`Answer ${"ABCD"[index]}`).fill(answer);
    }
    await page.getByRole("button", { name: "Save Changes" }).click();

    await expect(page).toHaveURL(/\/my-quizzes\?saved=1$/);
    await expect(page.getByRole("status").filter({ hasText: "Quiz saved." })).toBeVisible();
    await expect(quizCard(page, "Pub quiz draft")).toHaveCount(0);
    const edited = quizCard(page, "Pub quiz final");
    await expect(edited).toContainText("2 questions · 20 s per question");
    await expect(edited).toContainText("Public");

    await edited.getByRole("button", { name: "Host Pub quiz final" }).click();
    await expect(page).toHaveURL(/\/waiting\/[A-Z0-9]{6}/);
    await expect(page.getByText("Pub quiz final").first()).toBeVisible();
    await leaveLobby(page);

    await openHydrated(page, "/my-quizzes");
    await quizCard(page, "Pub quiz final").getByRole("link", { name: "Delete Pub quiz final" }).click();
    const confirm = page.getByRole("group", { name: "Delete “Pub quiz final”?" });
    await expect(confirm).toBeVisible();
    await expect(confirm.getByRole("heading")).toBeFocused();
    await confirm.getByRole("link", { name: "Cancel" }).click();
    await expect(confirm).toHaveCount(0);
    await expect(quizCard(page, "Pub quiz final")).toBeVisible();

    await quizCard(page, "Pub quiz final").getByRole("link", { name: "Delete Pub quiz final" }).click();
    await page.getByRole("button", { name: "Yes, delete quiz" }).click();
    // Its two lobbies (from saving and from hosting) are not over yet: they may still be played.
    await expect(page).toHaveURL(/\/my-quizzes\?deleted=1&playing=2$/);
    await expect(page.getByRole("status").filter({ hasText: "Quiz deleted. Its 2 open games (waiting or being played) can still finish" })).toBeVisible();
    await expect(quizCard(page, "Pub quiz final")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Create your first quiz" })).toHaveAttribute("href", "/create");
    allowStatusLogs(consoleErrors, 404);
  });

  test("My Account shows the profile and plan, changes the password and deletes the account", async ({ page, consoleErrors }) => {
    const account = newAccount("member");
    await register(page, account);
    await createQuiz(page, "Leaves with its owner");

    await openHydrated(page, "/account");
    await expect(page.getByRole("heading", { name: "My Account" })).toBeVisible();
    const profile = page.getByRole("region", { name: "Profile" });
    await expect(profile).toContainText(account.username);
    await expect(profile).toContainText(account.email);
    const plan = page.getByRole("region", { name: "Plan" });
    await expect(plan).toContainText("Free");
    await expect(plan).toContainText(/AI quizzes left today\s*10/);

    // Checked in the browser before posting.
    const passwordForm = page.getByRole("form", { name: "Change password" });
    await passwordForm.getByLabel("Current password").fill(account.password);
    await passwordForm.getByLabel("New password", { exact: true }).fill("12345");
    await passwordForm.getByLabel("Confirm new password").fill("12346");
    await passwordForm.getByRole("button", { name: "Change Password" }).click();
    await expect(passwordForm.getByText("Password must be at least 6 characters")).toBeVisible();
    await expect(passwordForm.getByLabel("New password", { exact: true })).toBeFocused();
    await passwordForm.getByLabel("New password", { exact: true }).fill("second-password");
    await passwordForm.getByRole("button", { name: "Change Password" }).click();
    await expect(passwordForm.getByText("Passwords don't match")).toBeVisible();

    // Only the server knows the current password. A refusal changes nothing the page shows, so it
    // reloads nothing: a reload that landed after the next attempt's typing would wipe it (a slow
    // network's reload stands in here, a second late).
    await page.route(/\/account\.data(\?|$)/, async (route) => {
      if (route.request().method() === "GET") await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
    await passwordForm.getByLabel("Current password").fill("not-my-password");
    await passwordForm.getByLabel("Confirm new password").fill("second-password");
    await passwordForm.getByRole("button", { name: "Change Password" }).click();
    await expect(passwordForm.getByText("Current password is incorrect")).toBeVisible();
    // After a post the form starts empty again; typing before that reset would be lost.
    await expect(passwordForm.getByLabel("New password", { exact: true })).toHaveValue("");

    await passwordForm.getByLabel("Current password").fill(account.password);
    await passwordForm.getByLabel("New password", { exact: true }).fill("second-password");
    await passwordForm.getByLabel("Confirm new password").fill("second-password");
    await passwordForm.getByRole("button", { name: "Change Password" }).click();
    await expect(page).toHaveURL(/\/account\?password=changed$/);
    await expect(page.getByRole("status").filter({ hasText: "Password changed." })).toBeVisible();
    await expect(passwordForm.getByLabel("New password", { exact: true })).toHaveValue("");
    await page.unroute(/\/account\.data(\?|$)/);
    expect(await canLogIn(page, account.email, account.password)).toBe(false);
    expect(await canLogIn(page, account.email, "second-password")).toBe(true);

    // Signing in in that other browser left this one signed in (decision 0043).
    await openHydrated(page, "/account");
    await expect(page).toHaveURL(/\/account$/);

    const deleteForm = page.getByRole("form", { name: "Delete account" });
    await deleteForm.getByRole("button", { name: "Delete Account" }).click();
    await expect(deleteForm.getByText("Tick the box to confirm that you want to delete your account.")).toBeVisible();
    await expect(page).toHaveURL(/\/account/);
    await deleteForm.getByLabel("I understand this deletes my account and my quizzes").check();
    await deleteForm.getByRole("button", { name: "Delete Account" }).click();

    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
    expect(await canLogIn(page, account.email, "second-password")).toBe(false);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Faccount$/);
    allowStatusLogs(consoleErrors, 400, 401, 404);
  });

  test("Sign out everywhere ends this browser's session and the other browser's", async ({ page, consoleErrors }) => {
    const account = newAccount("everywhere");
    await register(page, account);
    const other = await page
      .context()
      .browser()!
      .newContext({ baseURL: new URL(page.url()).origin });
    try {
      const signedIn = await other.request.post("/auth", { form: { intent: "login", email: account.email, password: account.password }, maxRedirects: 0 });
      expect(signedIn.status()).toBe(302);
      const stillIn = await other.request.get("/account", { maxRedirects: 0 });
      expect(stillIn.status()).toBe(200);

      await openHydrated(page, "/account");
      const section = page.getByRole("region", { name: "Sign out everywhere" });
      await expect(section).toContainText("this one included");
      await section.getByRole("button", { name: "Sign out everywhere" }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
      const signedOut = await other.request.get("/account", { maxRedirects: 0 });
      expect(signedOut.status()).toBe(302);
      expect(signedOut.headers().location).toBe("/auth?redirectTo=%2Faccount");
    } finally {
      await other.close();
    }
    allowStatusLogs(consoleErrors, 401);
  });

  test("a visitor who is not signed in is sent to /auth from My Account and My Quizzes", async ({ page }) => {
    await page.goto("/account");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Faccount$/);
    await page.goto("/my-quizzes");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fmy-quizzes$/);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("deleting a quiz asks first, and the account forms still work", async ({ page, consoleErrors }) => {
    const account = newAccount("nojs");
    await register(page, account, false);

    await page.goto("/create");
    await page.getByLabel("Title").fill("Plain HTML quiz");
    const card = question(page, 1);
    await card.getByLabel("Question text").fill("Yes?");
    for (const [index, answer] of ["a", "b", "c", "d"].entries()) await card.getByLabel(`Answer ${"ABCD"[index]}`).fill(answer);
    await page.getByRole("button", { name: "Save Quiz" }).click();
    await expect(page).toHaveURL(/\/waiting\/[A-Z0-9]{6}/);

    await page.goto("/my-quizzes");
    await quizCard(page, "Plain HTML quiz").getByRole("link", { name: "Edit Plain HTML quiz" }).click();
    await page.getByLabel("Title").fill("Plain HTML quiz, edited");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page).toHaveURL(/\/my-quizzes\?saved=1$/);
    await quizCard(page, "Plain HTML quiz, edited").getByRole("link", { name: "Delete Plain HTML quiz, edited" }).click();
    await expect(page).toHaveURL(/\/my-quizzes\?delete=\d+$/);
    await page.getByRole("button", { name: "Yes, delete quiz" }).click();
    await expect(page.getByText("Quiz deleted.")).toBeVisible();
    await expect(quizCard(page, "Plain HTML quiz, edited")).toHaveCount(0);

    await page.goto("/account");
    const passwordForm = page.getByRole("form", { name: "Change password" });
    await passwordForm.getByLabel("Current password").fill("wrong-password");
    await passwordForm.getByLabel("New password", { exact: true }).fill("second-password");
    await passwordForm.getByLabel("Confirm new password").fill("second-password");
    await passwordForm.getByRole("button", { name: "Change Password" }).click();
    await expect(page.getByText("Current password is incorrect")).toBeVisible();
    await page.getByLabel("Current password").fill(account.password);
    await page.getByLabel("New password", { exact: true }).fill("second-password");
    await page.getByLabel("Confirm new password").fill("second-password");
    await page.getByRole("button", { name: "Change Password" }).click();
    await expect(page.getByText("Password changed.")).toBeVisible();

    await page.getByRole("button", { name: "Delete Account" }).click();
    await expect(page.getByText("Tick the box to confirm that you want to delete your account.")).toBeVisible();
    await page.getByLabel("I understand this deletes my account and my quizzes").check();
    await page.getByRole("button", { name: "Delete Account" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Faccount$/);
    allowStatusLogs(consoleErrors, 400, 404);
  });

  test("Sign out everywhere works as a plain form", async ({ page }) => {
    await register(page, newAccount("everywherenojs"), false);
    await page.goto("/account");
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Faccount$/);
  });
});
