import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import { contextWithClientId, expect, test } from "./fixtures";

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
/** WCAG 2.2 AA and axe's best practices: issue 16 asks for no violation of any impact. */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];
const PHONE = { width: 390, height: 844 };
const QUESTIONS = [
  { text: "What is 2 + 2?", answers: ["3", "4", "5", "22"], correctAnswerIndex: 1 },
  { text: "Capital of France?", answers: ["Paris", "Rome", "Madrid", "Berlin"], correctAnswerIndex: 0 },
];

/** bypassCSP: the app's nonce-based Content-Security-Policy would refuse the injected axe script. */
const AXE_CONTEXT = { bypassCSP: true };

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] };

async function createHostedGame(page: Page, hostClientId: string): Promise<string> {
  const headers = { "x-client-id": hostClientId };
  const quiz = await (
    await page.request.post("/api/quizzes", { data: { title: "Accessible Night", description: "", timeLimit: 30, isPublic: true }, headers })
  ).json();
  for (const [order, question] of QUESTIONS.entries()) {
    await page.request.post("/api/questions", { data: { quizId: quiz.id, order, ...question }, headers });
  }
  const game = await (await page.request.post("/api/games", { data: { quizId: quiz.id }, headers })).json();
  await page.request.post(`/api/games/${game.gameCode}/register-host`, { data: { clientId: hostClientId } });
  return game.gameCode as string;
}

/** Runs axe on the page as it is now; returns one readable line per violating node. */
async function axeViolations(page: Page, screen: string): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    // @ts-expect-error -- axe is the global the injected script defines
    (tags) => window.axe.run(document, { runOnly: tags, resultTypes: ["violations"] }).then((result) => result.violations),
    AXE_TAGS,
  );
  return (violations as AxeViolation[]).flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `[${screen}] ${violation.id} (${violation.impact}) at ${node.target.join(" ")}: ${violation.help}${node.failureSummary ? ` — ${node.failureSummary.replace(/\s+/g, " ")}` : ""}`,
    ),
  );
}

/** Each game screen moves focus to its heading, so a screen reader reads the new screen from its top. */
async function expectHeadingFocused(page: Page, name: string | RegExp) {
  await expect(page.getByRole("heading", { level: 1, name })).toBeFocused();
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`every screen of a whole game passes axe-core (WCAG 2.2 AA and best practices), host and player, ${colorScheme}`, async ({
    browser,
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const found: string[] = [];
    const check = async (target: Page, screen: string) => found.push(...(await axeViolations(target, screen)));

    const hostId = `host-${randomUUID()}`;
    const gameCode = await createHostedGame(page, hostId);
    const host = await (await contextWithClientId(browser, hostId, { ...AXE_CONTEXT, colorScheme })).newPage();
    await host.context().addCookies([{ name: "quiz_client_id", value: hostId, url: testInfo.project.use.baseURL! }]);
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
