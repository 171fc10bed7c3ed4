import { randomUUID } from "node:crypto";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import sharp from "sharp";
import { AXE_CONTEXT, axeViolations, axeViolationsInBothThemes, smallTargets } from "./axe";
import { contextWithClientId, createHostedGame, expect, test, waitForHydration } from "./fixtures";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const QUESTIONS = [
  { text: "What is 2 + 2?", answers: ["3", "4", "5", "22"], correctAnswerIndex: 1 },
  { text: "Capital of France?", answers: ["Paris", "Rome", "Madrid", "Berlin"], correctAnswerIndex: 0 },
];

/** Each game screen moves focus to its heading, so a screen reader reads the new screen from its top. */
async function expectHeadingFocused(page: Page, name: string | RegExp) {
  await expect(page.getByRole("heading", { level: 1, name })).toBeFocused();
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`every screen of a whole game passes axe-core (WCAG 2.2 AA and best practices), host and player, ${colorScheme}`, async ({ baseURL, browser, page }) => {
    test.setTimeout(120_000);
    const found: string[] = [];
    const check = async (target: Page, screen: string) => found.push(...(await axeViolations(target, screen)));

    const hostId = `host-${randomUUID()}`;
    const gameCode = await createHostedGame(page, hostId, { title: "Accessible Night", timeLimit: 30, questions: QUESTIONS });
    const host = await (await contextWithClientId(browser, hostId, { ...AXE_CONTEXT, colorScheme })).newPage();
    await host.context().addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL! }]);
    await host.goto(`/waiting/${gameCode}`);
    await expect(host.getByRole("button", { name: "Start Game" })).toBeVisible();

    // The player's phone asks for reduced motion.
    const player = await (
      await contextWithClientId(browser, `player-${randomUUID()}`, { ...AXE_CONTEXT, colorScheme, viewport: PHONE, reducedMotion: "reduce" })
    ).newPage();
    await player.goto(`/join?code=${gameCode}`);
    await expect(player.getByLabel("Nickname")).toBeVisible();
    await check(player, "player join");
    await player.getByLabel("Nickname").fill("Ann");
    await player.getByRole("button", { name: "Join Game" }).click();
    await expect(player.getByText("Waiting for host to start the game...")).toBeVisible();
    await expectHeadingFocused(player, "Game code");
    await check(player, "player lobby");

    // A second player, so the question stays open after Ann answers.
    const other = await (await contextWithClientId(browser, `player-${randomUUID()}`, { ...AXE_CONTEXT, colorScheme })).newPage();
    await other.goto(`/waiting/${gameCode}?nickname=Bob`);
    await expect(host.getByTestId("player-count")).toHaveText("2");
    await expect(host.getByRole("img", { name: `QR code to join game ${gameCode}: opens ${new URL(`/join?code=${gameCode}`, host.url())}` })).toBeVisible();
    await check(host, "host lobby");

    await host.getByRole("button", { name: "Start Game" }).click();
    await expect(host.getByRole("heading", { name: "Question 1 of 2" })).toBeVisible();
    await expect(player.getByRole("heading", { name: "Question 1 of 2" })).toBeVisible();
    await expectHeadingFocused(host, "Question 1 of 2");
    await expectHeadingFocused(player, "Question 1 of 2");
    await check(host, "host question");
    await check(player, "player question");
    // Touch targets of at least 44 px, and no motion on the phone that asked for none.
    for (const target of [player.getByRole("button", { name: /A\. 3/ }), host.getByRole("button", { name: "Skip" })]) {
      const box = (await target.boundingBox())!;
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
    }
    expect(await player.getByRole("button", { name: /A\. 3/ }).evaluate((button) => getComputedStyle(button).transitionDuration)).toMatch(
      /^(0s|1e-05s)(, (0s|1e-05s))*$/,
    );

    await player.getByRole("button", { name: /B\. 4/ }).click();
    // Screen readers hear the submission and, on the result, the rank (live regions), not the countdown every second.
    await expect(player.locator('[aria-live="polite"]').filter({ hasText: "Answer submitted! Waiting for other players..." })).toBeVisible();
    await expect(player.getByTestId("countdown-announcement")).toHaveText("");
    await check(player, "player answer submitted");

    // The results show for a few seconds: check the host's and the player's at once.
    await other.getByRole("button", { name: /A\. 3/ }).click();
    await expect(host.getByLabel("Answer distribution")).toBeVisible();
    await expect(player.getByRole("heading", { name: "Correct!" })).toBeVisible();
    await expectHeadingFocused(player, "Correct!");
    await expect(player.getByRole("status").filter({ hasText: /^You are #\d+ with \d+ points$/ })).toBeVisible();
    await Promise.all([check(host, "host results"), check(player, "player result")]);

    await expect(host).toHaveURL(`/leaderboard/${gameCode}`);
    await expect(player).toHaveURL(`/leaderboard/${gameCode}`);
    await expectHeadingFocused(player, "Leaderboard");
    await Promise.all([check(host, "host leaderboard"), check(player, "player leaderboard")]);

    await expect(player.getByRole("heading", { name: "Question 2 of 2" })).toBeVisible({ timeout: 15_000 });
    await player.getByRole("button", { name: /A\. Paris/ }).click();
    await other.getByRole("button", { name: /B\. Rome/ }).click();
    await expect(host).toHaveURL(`/results/${gameCode}`, { timeout: 15_000 });
    await expect(player).toHaveURL(`/results/${gameCode}`, { timeout: 15_000 });
    await expect(host.getByRole("heading", { name: "Game Complete" })).toBeVisible();
    await expect(player.getByTestId("own-rank")).toBeVisible();
    await expectHeadingFocused(host, "Game Complete");
    await expectHeadingFocused(player, "Game Complete");
    await check(host, "host podium");
    await check(player, "player final");

    expect(found, `axe-core found ${found.length} violation(s):\n${found.join("\n")}`).toEqual([]);
  });
}

/** Chromium logs a console error for a page or fetch that answers 404 (the not-found page does, on purpose). */
function allowNotFoundLogs(consoleErrors: string[]) {
  const expected = (error: string) => error.startsWith("not found: Failed to load resource: the server responded with a status of 404 ");
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !expected(error)));
}

/** A quiz with one question of each kind, the first with a picture: the editor then shows every kind's fields. */
async function createQuizOfEveryKind(context: BrowserContext): Promise<number> {
  const picture = await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .png()
    .toBuffer();
  const upload = await context.request.post("/api/images", { multipart: { image: { name: "band.png", mimeType: "image/png", buffer: picture } } });
  expect(upload.status()).toBe(201);
  const { id: imageId } = await upload.json();
  const quiz = await (
    await context.request.post("/api/quizzes", { data: { title: "Every Kind", description: "One of each", timeLimit: 20, isPublic: false } })
  ).json();
  const questions = [
    { kind: "choice", text: "Which is a woodwind?", answers: ["Trumpet", "Clarinet", "Violin"], correctAnswerIndex: 1, imageId },
    { kind: "trueFalse", text: "Bats are blind.", correctAnswerIndex: 1 },
    { kind: "multiSelect", text: "Which are prime?", answers: ["2", "9", "11"], correctAnswerIndexes: [0, 2] },
    { kind: "typeAnswer", text: "Closest planet to the Sun?", acceptedAnswers: ["Mercury"] },
    { kind: "closestNumber", text: "First Moon landing?", correctNumber: 1969 },
    { kind: "poll", text: "Next round?", answers: ["Music", "Films"] },
  ];
  for (const [order, question] of questions.entries()) {
    const response = await context.request.post("/api/questions", { data: { quizId: quiz.id, order, ...question } });
    expect(response.ok()).toBe(true);
  }
  return quiz.id as number;
}

/** A new account, signed in in `context` (the register form's post, as a browser without JavaScript sends it). */
async function signIn(context: BrowserContext): Promise<void> {
  const id = `axe${randomUUID().slice(0, 8)}`;
  const response = await context.request.post("/auth", {
    form: { intent: "register", username: id, email: `${id}@example.com`, password: "first-password", confirmPassword: "first-password" },
  });
  expect(response.ok()).toBe(true);
}

const FEATURED_SESSION = {
  id: 1,
  quizId: 1,
  title: "Pub Quiz Sampler",
  description: "One of every kind",
  gameCode: "AAAAAA",
  status: "waiting",
  timeLimit: 20,
};

interface Visit {
  name: string;
  path: string;
  /** Pages for a signed-in account (with a quiz of every kind); the others are a visitor's. */
  signedIn?: boolean;
  /** Featured's list comes from /api/game-sessions: these visits answer it themselves. */
  sessions?: unknown[];
  /** What shows once the page is ready. */
  ready: (page: Page) => Promise<void>;
}

const heading = (name: string | RegExp) => async (page: Page) => expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

/** Every page outside a game: issue 16 asks for axe and 44 px targets on each. */
const VISITS: Visit[] = [
  { name: "home", path: "/", ready: heading("Quiz Night") },
  { name: "join", path: "/join", ready: heading("Join a Game") },
  { name: "host", path: "/host", ready: heading("Host a Quiz") },
  { name: "create", path: "/create", ready: heading("Create Quiz") },
  { name: "import", path: "/create/import", ready: heading("Import a Quiz") },
  { name: "plan a night", path: "/night/new", ready: heading("Plan a Night") },
  {
    name: "featured (empty)",
    path: "/featured",
    sessions: [],
    ready: async (page) => expect(page.getByText("Start one yourself and invite your friends.")).toBeVisible(),
  },
  { name: "featured (a public quiz)", path: "/featured", sessions: [FEATURED_SESSION], ready: async (page) => expect(page.getByText("AAAAAA")).toBeVisible() },
  { name: "AI quiz (signed out)", path: "/ai-quiz", ready: heading("Login Required") },
  { name: "subscription (signed out)", path: "/subscription", ready: heading("Choose your plan") },
  { name: "sign in", path: "/auth", ready: async (page) => expect(page.getByRole("tab", { name: "Login" })).toHaveAttribute("aria-selected", "true") },
  {
    name: "register",
    path: "/auth?tab=register",
    ready: async (page) => expect(page.getByRole("tab", { name: "Register" })).toHaveAttribute("aria-selected", "true"),
  },
  { name: "not found", path: "/no-such-page", ready: heading("404 Page Not Found") },
  {
    name: "quiz editor (every kind)",
    path: "/create?edit=",
    signedIn: true,
    ready: async (page) => expect(page.getByRole("group", { name: "Question 6", exact: true })).toBeVisible(),
  },
  { name: "my quizzes", path: "/my-quizzes", signedIn: true, ready: async (page) => expect(page.getByRole("heading", { name: "Every Kind" })).toBeVisible() },
  { name: "AI quiz (signed in)", path: "/ai-quiz", signedIn: true, ready: async (page) => expect(page.getByLabel("Topic")).toBeVisible() },
  { name: "account", path: "/account", signedIn: true, ready: heading("My Account") },
  { name: "subscription (signed in)", path: "/subscription", signedIn: true, ready: heading("Choose your plan") },
  {
    name: "my games (empty)",
    path: "/my-games",
    ready: async (page) => expect(page.getByText("You have not hosted a game yet.", { exact: false })).toBeVisible(),
  },
  { name: "my games", path: "/my-games", signedIn: true, ready: async (page) => expect(page.getByRole("rowheader", { name: "Every Kind" })).toBeVisible() },
  {
    name: "game report (every kind)",
    path: "/my-games/",
    signedIn: true,
    ready: async (page) => expect(page.getByRole("heading", { level: 3, name: "Question 6: Next round?" })).toBeVisible(),
  },
];

/** A visitor's browser and a signed-in one (owning a quiz of every kind), each with the given options; their pages' console errors go to `consoleErrors`. */
async function visitors(browser: Browser, options: Parameters<typeof contextWithClientId>[2], consoleErrors: string[]) {
  const visitor = await contextWithClientId(browser, `visitor-${randomUUID()}`, options);
  const member = await contextWithClientId(browser, `member-${randomUUID()}`, options);
  await signIn(member);
  const quizId = await createQuizOfEveryKind(member);
  // A game of it, so My Games lists one and its report has every kind (nobody has answered yet).
  const game = await (await member.request.post("/api/games", { data: { quizId } })).json();
  return {
    async open(visit: Visit): Promise<Page> {
      const page = await (visit.signedIn ? member : visitor).newPage();
      if (visit.sessions) {
        const body = JSON.stringify(visit.sessions);
        await page.route("**/api/game-sessions", (route) => route.fulfill({ status: 200, contentType: "application/json", body }));
      }
      page.on("console", (message) => {
        if (message.type() === "error") consoleErrors.push(`${visit.name}: ${message.text()}`);
      });
      page.on("pageerror", (error) => consoleErrors.push(`${visit.name}: ${error.message}`));
      await page.goto(visit.path.endsWith("edit=") ? `${visit.path}${quizId}` : visit.path === "/my-games/" ? `${visit.path}${game.id}` : visit.path);
      await waitForHydration(page);
      await visit.ready(page);
      return page;
    },
  };
}

// One visit per page and window size checks both themes with axe and the targets' sizes: a page
// opened once costs less than one opened per check, and the checks are the same.
test("every page outside a game passes axe-core (WCAG 2.2 AA and best practices) in light and dark, and every control on it is at least 44 by 44 px on a desktop (WCAG 2.5.8 and 2.5.5)", async ({
  browser,
  consoleErrors,
}) => {
  test.setTimeout(180_000);
  const violations: string[] = [];
  const small: string[] = [];
  const browsers = await visitors(browser, { ...AXE_CONTEXT, viewport: DESKTOP }, consoleErrors);
  for (const visit of VISITS) {
    const page = await browsers.open(visit);
    violations.push(...(await axeViolationsInBothThemes(page, visit.name)));
    small.push(...(await smallTargets(page, `${visit.name}, ${DESKTOP.width} px`)));
    if (visit.name === "account") {
      await page.locator(".user-menu-button").click();
      small.push(...(await smallTargets(page, `${visit.name}, user menu open, ${DESKTOP.width} px`)));
    }
    await page.close();
  }
  allowNotFoundLogs(consoleErrors);
  expect(violations, `axe-core found ${violations.length} violation(s):\n${violations.join("\n")}`).toEqual([]);
  expect(small, `${small.length} control(s) smaller than 44 x 44 px:\n${small.join("\n")}`).toEqual([]);
});

test("every control on every page outside a game is at least 44 by 44 px on a phone, its menu open too (WCAG 2.5.8 and 2.5.5)", async ({
  browser,
  consoleErrors,
}) => {
  test.setTimeout(180_000);
  const found: string[] = [];
  const browsers = await visitors(browser, { viewport: PHONE }, consoleErrors);
  for (const visit of VISITS) {
    const page = await browsers.open(visit);
    found.push(...(await smallTargets(page, `${visit.name}, ${PHONE.width} px`)));
    if (visit.path === "/" || visit.name === "account") {
      // The phone's menu, opened.
      await page.getByRole("button", { name: "Open menu" }).click();
      await expect(page.getByRole("navigation", { name: "Mobile" })).toBeVisible();
      found.push(...(await smallTargets(page, `${visit.name}, menu open, ${PHONE.width} px`)));
    }
    await page.close();
  }
  allowNotFoundLogs(consoleErrors);
  expect(found, `${found.length} control(s) smaller than 44 x 44 px:\n${found.join("\n")}`).toEqual([]);
});
