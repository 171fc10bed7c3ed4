import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The installable, offline-capable app in Chromium: the service worker from the production build,
 * Chromium's own installability check, and pages opened with the browser context offline.
 */

/** What Chromium logs while offline: the game socket and fetches that cannot connect. Expected here. */
function allowOfflineErrors(consoleErrors: string[]) {
  const offline = (error: string) => /ERR_INTERNET_DISCONNECTED|WebSocket connection to .* failed|Failed to fetch/.test(error);
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !offline(error)));
}

/** Opens the page and waits until the service worker controls it (the first visit installs it). */
async function openControlled(page: Page, url: string) {
  await page.goto(url);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener("controllerchange", () => resolve(), { once: true }));
    }
  });
}

async function cachedUrls(page: Page): Promise<{ cache: string; url: string }[]> {
  return page.evaluate(async () => {
    const found: { cache: string; url: string }[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) found.push({ cache: name, url: new URL(request.url).pathname });
    }
    return found;
  });
}

test.describe.configure({ mode: "serial" });

test("the manifest and service worker make the app installable in Chromium", async ({ page, playwright, baseURL }, testInfo) => {
  await page.goto("/");
  const manifest = await (await page.request.get("/manifest.webmanifest")).json();
  expect(manifest).toMatchObject({ name: "Quiz Night", short_name: "Quiz Night", display: "standalone", start_url: "/?source=pwa", scope: "/" });
  expect(manifest.icons.map((icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`)).toEqual([
    "192x192 any",
    "512x512 any",
    "512x512 maskable",
  ]);
  expect(manifest.shortcuts.map((shortcut: { url: string }) => shortcut.url)).toEqual(["/join", "/create"]);
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute("href", "/icons/apple-touch-icon.png");
  const sw = await page.request.get("/sw.js");
  expect(sw.headers()["cache-control"]).toBe("no-cache");

  // Chromium's own installability check, in an ordinary (not incognito) profile as a user has.
  const launchOptions = testInfo.project.use.launchOptions ?? {};
  const profile = await playwright.chromium.launchPersistentContext(testInfo.outputPath("profile"), { ...launchOptions, baseURL });
  try {
    const installable = profile.pages()[0] ?? (await profile.newPage());
    await openControlled(installable, "/");
    const cdp = await profile.newCDPSession(installable);
    const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: { errorId: string }[] };
    expect(installabilityErrors).toEqual([]);
  } finally {
    await profile.close();
  }
});

test("with the network gone, /, /join and the offline page open from the cache, and the socket comes back by itself", async ({
  page,
  context,
  consoleErrors,
}) => {
  await openControlled(page, "/");
  await expect(page.getByText("Connected", { exact: true })).toBeVisible({ timeout: 10_000 });

  await context.setOffline(true);
  await expect(page.getByText("Disconnected", { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("link", { name: /Join/ }).first()).toBeVisible();
  await expect(page.getByText("Disconnected", { exact: true })).toBeVisible();

  // /join was never visited: the service worker kept it at install.
  await page.goto("/join");
  await expect(page.getByRole("heading", { name: "Join a Game" })).toBeVisible();
  await expect(page.getByText("You're offline. Joining a game needs a connection")).toBeVisible();
  await page.getByLabel("Game code").fill("ABC123");
  await page.getByLabel("Nickname").fill("Nora");
  await expect(page.getByRole("button", { name: "Join Game" })).toBeDisabled();

  // A page that was never kept shows the offline page.
  await page.goto("/featured");
  await expect(page.getByRole("heading", { name: "You're offline" })).toBeVisible();

  await context.setOffline(false);
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  await context.setOffline(true);
  await page.evaluate(() => window.dispatchEvent(new Event("offline")));
  await expect(page.getByText("Disconnected", { exact: true })).toBeVisible();
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event("online")));
  await expect(page.getByText("Connected", { exact: true })).toBeVisible({ timeout: 10_000 });
  allowOfflineErrors(consoleErrors);
});

test("the offline page speaks the language the app last spoke in this browser", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ locale: "de-DE", baseURL });
  try {
    const page = await context.newPage();
    await openControlled(page, "/");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await context.setOffline(true);
    await page.goto("/featured");
    await expect(page.getByRole("heading", { name: "Du bist offline" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page).toHaveTitle("Du bist offline · Quiz Night");
    await expect(page.getByRole("link", { name: "Spiel beitreten" })).toHaveAttribute("href", "/join");

    // Back online, the footer's switcher says Español: the offline page follows.
    await context.setOffline(false);
    await page.goto("/");
    await page.getByRole("form", { name: "Sprache" }).getByRole("button", { name: "Español" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await page.waitForLoadState("networkidle");
    await context.setOffline(true);
    await page.goto("/featured");
    await expect(page.getByRole("heading", { name: "Estás sin conexión" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
  } finally {
    await context.close();
  }
});

test("live, private and state-changing traffic is never cached", async ({ page }) => {
  await openControlled(page, "/");
  // Sign in (as a guest) and visit pages that carry the user, call the API and post a form.
  await page.goto("/auth");
  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Continue as Guest" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/account");
  await page.goto("/ai-quiz");
  await page.waitForLoadState("networkidle");
  await page.request.get("/api/quizzes");
  await page.evaluate(() => fetch("/api/game-sessions").then((response) => response.json()));

  const cached = await cachedUrls(page);
  expect(cached.length).toBeGreaterThan(20);
  const urls = cached.map((entry) => entry.url);
  expect(urls.filter((url) => url.startsWith("/api/") || url === "/ws" || url.endsWith(".data"))).toEqual([]);
  // Pages are kept only as a signed-out visitor sees them: /auth from before signing in, and / and
  // /join fetched without cookies at install; nothing visited as the guest.
  const pages = cached.filter((entry) => entry.cache === "quiz-night-pages").map((entry) => entry.url);
  expect(pages.sort()).toEqual(["/", "/auth", "/join"]);
  const home = await page.evaluate(async () => (await (await caches.open("quiz-night-pages")).match("/"))!.text());
  expect(home).toContain("Sign In");
});

test("/test-pwa shows the platform, the statuses and passes the offline test", async ({ page, context, consoleErrors }) => {
  await openControlled(page, "/test-pwa");
  await page.reload();
  await expect(page.getByRole("heading", { name: "PWA Test Dashboard" })).toBeVisible();
  await expect(page.getByTestId("pwa-platform")).toHaveText("Linux");
  await expect(page.getByTestId("pwa-device")).toHaveText(/^Desktop · Chrome \d+$/);
  await expect(page.getByTestId("pwa-version")).toHaveText(/^Quiz Night \d+\.\d+\.\d+$/);
  const status = page.getByRole("list", { name: "Status" });
  const row = (label: string) => status.getByRole("listitem").filter({ hasText: new RegExp(`^${label}`) });
  await expect(row("Installed")).toContainText("No");
  await expect(row("Service worker")).toContainText("Active");
  await expect(row("iOS")).toContainText("No");
  await expect(row("Android")).toContainText("No");
  await expect(row("Online")).toContainText("Yes");

  await context.setOffline(true);
  await expect(row("Online")).toContainText("No");
  await page.getByRole("button", { name: "Run offline test" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Passed" })).toHaveText(
    "Passed: with the network off, the offline page loaded from the service worker's cache.",
  );
  await context.setOffline(false);
  allowOfflineErrors(consoleErrors);
});

test("an iPhone sees the three install steps until it says Not Now, which is remembered, but never on its way into a game", async ({ browser }) => {
  const context: BrowserContext = await browser.newContext({
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    viewport: { width: 390, height: 844 },
  });
  const page = await context.newPage();
  const card = page.getByRole("complementary", { name: "Install Quiz Night" });
  // A join link (the lobby's QR code) leads to the join form alone.
  await page.goto("/join?code=ABC123");
  await page.waitForLoadState("networkidle");
  await expect(page.getByRole("button", { name: "Join Game" })).toBeVisible();
  await expect(card).toHaveCount(0);

  await page.goto("/");
  await expect(card.getByRole("listitem")).toHaveText(["Tap the Share button ⎋", "Choose Add to Home Screen", "Tap Add"]);
  await card.getByRole("button", { name: "Not Now" }).click();
  await expect(card).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem("iosInstallDismissed"))).toBe("true");
  await page.reload();
  await page.waitForLoadState("networkidle");
  await expect(card).toHaveCount(0);
  await context.close();
});

test("a new version waits until the user picks Reload on 'New version available'", async ({ page }) => {
  await openControlled(page, "/");
  const file = path.resolve("build/client/sw.js");
  const original = fs.readFileSync(file, "utf8");
  const { atime, mtime } = fs.statSync(file);
  try {
    // What a deploy does: the server now has a different service worker.
    fs.writeFileSync(file, `${original}\n// next version ${Date.now()}\n`);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    await expect(page.locator(".toast-title")).toHaveText("New version available");
    const reloaded = page.waitForEvent("load");
    await page.getByRole("button", { name: "Reload" }).click();
    await reloaded;
    const state = await page.evaluate(async () => {
      const registration = (await navigator.serviceWorker.getRegistration())!;
      return { waiting: registration.waiting !== null, controlled: navigator.serviceWorker.controller !== null };
    });
    expect(state).toEqual({ waiting: false, controlled: true });
  } finally {
    fs.writeFileSync(file, original);
    // As built again: its precompressed copies (written after it) are current again.
    fs.utimesSync(file, atime, mtime);
  }
});
