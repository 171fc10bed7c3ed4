/**
 * Display and remote (issue 17, docs/decisions/0032-display-and-remote.md) in Chromium: the host
 * opens the display for the projector in one browser and runs the game from a phone-sized remote in
 * another; a player answers; the display shows the lobby, the question, the reveal, the standings
 * and the podium. Each new screen passes axe-core in the light and the dark theme, as in
 * tests/e2e/accessibility.spec.ts, and the remote's controls are 44 px targets.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { AXE_CONTEXT, axeScreens, smallTargets } from "./axe";
import { ScreenHold } from "./screen-hold";
import { contextWithClientId, createHostedGame, expect, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };
const FULL_HD = { width: 1920, height: 1080 };

/** Every page of a context fails the test on a console error, as the `page` fixture does. */
function watchConsole(page: Page, errors: string[]): Page {
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
  return page;
}

test("the host opens the display in one browser and runs the game from a phone-sized remote in another; the display shows the question, the reveal and the podium; every screen passes axe in both themes", async ({
  baseURL,
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  const found: string[] = [];
  const small: string[] = [];
  /** axe in both themes on each screen at once; the remote's controls are 44 px targets too. */
  async function check(...screens: [Page, string][]) {
    found.push(...(await axeScreens(...screens)));
    for (const [page, screen] of screens) if (screen.startsWith("remote")) small.push(...(await smallTargets(page, screen)));
  }

  const hostId = `host-${randomUUID()}`;
  const gameCode = await createHostedGame(page, hostId, {
    title: "Pub Night",
    timeLimit: 30,
    questions: [
      { text: "Which planet is the largest?", answers: ["Mars", "Jupiter", "Venus"], correctAnswerIndex: 1 },
      { text: "Which ocean is the largest?", answers: ["Pacific", "Atlantic"], correctAnswerIndex: 0 },
    ],
  });
  const hostContext = await contextWithClientId(browser, hostId, AXE_CONTEXT);
  await hostContext.addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL! }]);
  const host = watchConsole(await hostContext.newPage(), errors);
  await host.goto(`/waiting/${gameCode}`);

  // The host's lobby: the display's link and QR code in sight; the remote's only on request, with its warning.
  const section = host.getByRole("region", { name: "Display and remote" });
  await expect(section.getByRole("img", { name: `QR code of the display link for game ${gameCode}` })).toBeVisible();
  const displayUrl = (await section.getByRole("link", { name: "Open the display" }).getAttribute("href"))!;
  expect(displayUrl).toMatch(new RegExp(`/display/${gameCode}\\?key=[A-Za-z0-9_-]{24}$`));
  await expect(section.getByRole("link", { name: "Open the remote" })).toHaveCount(0);
  const showRemote = section.getByRole("button", { name: "Show remote code" });
  await expect(showRemote).toHaveAttribute("aria-expanded", "false");
  await showRemote.click();
  await expect(section.getByRole("note")).toHaveText("Anyone who scans this code can run the game. Show it only on your own screen, never on the projector.");
  const remoteUrl = (await section.getByRole("link", { name: "Open the remote" }).getAttribute("href"))!;
  expect(remoteUrl).toMatch(new RegExp(`/remote/${gameCode}\\?key=[A-Za-z0-9_-]{24}$`));
  await check([host, "host lobby with the remote code"]);
  await section.getByRole("button", { name: "Hide remote code" }).click();
  await expect(section.getByRole("link", { name: "Open the remote" })).toHaveCount(0);

  // The projector's computer, and the host's phone: browsers the game has never seen. A reveal and a leaderboard are
  // up for a few seconds only: their screens are held (tests/e2e/screen-hold.ts) while axe looks at them.
  const displayContext = await contextWithClientId(browser, `projector-${randomUUID()}`, { ...AXE_CONTEXT, viewport: FULL_HD });
  const remoteContext = await contextWithClientId(browser, `phone-${randomUUID()}`, { ...AXE_CONTEXT, viewport: PHONE, hasTouch: true });
  const holds = [await ScreenHold.on(displayContext), await ScreenHold.on(remoteContext)];
  const display = watchConsole(await displayContext.newPage(), errors);
  await display.goto(displayUrl);
  await expect(display.getByRole("heading", { name: "Game code" })).toBeVisible();
  await expect(display.getByLabel(`Game code ${gameCode.split("").join(" ")}`)).toBeVisible();
  await expect(display.getByRole("img", { name: new RegExp(`QR code to join game ${gameCode}`) })).toBeVisible();
  const remote = watchConsole(await remoteContext.newPage(), errors);
  await remote.goto(remoteUrl);
  await expect(remote.getByRole("heading", { name: `Remote · ${gameCode}` })).toBeVisible();
  await expect(remote.getByTestId("remote-phase")).toHaveText("Lobby");

  const player = watchConsole(await (await contextWithClientId(browser, `player-${randomUUID()}`, { viewport: PHONE })).newPage(), errors);
  await player.goto(`/waiting/${gameCode}?nickname=Kim`);
  await expect(display.getByTestId("player-count")).toHaveText("1");
  await expect(display.getByRole("list", { name: "Players" })).toContainText("Kim");
  await expect(remote.getByRole("list", { name: "Players" })).toContainText("Kim");
  // The remote's lobby: Start, Lock, the player search and Remove Kim, each a 44 px target (check's smallTargets).
  await expect(remote.getByRole("button", { name: "Remove Kim" })).toBeVisible();
  await check([display, "display lobby"], [remote, "remote lobby"]);

  // The remote locks and unlocks, then starts; everyone moves on, the remote and the display stay on their pages.
  await remote.getByRole("button", { name: "Lock Game" }).click();
  await expect(remote.getByRole("button", { name: "Unlock Game" })).toHaveAttribute("aria-pressed", "true");
  await expect(display.getByText("The host has locked the game.")).toBeVisible();
  await remote.getByRole("button", { name: "Unlock Game" }).click();
  await remote.getByRole("button", { name: "Start Game" }).click();
  await expect(display.getByRole("heading", { name: "Question 1 of 2" })).toBeVisible();
  await expect(display.getByText("Which planet is the largest?")).toBeVisible();
  await expect(display).toHaveURL(displayUrl);
  await expect(remote).toHaveURL(remoteUrl);
  await expect(remote.getByTestId("remote-phase")).toHaveText("Question open");
  await expect(host).toHaveURL(`/host/${gameCode}`);
  await expect(display.getByTestId("answered-count")).toHaveText("0 of 1 answered");
  await check([display, "display question"], [remote, "remote question"]);

  // Pause and resume from the phone: the display holds its countdown meanwhile.
  await remote.getByRole("button", { name: "Pause" }).click();
  await expect(display.getByTestId("countdown-paused")).toBeVisible();
  await expect(remote.getByTestId("remote-phase")).toHaveText("Paused");
  await check([display, "display paused"], [remote, "remote paused"]);
  await remote.getByRole("button", { name: "Resume" }).click();
  await expect(display.getByTestId("countdown-paused")).toHaveCount(0);

  // The player answers; the only player has answered, so the question closes and the display reveals it.
  for (const hold of holds) hold.holdFrom("LEADERBOARD_UPDATE");
  await player.getByRole("button", { name: /B\. Jupiter/ }).click();
  await expect(display.getByLabel("Answer distribution")).toBeVisible();
  await expect(display.getByTestId("answered-count")).toHaveText("1 of 1 answered");
  await expect(remote.getByTestId("remote-phase")).toHaveText("Answer revealed");
  await check([display, "display reveal"], [remote, "remote reveal"]);
  await expect(display.getByLabel("Answer distribution")).toBeVisible();
  await expect(remote.getByTestId("remote-phase")).toHaveText("Answer revealed");
  // On to the leaderboard, held in its turn until checked.
  for (const hold of holds) hold.release("QUESTION_STARTED");
  await expect(display.getByRole("heading", { name: "Leaderboard" })).toBeVisible();
  await expect(display.getByRole("list", { name: "Leaderboard" })).toContainText("Kim");
  await expect(remote.getByTestId("remote-phase")).toHaveText("Leaderboard");
  await check([display, "display leaderboard"], [remote, "remote leaderboard"]);
  await expect(display.getByRole("heading", { name: "Leaderboard" })).toBeVisible();
  await expect(remote.getByTestId("remote-phase")).toHaveText("Leaderboard");
  for (const hold of holds) hold.release();

  // The second question, then End game from the phone: straight to the podium.
  await expect(display.getByText("Which ocean is the largest?")).toBeVisible({ timeout: 10_000 });
  await expect(remote.getByRole("button", { name: "Skip" })).toBeVisible();
  remote.once("dialog", (dialog) => void dialog.accept());
  await remote.getByRole("button", { name: "End game" }).click();
  await expect(display.getByRole("heading", { name: "Game Complete" })).toBeVisible();
  await expect(display.getByLabel("Podium")).toContainText("Kim");
  await expect(remote.getByTestId("remote-phase")).toHaveText("Game over");
  await expect(player).toHaveURL(`/results/${gameCode}`);
  await expect(host).toHaveURL(`/results/${gameCode}`);
  await check([display, "display podium"], [remote, "remote podium"]);

  // A display link with a wrong key opens no game.
  const stranger = await (await contextWithClientId(browser, `stranger-${randomUUID()}`)).newPage();
  const response = await stranger.goto(`/display/${gameCode}?key=not-the-key`);
  expect(response?.status()).toBe(404);
  expect(response?.headers()["cache-control"]).toContain("no-store");
  await expect(stranger.getByRole("heading", { name: "This display link is not valid" })).toBeVisible();
  await expect(stranger.getByText(gameCode)).toHaveCount(0);
  expect((await stranger.goto(`/remote/${gameCode}`))?.status()).toBe(404);
  await expect(stranger.getByRole("heading", { name: "This remote link is not valid" })).toBeVisible();

  expect(found, `axe-core found ${found.length} violation(s):\n${found.join("\n")}`).toEqual([]);
  expect(small, `${small.length} control(s) of the remote smaller than 44 x 44 px:\n${small.join("\n")}`).toEqual([]);
  expect(errors).toEqual([]);
});

test("New links: the host replaces both links; the open display and remote say their link was replaced, the host stays, and the new display link works", async ({
  baseURL,
  browser,
  page,
}) => {
  test.setTimeout(60_000);
  const errors: string[] = [];
  const hostId = `host-${randomUUID()}`;
  const gameCode = await createHostedGame(page, hostId, {
    title: "Pub Night",
    timeLimit: 30,
    questions: [{ text: "2 + 2?", answers: ["3", "4"], correctAnswerIndex: 1 }],
  });
  const hostContext = await contextWithClientId(browser, hostId, AXE_CONTEXT);
  await hostContext.addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL! }]);
  const host = watchConsole(await hostContext.newPage(), errors);
  await host.goto(`/waiting/${gameCode}`);
  const section = host.getByRole("region", { name: "Display and remote" });
  const oldDisplayUrl = (await section.getByRole("link", { name: "Open the display" }).getAttribute("href"))!;
  await section.getByRole("button", { name: "Show remote code" }).click();
  const oldRemoteUrl = (await section.getByRole("link", { name: "Open the remote" }).getAttribute("href"))!;

  const display = watchConsole(await (await contextWithClientId(browser, `projector-${randomUUID()}`)).newPage(), errors);
  await display.goto(oldDisplayUrl);
  await expect(display.getByRole("heading", { name: "Game code" })).toBeVisible();
  const remote = watchConsole(await (await contextWithClientId(browser, `phone-${randomUUID()}`, { ...AXE_CONTEXT, viewport: PHONE })).newPage(), errors);
  await remote.goto(oldRemoteUrl);
  await expect(remote.getByTestId("remote-phase")).toHaveText("Lobby");

  host.once("dialog", (dialog) => void dialog.accept());
  await section.getByRole("button", { name: "New links" }).click();
  await expect(section.getByRole("status")).toHaveText(/^New links made\. The old ones no longer work/);
  const newDisplayUrl = (await section.getByRole("link", { name: "Open the display" }).getAttribute("href"))!;
  expect(newDisplayUrl).toMatch(new RegExp(`/display/${gameCode}\\?key=[A-Za-z0-9_-]{24}$`));
  expect(newDisplayUrl).not.toBe(oldDisplayUrl);
  // The remote's code stays shown, now with the new link.
  await expect(section.getByRole("link", { name: "Open the remote" })).not.toHaveAttribute("href", oldRemoteUrl);
  expect(await axeScreens([host, "host lobby after new links"])).toEqual([]);

  const replaced = "The host made new links for this game, so this one no longer works. Ask the host for the new link.";
  await expect(display.getByRole("alert").filter({ hasText: replaced })).toBeVisible();
  await expect(remote.getByRole("alert").filter({ hasText: replaced })).toBeVisible();
  expect(await axeScreens([remote, "remote, link replaced"], [display, "display, link replaced"])).toEqual([]);
  await expect(display).toHaveURL(oldDisplayUrl);

  // The host's own screen is still the host's: it starts the game once a player is in.
  const player = watchConsole(await (await contextWithClientId(browser, `player-${randomUUID()}`, { viewport: PHONE })).newPage(), errors);
  await player.goto(`/waiting/${gameCode}?nickname=Kim`);
  await expect(host.getByTestId("player-count")).toHaveText("1");
  const fresh = watchConsole(await (await contextWithClientId(browser, `projector-${randomUUID()}`)).newPage(), errors);
  await fresh.goto(newDisplayUrl);
  await expect(fresh.getByTestId("player-count")).toHaveText("1");
  await host.getByRole("button", { name: "Start Game" }).click();
  await expect(fresh.getByText("2 + 2?")).toBeVisible();
  expect(errors).toEqual([]);
});
