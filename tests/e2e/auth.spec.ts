import type { Page, Route } from "@playwright/test";
import { expect, openHydrated, test, waitForHydration } from "./fixtures";

/**
 * Chromium logs a console error for every 4xx document or fetch; a refused login or registration
 * answers 400, 401 or 409, and those are expected here, nothing else.
 */
function allowStatusLogs(consoleErrors: string[], ...statuses: number[]) {
  const expected = (error: string) => statuses.some((status) => error.startsWith(`Failed to load resource: the server responded with a status of ${status} `));
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !expected(error)));
}

let counter = 0;
/** A username and email no other test (or earlier run against the same database) has used. */
function newAccount() {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}`;
  return { username: `player${id}`, email: `player${id}@example.com`, password: "s3cret-pass" };
}
type Account = ReturnType<typeof newAccount>;

async function expectToast(page: Page, title: string, description: string) {
  await expect(page.locator(".toast-title")).toHaveText(title);
  await expect(page.locator(".toast-description")).toHaveText(description);
}

const loginPanel = (page: Page) => page.getByRole("tabpanel", { name: "Login" });
const registerPanel = (page: Page) => page.getByRole("tabpanel", { name: "Register" });

async function fillRegister(page: Page, account: Account, confirmPassword = account.password) {
  const panel = registerPanel(page);
  await panel.getByLabel("Username").fill(account.username);
  await panel.getByLabel("Email").fill(account.email);
  await panel.getByLabel("Password", { exact: true }).fill(account.password);
  await panel.getByLabel("Confirm Password").fill(confirmPassword);
}

async function fillLogin(page: Page, email: string, password: string) {
  const panel = loginPanel(page);
  await panel.getByLabel("Email").fill(email);
  await panel.getByLabel("Password").fill(password);
}

test.describe("with JavaScript", () => {
  test("the page offers both tabs, Google, the guest option and the premium benefits", async ({ page }) => {
    await openHydrated(page, "/auth");
    const tabs = page.getByRole("tablist");
    await expect(tabs.getByRole("tab")).toHaveText(["Login", "Register"]);
    await expect(page.getByRole("tab", { name: "Login" })).toHaveAttribute("aria-selected", "true");
    await expect(loginPanel(page).getByRole("button", { name: "Login" })).toBeVisible();
    await expect(registerPanel(page)).toHaveCount(0);

    await page.getByRole("tab", { name: "Register" }).click();
    await expect(page.getByRole("tab", { name: "Register" })).toHaveAttribute("aria-selected", "true");
    await expect(registerPanel(page).getByRole("button", { name: "Register" })).toBeVisible();
    await expect(loginPanel(page)).toHaveCount(0);
    // Arrow keys move between the tabs.
    await page.getByRole("tab", { name: "Register" }).press("ArrowLeft");
    await expect(page.getByRole("tab", { name: "Login" })).toBeFocused();
    await expect(loginPanel(page)).toBeVisible();

    await expect(page.getByRole("button", { name: "Continue with Google" })).toBeVisible();
    await expect(page.getByText(/Google sign-in needs this domain to be authorized/)).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue as Guest" })).toBeVisible();
    await expect(page.getByText("Guests have limited access to 5 AI quizzes and basic features.")).toBeVisible();
    const benefits = page.getByRole("complementary", { name: "Premium benefits" });
    await expect(benefits.getByRole("listitem")).toHaveText([
      "Unlimited AI quizzes",
      "Save and share your quizzes",
      "Track your progress",
      "Real-time multiplayer challenges",
    ]);
  });

  test("register, use the user menu, log out and log back in", async ({ page }) => {
    const account = newAccount();
    await openHydrated(page, "/auth?tab=register");
    await fillRegister(page, account);
    await registerPanel(page).getByRole("button", { name: "Register" }).click();

    await expect(page).toHaveURL(/\/$/);
    await expectToast(page, "Registration successful", "Your account has been created");
    const userMenu = page.getByRole("button", { name: account.username });
    await expect(userMenu).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign In" })).toHaveCount(0);

    await expect(userMenu).toHaveAttribute("aria-expanded", "false");
    await userMenu.click();
    await expect(userMenu).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByRole("link", { name: "My Account" })).toHaveAttribute("href", "/account");
    await expect(page.getByRole("link", { name: "My Quizzes", exact: true }).last()).toHaveAttribute("href", "/my-quizzes");
    await expect(page.getByRole("button", { name: "Log out" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Upgrade Plan" })).toHaveAttribute("href", "/subscription");
    // Escape closes the menu and gives focus back to its button.
    await page.keyboard.press("Escape");
    await expect(page.getByRole("button", { name: "Log out" })).toHaveCount(0);
    await expect(userMenu).toBeFocused();

    // The /auth page sends an account home.
    await page.goto("/auth");
    await expect(page).toHaveURL(/\/$/);

    await waitForHydration(page);
    await userMenu.click();
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
    await expect(userMenu).toHaveCount(0);

    await page.getByRole("link", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await waitForHydration(page);
    await fillLogin(page, account.email.toUpperCase(), account.password);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/auth\.data/, async (route) => {
      await held;
      await route.continue();
    });
    await loginPanel(page).getByRole("button", { name: "Login" }).click();
    await expect(loginPanel(page).getByRole("button", { name: "Logging in..." })).toBeDisabled();
    release();
    await expect(page).toHaveURL(/\/$/);
    await expectToast(page, "Login successful", "Welcome back!");
    await expect(page.getByRole("button", { name: account.username })).toBeVisible();
  });

  test("the mobile menu shows who is signed in and signs out", async ({ page }) => {
    const account = newAccount();
    await openHydrated(page, "/auth?tab=register");
    await fillRegister(page, account);
    await registerPanel(page).getByRole("button", { name: "Register" }).click();
    await expectToast(page, "Registration successful", "Your account has been created");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu.getByText(`Signed in as ${account.username}`)).toBeVisible();
    await expect(menu.getByRole("link", { name: "My Account" })).toHaveAttribute("href", "/account");
    await expect(menu.getByRole("link", { name: "Upgrade Plan" })).toHaveAttribute("href", "/subscription");
    await menu.getByRole("button", { name: "Sign Out" }).click();
    await expect(page.getByRole("button", { name: "Open menu" })).toBeVisible();
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(menu.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/auth");
  });

  test("Continue as Guest goes home as a guest, without Upgrade Plan", async ({ page }) => {
    await openHydrated(page, "/auth");
    await page.getByRole("button", { name: "Continue as Guest" }).click();
    await expect(page).toHaveURL(/\/$/);
    // "Welcome!" once: the title says it, the description does not repeat it.
    await expectToast(page, "Welcome!", "You can explore quizzes as a guest");
    const userMenu = page.getByRole("button", { name: "Guest", exact: true });
    await expect(userMenu).toBeVisible();
    await userMenu.click();
    await expect(page.getByRole("button", { name: "Log out" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Upgrade Plan" })).toHaveCount(0);

    // A guest may still open /auth to register.
    await page.getByRole("link", { name: "Create Account" }).click();
    await expect(page).toHaveURL(/\/auth\?tab=register$/);
    await expect(page.getByRole("tab", { name: "Register" })).toHaveAttribute("aria-selected", "true");
  });

  test("checks the fields before posting, with the messages of docs/product.md#validation", async ({ page }) => {
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    await openHydrated(page, "/auth");
    await fillLogin(page, "not-an-email", "123");
    await loginPanel(page).getByRole("button", { name: "Login" }).click();
    await expect(loginPanel(page).getByText("Please enter a valid email")).toBeVisible();
    await expect(loginPanel(page).getByText("Password must be at least 6 characters")).toBeVisible();
    await expect(loginPanel(page).getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expect(loginPanel(page).getByLabel("Email")).toBeFocused();
    // Once tried, the messages follow what is typed.
    await loginPanel(page).getByLabel("Email").fill("sam@example.com");
    await expect(loginPanel(page).getByText("Please enter a valid email")).toHaveCount(0);

    await page.getByRole("tab", { name: "Register" }).click();
    await fillRegister(page, { username: "ab", email: "nope", password: "12345" }, "54321");
    await registerPanel(page).getByRole("button", { name: "Register" }).click();
    const panel = registerPanel(page);
    await expect(panel.getByText("Username must be at least 3 characters")).toBeVisible();
    await expect(panel.getByText("Please enter a valid email")).toBeVisible();
    await expect(panel.getByText("Password must be at least 6 characters")).toBeVisible();

    await fillRegister(page, { username: "abc", email: "abc@example.com", password: "123456" }, "1234567");
    await expect(panel.getByText("Passwords don't match")).toBeVisible();
    await expect(panel.getByText("Username must be at least 3 characters")).toHaveCount(0);
    await panel.getByRole("button", { name: "Register" }).click();
    await expect(panel.getByText("Passwords don't match")).toBeVisible();
    await expect(panel.getByLabel("Confirm Password")).toBeFocused();
    expect(posts).toEqual([]);
  });

  test("a refused login or registration shows a toast and keeps what was typed except the password", async ({ page, consoleErrors }) => {
    const account = newAccount();
    await openHydrated(page, "/auth");
    await fillLogin(page, account.email, "wrong-password");
    await loginPanel(page).getByRole("button", { name: "Login" }).click();
    await expectToast(page, "Login failed", "Invalid email or password");
    await expect(loginPanel(page).getByRole("alert")).toHaveText("Invalid email or password");
    await expect(loginPanel(page).getByLabel("Email")).toHaveValue(account.email);
    await expect(loginPanel(page).getByLabel("Password")).toHaveValue("");
    await expect(loginPanel(page).getByRole("button", { name: "Login" })).toBeEnabled();

    // Register an account, then try its username again in another browser.
    await page.getByRole("tab", { name: "Register" }).click();
    await fillRegister(page, account);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/auth\.data/, async (route) => {
      await held;
      await route.continue();
    });
    await registerPanel(page).getByRole("button", { name: "Register" }).click();
    await expect(registerPanel(page).getByRole("button", { name: "Creating account..." })).toBeDisabled();
    release();
    await expectToast(page, "Registration successful", "Your account has been created");

    await page.context().clearCookies();
    await openHydrated(page, "/auth?tab=register");
    const other = { ...newAccount(), username: account.username.toUpperCase() };
    await fillRegister(page, other);
    await registerPanel(page).getByRole("button", { name: "Register" }).click();
    await expectToast(page, "Registration failed", "That username is already taken");
    await expect(registerPanel(page).getByText("That username is already taken")).toBeVisible();
    await expect(registerPanel(page).getByLabel("Username")).toHaveValue(other.username);
    await expect(registerPanel(page).getByLabel("Email")).toHaveValue(other.email);
    await expect(registerPanel(page).getByLabel("Password", { exact: true })).toHaveValue("");
    allowStatusLogs(consoleErrors, 401, 409);
  });
});

test.describe("when the server cannot be reached or fails", () => {
  /** Chromium logs a console error for the failed request the test itself caused, and Remix why it could not read the answer. */
  function allowFailureLogs(consoleErrors: string[]) {
    const expected = (error: string) => error.startsWith("Failed to load resource:") || error.startsWith("SyntaxError");
    consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !expected(error)));
  }

  for (const [failure, fail] of [
    ["a 500", (route: Route) => route.fulfill({ status: 500, contentType: "text/html", body: "<h1>Internal Server Error</h1>" })],
    ["no answer", (route: Route) => route.abort("connectionrefused")],
  ] as const) {
    test(`a login that gets ${failure} says 'Failed to login' and keeps the email`, async ({ page, consoleErrors }) => {
      await openHydrated(page, "/auth");
      await fillLogin(page, "someone@example.com", "s3cret-pass");
      await page.route(/\/auth\.data/, fail);
      await loginPanel(page).getByRole("button", { name: "Login" }).click();
      await expectToast(page, "Login failed", "Failed to login");
      await expect(loginPanel(page).getByRole("alert")).toHaveText("Failed to login");
      await expect(loginPanel(page).getByLabel("Email")).toHaveValue("someone@example.com");
      await expect(loginPanel(page).getByRole("button", { name: "Login" })).toBeEnabled();
      await expect(page).toHaveURL(/\/auth$/);
      allowFailureLogs(consoleErrors);
    });

    test(`a logout that gets ${failure} says 'Failed to logout' and stays signed in`, async ({ page, consoleErrors }) => {
      await openHydrated(page, "/auth");
      await page.getByRole("button", { name: "Continue as Guest" }).click();
      const userMenu = page.getByRole("button", { name: "Guest", exact: true });
      await expect(userMenu).toBeVisible();
      // The home page the guest lands on is a new document: its menu opens once React has hydrated it.
      await waitForHydration(page);
      await page.route(/\/logout/, fail);
      await userMenu.click();
      await page.getByRole("button", { name: "Log out" }).click();
      await expect(page.locator(".toast-title")).toHaveText("Failed to logout");
      await expect(page.locator(".toast").last()).toHaveClass(/toast-destructive/);
      await expect(userMenu).toBeVisible();
      await expect(page.getByRole("link", { name: "Sign In" })).toHaveCount(0);

      // Once the server answers again, Log out (its menu still open) works.
      await page.unroute(/\/logout/);
      await page.getByRole("button", { name: "Log out" }).click();
      await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();
      await expect(page).toHaveURL(/\/$/);
      allowFailureLogs(consoleErrors);
    });
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("register with mismatched passwords shows the message and keeps username and email; then registers", async ({ page, consoleErrors }) => {
    const account = newAccount();
    await page.goto("/auth");
    await expect(registerPanel(page)).toHaveCount(0);
    await page.getByRole("tab", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/auth\?tab=register$/);
    await fillRegister(page, account, "something-else");
    await registerPanel(page).getByRole("button", { name: "Register" }).click();

    const panel = registerPanel(page);
    await expect(panel.getByText("Passwords don't match")).toBeVisible();
    await expect(panel.getByLabel("Confirm Password")).toHaveAttribute("aria-invalid", "true");
    await expect(panel.getByLabel("Username")).toHaveValue(account.username);
    await expect(panel.getByLabel("Email")).toHaveValue(account.email);
    await expect(panel.getByLabel("Password", { exact: true })).toHaveValue("");
    await expect(panel.getByLabel("Confirm Password")).toHaveValue("");

    await fillRegister(page, account);
    await panel.getByRole("button", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/\?welcome=register$/);
    const menu = page.locator("summary", { hasText: account.username });
    await expect(menu).toBeVisible();

    // The user menu opens without JavaScript too, and logging out works.
    await menu.click();
    await expect(page.getByRole("link", { name: "My Account" })).toHaveAttribute("href", "/account");
    await expect(page.getByRole("link", { name: "Upgrade Plan" }).first()).toHaveAttribute("href", "/subscription");
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();

    // And logging back in.
    await page.getByRole("link", { name: "Sign In" }).click();
    await fillLogin(page, account.email, "wrong-password");
    await loginPanel(page).getByRole("button", { name: "Login" }).click();
    await expect(loginPanel(page).getByRole("alert")).toHaveText("Invalid email or password");
    await expect(loginPanel(page).getByLabel("Email")).toHaveValue(account.email);
    await fillLogin(page, account.email, account.password);
    await loginPanel(page).getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/\?welcome=login$/);
    await expect(page.locator("summary", { hasText: account.username })).toBeVisible();
    allowStatusLogs(consoleErrors, 400, 401);
  });

  test("login shows the messages of docs/product.md#validation beside the fields, and Continue as Guest works", async ({ page, consoleErrors }) => {
    await page.goto("/auth");
    await fillLogin(page, "nope", "123");
    await loginPanel(page).getByRole("button", { name: "Login" }).click();
    await expect(loginPanel(page).getByText("Please enter a valid email")).toBeVisible();
    await expect(loginPanel(page).getByText("Password must be at least 6 characters")).toBeVisible();
    await expect(loginPanel(page).getByLabel("Email")).toHaveValue("nope");

    await page.getByRole("button", { name: "Continue as Guest" }).click();
    await expect(page).toHaveURL(/\/\?welcome=guest$/);
    await expect(page.locator("summary", { hasText: "Guest" })).toBeVisible();
    allowStatusLogs(consoleErrors, 400);
  });

  test("the mobile menu opens without JavaScript and leads to Sign In", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await page.locator("summary.menu-toggle").click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu.getByRole("link", { name: "Featured Quizzes" })).toBeVisible();
    await menu.getByRole("link", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole("tab", { name: "Login" })).toHaveAttribute("aria-selected", "true");
  });
});
