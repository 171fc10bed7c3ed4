import { randomUUID } from "node:crypto";
import { AXE_CONTEXT, axeScreens, smallTargets } from "./axe";
import { contextWithClientId, createHostedGame, expect, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };
const QUESTIONS = [
  { text: "What is 2 + 2?", answers: ["3", "4", "5", "22"], correctAnswerIndex: 1 },
  { text: "Capital of France?", answers: ["Paris", "Rome", "Madrid", "Berlin"], correctAnswerIndex: 0 },
];

test("the host pauses a question from the keyboard: the player sees Paused and cannot answer, then answers once the host resumes; the lobby's and the paused screens pass axe and have 44 px targets", async ({
  baseURL,
  page,
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const found: string[] = [];
  const small: string[] = [];
  const hostId = `host-${randomUUID()}`;
  const gameCode = await createHostedGame(page, hostId, { title: "Pause Night", timeLimit: 30, questions: QUESTIONS });
  const host = await (await contextWithClientId(browser, hostId, AXE_CONTEXT)).newPage();
  await host.context().addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL! }]);
  await host.goto(`/waiting/${gameCode}`);
  await expect(host.getByRole("button", { name: "Start Game" })).toBeVisible();

  const player = await (await contextWithClientId(browser, `player-${randomUUID()}`, { ...AXE_CONTEXT, viewport: PHONE })).newPage();
  await player.goto(`/join?code=${gameCode}`);
  await player.getByLabel("Nickname").fill("Ann");
  await player.getByRole("button", { name: "Join Game" }).click();
  await expect(player.getByText("Waiting for host to start the game...")).toBeVisible();
  await expect(host.getByTestId("player-count")).toHaveText("1");

  // The lobby's controls are 44 px targets: the host's (Start, Lock, Remove, the team setup with a team) and the player's (a team to pick).
  small.push(...(await smallTargets(host, "host lobby")), ...(await smallTargets(player, "player lobby")));
  const setup = host.getByRole("region", { name: "Teams" });
  await setup.getByLabel("Play in teams").check();
  await setup.getByLabel("Team name").fill("Owls");
  await setup.getByRole("button", { name: "Add team" }).click();
  await expect(setup.getByRole("button", { name: "Remove team Owls" })).toBeVisible();
  await expect(player.getByRole("button", { name: /Owls/ })).toBeVisible();
  small.push(...(await smallTargets(host, "host lobby with a team")), ...(await smallTargets(player, "player lobby with a team")));
  await setup.getByRole("button", { name: "Remove team Owls" }).click();
  await setup.getByLabel("Play in teams").uncheck();
  await expect(player.getByRole("button", { name: /Owls/ })).toHaveCount(0);

  await host.getByRole("button", { name: "Start Game" }).click();
  await expect(host.getByRole("heading", { name: "Question 1 of 2" })).toBeVisible();
  await expect(player.getByText("What is 2 + 2?")).toBeVisible();
  await expect(player.getByRole("timer", { name: /Time left: \d+ seconds/ })).toBeVisible();

  // Pause from the keyboard: the button is reachable and pressed with Enter.
  const pause = host.getByRole("button", { name: "Pause", exact: true });
  const box = await pause.boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  expect(box!.width).toBeGreaterThanOrEqual(44);
  await pause.focus();
  await expect(pause).toBeFocused();
  await host.keyboard.press("Enter");

  const resume = host.getByRole("button", { name: "Resume", exact: true });
  await expect(resume).toBeVisible();
  await expect(host.getByTestId("countdown-paused")).toHaveText("Paused");

  // The player: Paused instead of a countdown, said once to a screen reader, and no answering.
  await expect(player.getByTestId("countdown-paused")).toHaveText("Paused");
  const timer = player.getByRole("timer", { name: /^Paused with \d+ seconds left$/ });
  await expect(timer).toBeVisible();
  const keptSeconds = Number((await timer.getAttribute("aria-label"))!.match(/\d+/)![0]);
  expect(keptSeconds).toBeGreaterThan(20);
  await expect(player.getByTestId("countdown-announcement")).toHaveText(`The host paused the question with ${keptSeconds} seconds left.`);
  await expect(player.getByTestId("paused-notice")).toHaveText("The host has paused the question. You can answer when it resumes.");
  await expect(player.getByRole("button", { name: /B\. 4/ })).toBeDisabled();
  await player.getByRole("heading", { name: "Question 1 of 2" }).focus();
  await player.keyboard.press("2");
  await player.waitForTimeout(1500);
  // Time stands still while paused, and nothing was sent.
  await expect(player.getByRole("timer", { name: `Paused with ${keptSeconds} seconds left` })).toBeVisible();
  await expect(player.getByText("Answer submitted! Waiting for other players...")).toBeHidden();
  await expect(host.getByText("0 of 1 answered")).toBeVisible();
  await player.screenshot({ path: testInfo.outputPath("phone-paused.png") });
  // The paused screens, host and player, in the light and the dark theme.
  found.push(...(await axeScreens([host, "host paused"], [player, "player paused"])));
  small.push(...(await smallTargets(host, "host paused")), ...(await smallTargets(player, "player paused")));

  await resume.focus();
  await host.keyboard.press("Enter");
  await expect(host.getByRole("button", { name: "Pause", exact: true })).toBeVisible();

  // The countdown runs again from the kept time, not from where the wall clock would have it.
  const running = player.getByRole("timer", { name: /^Time left: \d+ seconds$/ });
  await expect(running).toBeVisible();
  const secondsAfter = Number((await running.getAttribute("aria-label"))!.match(/\d+/)![0]);
  expect(secondsAfter).toBeLessThanOrEqual(keptSeconds);
  expect(secondsAfter).toBeGreaterThanOrEqual(keptSeconds - 2);
  await expect(player.getByTestId("paused-notice")).toBeHidden();

  await player.getByRole("button", { name: /B\. 4/ }).click();
  await expect(player).toHaveURL(`/result/${gameCode}`);
  await expect(player.getByRole("heading", { name: "Correct!" })).toBeVisible();

  expect(found, `axe-core found ${found.length} violation(s):\n${found.join("\n")}`).toEqual([]);
  expect(small, `${small.length} control(s) smaller than 44 x 44 px:\n${small.join("\n")}`).toEqual([]);
});
