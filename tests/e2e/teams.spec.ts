/**
 * Team mode's screens in Chromium (docs/decisions/0033-team-scoring.md): the host turns on team
 * mode and sets up the teams in the lobby; players pick a team on the join form (from the QR
 * code's link, or once the code is typed), start a new one, pick one in the lobby, or arrive with
 * one in the lobby's link (where the form sends a browser without JavaScript); everyone plays;
 * the leaderboard shows the team standings and each phone its team and what it added; the podium
 * shows the team podium. Each new screen passes axe-core in the light and the dark theme.
 */
import { randomUUID } from "node:crypto";
import type { Browser, BrowserContextOptions, Locator, Page } from "@playwright/test";
import { AXE_CONTEXT, axeViolations } from "./axe";
import { contextWithClientId, createHostedGame, expect, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };
const QUESTIONS = [
  { text: "What is 2 + 2?", answers: ["3", "4"], correctAnswerIndex: 1 },
  { text: "Capital of France?", answers: ["Paris", "Rome"], correctAnswerIndex: 0 },
  { text: "Largest planet?", answers: ["Mars", "Jupiter"], correctAnswerIndex: 1 },
];

/** Every page of a context fails the test on a console error, as the `page` fixture does. */
function watchConsole(page: Page, errors: string[]): Page {
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
  return page;
}

async function expectTouchTarget(target: Locator) {
  const box = (await target.boundingBox())!;
  expect(Math.min(box.width, box.height), (await target.textContent()) ?? undefined).toBeGreaterThanOrEqual(44);
}

test("the host sets up teams, players pick them on the join form and in the lobby, and the leaderboard and the podium show the teams", async ({
  baseURL,
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  const found: string[] = [];
  /** axe in the light theme, then in the dark one. */
  const check = async (target: Page, screen: string) => {
    for (const colorScheme of ["light", "dark"] as const) {
      await target.emulateMedia({ colorScheme });
      found.push(...(await axeViolations(target, `${screen}, ${colorScheme}`)));
    }
    await target.emulateMedia({ colorScheme: "light" });
  };
  const newPage = async (b: Browser, id: string, options: BrowserContextOptions = {}) =>
    watchConsole(await (await contextWithClientId(b, id, { ...AXE_CONTEXT, ...options })).newPage(), errors);

  const hostId = `host-${randomUUID()}`;
  const gameCode = await createHostedGame(page, hostId, { title: "Team Night", timeLimit: 30, questions: QUESTIONS });
  const host = await newPage(browser, hostId);
  await host.context().addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL! }]);
  await host.goto(`/waiting/${gameCode}`);

  // The host turns team mode on and adds two teams; "Add tables" adds Table 1, which goes again.
  const setup = host.getByRole("region", { name: "Teams" });
  await setup.getByLabel("Play in teams").check();
  await setup.getByLabel("Team name").fill("Owls");
  await setup.getByRole("button", { name: "Add team" }).click();
  await setup.getByLabel("Team name").fill("Foxes");
  await setup.getByLabel("Team name").press("Enter");
  const hostTeams = setup.getByRole("list", { name: "Teams" });
  await expect(hostTeams.getByRole("listitem")).toHaveText([/^Owls0 players/, /^Foxes0 players/]);
  await setup.getByLabel("Tables").fill("1");
  await setup.getByRole("button", { name: "Add table 1" }).click();
  await expect(hostTeams.getByRole("listitem")).toHaveCount(3);
  await setup.getByRole("button", { name: "Remove team Table 1" }).click();
  await expect(hostTeams.getByRole("listitem")).toHaveCount(2);
  await expect(setup.getByLabel("Team name")).toBeFocused();
  await check(host, "host lobby with teams");

  // The display shows the teams in the lobby; the remote has the team setup too.
  const links = host.getByRole("region", { name: "Display and remote" });
  const displayUrl = (await links.getByRole("link", { name: "Open the display" }).getAttribute("href"))!;
  await links.getByRole("button", { name: "Show remote code" }).click();
  const remoteUrl = (await links.getByRole("link", { name: "Open the remote" }).getAttribute("href"))!;
  const display = await newPage(browser, `projector-${randomUUID()}`, { viewport: { width: 1920, height: 1080 } });
  await display.goto(displayUrl);
  const displayTeams = display.getByRole("region", { name: /^Teams/ });
  await expect(displayTeams.getByRole("list", { name: "Teams" })).toContainText("Owls");
  const remote = await newPage(browser, `phone-${randomUUID()}`, { viewport: PHONE, hasTouch: true });
  await remote.goto(remoteUrl);
  await expect(remote.getByRole("region", { name: "Teams" }).getByLabel("Play in teams")).toBeChecked();
  await check(remote, "remote lobby with teams");

  // Ann scans the QR code (its link has the code) and picks Owls on the join form.
  const ann = await newPage(browser, `ann-${randomUUID()}`, { viewport: PHONE, hasTouch: true });
  await ann.goto(`/join?code=${gameCode}`);
  const annTeam = ann.getByRole("group", { name: "Team" });
  await expect(annTeam.getByRole("radio", { name: "Pick later" })).toBeChecked();
  await expectTouchTarget(annTeam.locator("label").filter({ hasText: "Owls" }));
  await check(ann, "join form with teams");
  await annTeam.getByRole("radio", { name: /^Owls/ }).check();
  await ann.getByLabel("Nickname").fill("Ann");
  await ann.getByRole("button", { name: "Join Game" }).click();
  await expect(ann.getByTestId("my-team")).toHaveText("You play for Owls");
  await check(ann, "player lobby in team mode");

  // Ben starts a new team on the join form: typing its name chooses "New team".
  const ben = await newPage(browser, `ben-${randomUUID()}`, { viewport: PHONE });
  await ben.goto(`/join?code=${gameCode}`);
  await ben.getByRole("textbox", { name: "New team" }).fill("Badgers");
  await expect(ben.getByRole("radio", { name: "New team" })).toBeChecked();
  await ben.getByLabel("Nickname").fill("Ben");
  await ben.getByRole("button", { name: "Join Game" }).click();
  await expect(ben.getByTestId("my-team")).toHaveText("You play for Badgers");

  // Cara types the code: the teams appear; she picks later, then Foxes in the lobby.
  const cara = await newPage(browser, `cara-${randomUUID()}`, { viewport: PHONE, hasTouch: true });
  await cara.goto("/join");
  await expect(cara.getByRole("group", { name: "Team" })).toHaveCount(0);
  await cara.getByLabel("Game code").fill(gameCode);
  await expect(cara.getByRole("group", { name: "Team" }).getByRole("radio", { name: /^Badgers/ })).toBeVisible();
  await cara.getByLabel("Nickname").fill("Cara");
  await cara.getByRole("button", { name: "Join Game" }).click();
  await expect(cara.getByTestId("my-team")).toHaveText("Pick your team");
  const foxes = cara.getByRole("button", { name: /^Foxes/ });
  await expect(foxes).toHaveAttribute("aria-pressed", "false");
  await expectTouchTarget(foxes);
  await foxes.click();
  await expect(cara.getByTestId("my-team")).toHaveText("You play for Foxes");
  await expect(foxes).toHaveAttribute("aria-pressed", "true");
  await expect(foxes).toContainText("1 player");

  // Without JavaScript, the form learns of the teams when the code is posted, and hands the choice to the lobby's link.
  const noScript = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  const eve = await noScript.newPage();
  await eve.goto("/join");
  await eve.getByLabel("Game code").fill(gameCode);
  await eve.getByLabel("Nickname").fill("Dan");
  await eve.getByRole("button", { name: "Join Game" }).click();
  await eve.getByRole("group", { name: "Team" }).getByRole("radio", { name: /^Owls/ }).check();
  await eve.getByRole("button", { name: "Join Game" }).click();
  await expect(eve).toHaveURL(`/waiting/${gameCode}?nickname=Dan&team=Owls`);
  await noScript.close();

  // Dan's phone opens that link with JavaScript: it joins Owls.
  const dan = await newPage(browser, `dan-${randomUUID()}`, { viewport: PHONE });
  await dan.goto(`/waiting/${gameCode}?nickname=Dan&team=Owls`);
  await expect(dan.getByTestId("my-team")).toHaveText("You play for Owls");

  await expect(host.getByTestId("player-count")).toHaveText("4");
  await expect(hostTeams.getByRole("listitem").filter({ hasText: "Owls" })).toContainText("2 players");
  await expect(hostTeams.getByRole("listitem").filter({ hasText: "Badgers" })).toContainText("1 player");
  await expect(displayTeams.getByRole("listitem").filter({ hasText: "Foxes" })).toContainText("1 player");
  await check(display, "display lobby with teams");

  // Question 1: Ann and Ben are right, Cara and Dan wrong.
  await host.getByRole("button", { name: "Start Game" }).click();
  // The last answer closes the question at once: the result may replace "Answer submitted!" before anyone looks.
  const answer = async (player: Page, option: RegExp) => {
    await player.getByRole("button", { name: option }).click();
    await expect(player.getByText("Answer submitted!").or(player.getByRole("heading", { name: /^(Correct!|Incorrect)$/ }))).toBeVisible();
  };
  await answer(ann, /B\. 4/);
  await answer(ben, /B\. 4/);
  await answer(cara, /A\. 3/);
  await answer(dan, /A\. 3/);

  // The leaderboard: the teams above the players, and each phone its team and what it added.
  await expect(ben.getByRole("heading", { name: "Leaderboard" })).toBeVisible();
  const benTeam = (await ben.getByTestId("own-team").textContent())!;
  const [, benTeamScore, benAdded] = /^Your team Badgers is #1 with (\d+) points?You added (\d+) points?$/.exec(benTeam)!;
  expect(Number(benTeamScore)).toBeGreaterThan(0);
  // Alone in his team, Ben's points are the team's.
  expect(benAdded).toBe(benTeamScore);
  await expect(ann.getByTestId("own-team")).toHaveText(/^Your team Owls is #2 with \d+ points?You added \d+ points?$/);
  await expect(dan.getByTestId("own-team")).toHaveText(/^Your team Owls is #2 with \d+ points?You added 0 points$/);
  await expect(cara.getByTestId("own-team")).toHaveText("Your team Foxes is #3 with 0 pointsYou added 0 points");
  await expect(ann.getByRole("list", { name: "Team standings" }).getByRole("listitem")).toHaveText([/^1.*Badgers/, /^2.*Owls/, /^3.*Foxes/]);
  await check(ann, "player leaderboard with teams");

  // Question 2: on its leaderboard, the host's screen and the display show the team standings too.
  for (const player of [ann, ben, cara, dan]) await answer(player, /A\. Paris/);
  await expect(host.getByRole("heading", { name: "Leaderboard" })).toBeVisible();
  await expect(host.getByRole("list", { name: "Team standings" })).toContainText("Badgers");
  await expect(host.getByTestId("own-team")).toHaveCount(0);
  await expect(display.getByRole("list", { name: "Team standings" })).toContainText("Foxes");
  await Promise.all([check(host, "host leaderboard with teams"), check(display, "display leaderboard with teams")]);

  // Question 3, then the podium.
  for (const player of [ann, ben, cara, dan]) await answer(player, /B\. Jupiter/);
  await expect(ann.getByRole("heading", { name: "Game Complete" })).toBeVisible({ timeout: 15_000 });
  await expect(ann.getByLabel("Team podium")).toContainText("Badgers");
  await expect(ann.getByLabel("Podium", { exact: true })).toContainText("Ben");
  await expect(ann.getByTestId("own-team")).toHaveText(/^Your team Owls finished #2 with \d+ points?You added \d+ points?$/);
  await expect(ann.getByRole("list", { name: "All teams" }).getByRole("listitem")).toHaveCount(3);
  await check(ann, "player podium with teams");
  await expect(host.getByRole("heading", { name: "Game Complete" })).toBeVisible();
  await expect(host.getByLabel("Team podium")).toContainText("Owls");
  await expect(display.getByLabel("Team podium")).toContainText("Foxes");
  await expect(remote.getByRole("list", { name: "All teams" })).toContainText("Badgers");
  await check(host, "host podium with teams");
  await check(display, "display podium with teams");
  await check(remote, "remote podium with teams");

  expect(found).toEqual([]);
  expect(errors).toEqual([]);
});
