/**
 * A night of rounds (docs/decisions/0034-a-night-of-rounds.md) in Chromium: a host plans a
 * two-round night on /night/new, two players play it, the break between the rounds shows the
 * running total, each round's standings and the countdown the host sets, the remote starts the
 * second round, and the podium shows the evening's total with each round's own standings. The plan
 * page and the break pass axe-core in the light and the dark theme; the plan also works without
 * JavaScript.
 */
import { randomUUID } from "node:crypto";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { AXE_CONTEXT, axeViolations } from "./axe";
import { contextWithClientId, expect, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };

/** Every page of a context fails the test on a console error, as the `page` fixture does. */
function watchConsole(page: Page, errors: string[]): Page {
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
  return page;
}

/** A one-question quiz made through the API by `clientId`: its id. */
async function quizOf(
  page: Page,
  clientId: string,
  title: string,
  isPublic: boolean,
  question: { text: string; answers: string[]; correctAnswerIndex: number },
) {
  const headers = { "x-client-id": clientId };
  const quiz = await (await page.request.post("/api/quizzes", { data: { title, description: "", timeLimit: 30, isPublic }, headers })).json();
  await page.request.post("/api/questions", { data: { quizId: quiz.id, order: 0, ...question }, headers });
  return quiz.id as number;
}

/** A browser the game has its client id for, as the host's laptop (cookie included, so its pages know it is the host). */
async function hostBrowser(browser: Browser, baseURL: string, clientId: string, options: Parameters<Browser["newContext"]>[0] = {}): Promise<BrowserContext> {
  const context = await contextWithClientId(browser, clientId, { ...AXE_CONTEXT, ...options });
  await context.addCookies([{ name: "quiz_client_id", value: clientId, url: baseURL }]);
  return context;
}

/** axe in both themes on the page as it is now. */
async function checkBothThemes(page: Page, screen: string, found: string[]) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    found.push(...(await axeViolations(page, `${screen}, ${colorScheme}`)));
  }
  await page.emulateMedia({ colorScheme: null });
}

test("a host plans a two-round night, two players play it with a break between the rounds, and the podium shows the evening's total and each round's standings", async ({
  baseURL: origin,
  browser,
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  const found: string[] = [];
  const baseURL = origin!;
  const hostId = `host-${randomUUID()}`;
  const tag = randomUUID().slice(0, 6);
  await quizOf(page, hostId, `General ${tag}`, false, { text: "What is 2 + 2?", answers: ["3", "4", "5"], correctAnswerIndex: 1 });
  await quizOf(page, `someone-${randomUUID()}`, `Pictures ${tag}`, true, { text: "Which planet is red?", answers: ["Mars", "Venus"], correctAnswerIndex: 0 });

  const host = watchConsole(await (await hostBrowser(browser, baseURL, hostId)).newPage(), errors);
  await host.goto("/host");
  await host.getByRole("link", { name: "Plan a night" }).click();
  await expect(host).toHaveURL("/night/new");
  await expect(host.getByRole("heading", { level: 1, name: "Plan a Night" })).toBeVisible();
  await checkBothThemes(host, "plan page", found);

  // Two rounds to start with; each a quiz the host may host, its title the quiz's until one is typed.
  const round = (n: number) => host.getByRole("group", { name: `Round ${n}` });
  await expect(host.getByRole("group", { name: /^Round \d+$/ })).toHaveCount(2);
  await round(1)
    .getByLabel("Quiz")
    .selectOption({ label: `General ${tag} · 1 question · Private` });
  await expect(round(1).getByLabel("Round title")).toHaveValue(`General ${tag}`);
  await round(2)
    .getByLabel("Quiz")
    .selectOption({ label: `Pictures ${tag} · 1 question · Public` });
  await round(2).getByLabel("Round title").fill("Picture round");

  // Add, move and remove rounds; the keyboard stays with what moved.
  await host.getByRole("button", { name: "Add a Round" }).click();
  await expect(host.getByRole("group", { name: /^Round \d+$/ })).toHaveCount(3);
  await expect(round(3).getByLabel("Quiz")).toBeFocused();
  await round(2).getByRole("button", { name: "Move round 2 up" }).click();
  await expect(round(1).getByLabel("Round title")).toHaveValue("Picture round");
  await expect(round(2).getByLabel("Round title")).toHaveValue(`General ${tag}`);
  // At the top it can go no further up: the keyboard goes to its quiz.
  await expect(round(1).getByLabel("Quiz")).toBeFocused();
  await round(1).getByRole("button", { name: "Move round 1 down" }).click();
  await expect(round(2).getByRole("button", { name: "Move round 2 down" })).toBeFocused();
  await expect(round(1).getByLabel("Round title")).toHaveValue(`General ${tag}`);
  await expect(round(2).getByLabel("Round title")).toHaveValue("Picture round");

  // A round without a quiz is refused before posting, with its round named and focus on its field.
  await host.getByRole("button", { name: "Host the Night" }).click();
  await expect(round(3).getByText("Round 3: choose a quiz.")).toBeVisible();
  await expect(host.getByText("Give the night a title.")).toBeVisible();
  await expect(host.getByLabel("Night title")).toBeFocused();
  await checkBothThemes(host, "plan page with errors", found);
  await round(3).getByRole("button", { name: "Remove round 3" }).click();
  await expect(host.getByRole("group", { name: /^Round \d+$/ })).toHaveCount(2);
  await host.getByLabel("Night title").fill("Friday Night");
  await host.screenshot({ path: testInfo.outputPath("plan.png"), fullPage: true });
  for (const target of [round(1).getByRole("button", { name: "Move round 1 down" }), host.getByRole("button", { name: "Add a Round" })]) {
    const box = (await target.boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
  }
  await host.getByRole("button", { name: "Host the Night" }).click();

  // The lobby, as host, under the night's title.
  await expect(host).toHaveURL(/\/waiting\/[A-Z0-9]{6}$/);
  const gameCode = new URL(host.url()).pathname.split("/").pop()!;
  await expect(host.getByRole("button", { name: "Start Game" })).toBeVisible();
  await expect(host.getByText("Friday Night", { exact: true })).toBeVisible();
  const section = host.getByRole("region", { name: "Display and remote" });
  const displayUrl = (await section.getByRole("link", { name: "Open the display" }).getAttribute("href"))!;
  await section.getByRole("button", { name: "Show remote code" }).click();
  const remoteUrl = (await section.getByRole("link", { name: "Open the remote" }).getAttribute("href"))!;

  const display = watchConsole(
    await (await contextWithClientId(browser, `projector-${randomUUID()}`, { ...AXE_CONTEXT, viewport: { width: 1920, height: 1080 } })).newPage(),
    errors,
  );
  await display.goto(displayUrl);
  const remote = watchConsole(
    await (await contextWithClientId(browser, `phone-${randomUUID()}`, { ...AXE_CONTEXT, viewport: PHONE, hasTouch: true })).newPage(),
    errors,
  );
  await remote.goto(remoteUrl);
  await expect(remote.getByTestId("remote-phase")).toHaveText("Lobby");

  const players: Page[] = [];
  for (const name of ["Ann", "Ben"]) {
    const player = watchConsole(await (await contextWithClientId(browser, `player-${randomUUID()}`, { ...AXE_CONTEXT, viewport: PHONE })).newPage(), errors);
    await player.goto(`/waiting/${gameCode}?nickname=${name}`);
    await expect(player.getByText("Waiting for host to start the game...")).toBeVisible();
    players.push(player);
  }
  const [ann, ben] = players;
  await expect(host.getByTestId("player-count")).toHaveText("2");

  // Round 1: every question screen says which round it is.
  await host.getByRole("button", { name: "Start Game" }).click();
  for (const player of players) await expect(player).toHaveURL(`/play/${gameCode}`);
  await expect(ann.getByTestId("round-label")).toHaveText(`Round 1 of 2 · General ${tag}`);
  await expect(host.getByTestId("round-label")).toHaveText(`Round 1 of 2 · General ${tag}`);
  await expect(display.getByTestId("round-label")).toHaveText(`Round 1 of 2 · General ${tag}`);
  await ann.getByRole("button", { name: /B\. 4/ }).click();
  await ben.getByRole("button", { name: /A\. 3/ }).click();

  // The round's last leaderboard leads to the break, not to the podium.
  await expect(ann).toHaveURL(`/leaderboard/${gameCode}`);
  await expect(ann.getByTestId("round-label")).toHaveText(`Round 1 of 2 · General ${tag}`);
  await expect(ann.getByText(/^Break in \d seconds?\.\.\.$/)).toBeVisible();
  await expect(host.getByRole("button", { name: "Go to the break" })).toBeVisible();

  // The break: which round ended and which comes next, the running total, each round's standings.
  for (const screen of [host, ann, ben]) {
    await expect(screen).toHaveURL(`/break/${gameCode}`);
    await expect(screen.getByRole("heading", { level: 1 })).toHaveText(`Round 1 of 2 complete: General ${tag}`);
    await expect(screen.getByRole("heading", { level: 1 })).toBeFocused();
    await expect(screen.getByTestId("next-round")).toHaveText("Next up: round 2, Picture round");
  }
  await expect(ann.getByRole("list", { name: "Players' running total" })).toContainText("Ann");
  await expect(ann.getByRole("list", { name: "Players' running total" })).toContainText("Ben");
  await expect(ann.getByTestId("own-place")).toHaveText(/^You are #1 of 2 with \d+ points$/);
  await expect(ben.getByTestId("own-place")).toHaveText("You are #2 of 2 with 0 points");
  await expect(ann.getByText("Waiting for the host to start round 2...")).toBeVisible();
  const firstRound = ann.getByTestId("round-standings-1");
  await expect(firstRound.locator("summary")).toHaveText(`Round 1: General ${tag}`);
  await expect(firstRound.getByRole("list", { name: `Round 1: General ${tag} · players` })).toContainText("Ann");
  await expect(host.getByTestId("break-controls")).toBeVisible();
  await expect(ann.getByTestId("break-controls")).toHaveCount(0);
  await expect(display.getByRole("heading", { level: 1 })).toHaveText(`Round 1 of 2 complete: General ${tag}`);
  await expect(display.getByTestId("running-total")).toContainText("Ann");
  await expect(remote.getByTestId("remote-phase")).toHaveText("Break");
  await expect(remote.getByRole("button", { name: "Start round 2: Picture round" })).toBeVisible();
  await expect(ann.getByText("The host starts the next round when everyone is back.")).toBeVisible();
  await checkBothThemes(host, "host break", found);
  await checkBothThemes(ann, "player break", found);
  await checkBothThemes(display, "display break", found);
  await checkBothThemes(remote, "remote break", found);

  // "Back in 5 minutes": every screen counts down, a screen reader hears it once.
  await host.getByRole("button", { name: "5 minutes", exact: true }).click();
  for (const screen of [ann, ben, display, remote]) await expect(screen.getByTestId("break-clock")).toHaveText(/^Back in [45]:\d\d$/);
  await expect(ann.getByTestId("break-announcement")).toHaveText("Back in 5 minutes.");
  await expect(ann.getByRole("timer")).toBeVisible();
  await ann.screenshot({ path: testInfo.outputPath("phone-break.png"), fullPage: true });
  await display.screenshot({ path: testInfo.outputPath("display-break.png") });
  for (const target of [
    host.getByRole("button", { name: "No countdown" }),
    remote.getByRole("button", { name: "10 minutes" }),
    ann.locator("summary").first(),
  ]) {
    const box = (await target.boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
  }

  // The remote starts round 2: its first question at once, labelled.
  await remote.getByRole("button", { name: "Start round 2: Picture round" }).click();
  for (const player of players) await expect(player).toHaveURL(`/play/${gameCode}`);
  await expect(host).toHaveURL(`/host/${gameCode}`);
  await expect(ben.getByTestId("round-label")).toHaveText("Round 2 of 2 · Picture round");
  await expect(ben.getByRole("heading", { name: "Question 1 of 1" })).toBeVisible();
  await expect(display.getByTestId("round-label")).toHaveText("Round 2 of 2 · Picture round");
  await ben.getByRole("button", { name: /A\. Mars/ }).click();
  await ann.getByRole("button", { name: /B\. Venus/ }).click();
  await expect(ben).toHaveURL(`/leaderboard/${gameCode}`);
  await expect(ben.getByText(/^Final results in \d seconds?\.\.\.$/)).toBeVisible();

  // The podium: the evening's total, then each round's own standings.
  for (const screen of [host, ann, ben]) await expect(screen).toHaveURL(`/results/${gameCode}`);
  await expect(ann.getByLabel("Podium")).toContainText("Ann");
  await expect(ann.getByLabel("Podium")).toContainText("Ben");
  const rounds = ann.getByRole("region", { name: "Each round" });
  await expect(rounds.getByTestId("round-standings-1").locator("summary")).toHaveText(`Round 1: General ${tag}`);
  await expect(rounds.getByTestId("round-standings-2").locator("summary")).toHaveText("Round 2: Picture round");
  const second = rounds.getByRole("list", { name: "Round 2: Picture round · players" });
  await expect(second.locator("li").first()).toContainText("Ben");
  await expect(
    rounds
      .getByRole("list", { name: `Round 1: General ${tag} · players` })
      .locator("li")
      .first(),
  ).toContainText("Ann");
  await expect(display.getByRole("region", { name: "Each round" }).getByTestId("round-standings-2")).toBeVisible();
  // A night is not played again: its host plans the next one.
  await expect(host.getByRole("button", { name: "Play Again" })).toHaveCount(0);
  await expect(host.getByRole("link", { name: "Plan another night" })).toBeVisible();
  await expect(remote.getByRole("button", { name: "Play Again" })).toHaveCount(0);
  await checkBothThemes(ann, "player podium", found);

  expect(found, `axe-core found ${found.length} violation(s):\n${found.join("\n")}`).toEqual([]);
  expect(errors).toEqual([]);
});

test("the plan works without JavaScript: rounds are added and removed by posting the form, errors name the round, and hosting opens the lobby", async ({
  baseURL,
  browser,
  page,
}) => {
  const clientId = `nojs-${randomUUID()}`;
  const tag = randomUUID().slice(0, 6);
  await quizOf(page, clientId, `Plain ${tag}`, false, { text: "Q?", answers: ["a", "b"], correctAnswerIndex: 0 });
  const context = await hostBrowser(browser, baseURL!, clientId, { javaScriptEnabled: false });
  const host = await context.newPage();
  await host.goto("/night/new");
  const round = (n: number) => host.getByRole("group", { name: `Round ${n}` });
  await host.getByLabel("Night title").fill("Plain night");
  await round(1)
    .getByLabel("Quiz")
    .selectOption({ label: `Plain ${tag} · 1 question · Private` });
  await round(2)
    .getByLabel("Quiz")
    .selectOption({ label: `Plain ${tag} · 1 question · Private` });
  await round(2).getByLabel("Round title").fill("Second helping");

  await host.getByRole("button", { name: "Add a Round" }).click();
  await expect(host.getByRole("group", { name: /^Round \d+$/ })).toHaveCount(3);
  await expect(host.getByLabel("Night title")).toHaveValue("Plain night");
  await expect(round(2).getByLabel("Round title")).toHaveValue("Second helping");

  await host.getByRole("button", { name: "Host the Night" }).click();
  await expect(round(3).getByText("Round 3: choose a quiz.")).toBeVisible();
  await round(3).getByRole("button", { name: "Remove round 3" }).click();
  await expect(host.getByRole("group", { name: /^Round \d+$/ })).toHaveCount(2);
  await host.getByRole("button", { name: "Host the Night" }).click();
  await expect(host).toHaveURL(/\/waiting\/[A-Z0-9]{6}\?hosted=1$/);
  await expect(host.getByText("Plain night", { exact: true })).toBeVisible();
});
