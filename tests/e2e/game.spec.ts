import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { contextWithClientId, createHostedGame, expect, test } from "./fixtures";
import { ScreenHold } from "./screen-hold";

const PHONE = { width: 390, height: 844 };
const QUESTIONS = [
  { text: "What is 2 + 2?", answers: ["3", "4", "5", "22"], correctAnswerIndex: 1 },
  { text: "Capital of France?", answers: ["Paris", "Rome", "Madrid", "Berlin"], correctAnswerIndex: 0 },
];

test("a host creates a quiz in the UI, three players join with the code, play to the podium, and play again", async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const hostContext = await contextWithClientId(browser, `host-${randomUUID()}`);
  // The reveal and the leaderboard are read on four screens: each is held up until it has been read.
  const holds = [await ScreenHold.on(hostContext)];
  const host = await hostContext.newPage();
  await host.goto("/create");
  await host.getByLabel("Title").fill("E2E Night");
  await host.getByRole("button", { name: "Add Question" }).click();
  for (const [index, question] of QUESTIONS.entries()) {
    const card = host.getByRole("group", { name: `Question ${index + 1}` });
    await card.getByLabel("Question text").fill(question.text);
    for (const [answerIndex, answer] of question.answers.entries()) await card.getByLabel(`Answer ${"ABCD"[answerIndex]}`).fill(answer);
    await card.getByRole("group", { name: "Correct answer" }).getByLabel("ABCD"[question.correctAnswerIndex], { exact: true }).check();
  }
  await host.getByRole("button", { name: "Save Quiz" }).click();
  await expect(host).toHaveURL(/\/waiting\/[A-Z0-9]{6}$/);
  await expect(host.locator(".toast-title")).toHaveText("Quiz created!");
  const gameCode = new URL(host.url()).pathname.split("/").pop()!;
  await expect(host.getByLabel(/Game code/)).toHaveText(gameCode);
  await expect(host.getByTestId("join-link")).toHaveText(new RegExp(`/join\\?code=${gameCode}$`));
  await expect(host.getByRole("img", { name: /QR code to join game/ })).toBeVisible();

  const names = ["Ann", "Bob", "Cat"];
  const players: Page[] = [];
  for (const [index, name] of names.entries()) {
    const context = await contextWithClientId(browser, `player-${randomUUID()}`, index === 2 ? { viewport: PHONE } : {});
    holds.push(await ScreenHold.on(context));
    const player = await context.newPage();
    await player.goto("/join");
    await player.getByLabel("Game code").fill(gameCode.toLowerCase());
    await player.getByLabel("Nickname").fill(name);
    await player.getByRole("button", { name: "Join Game" }).click();
    await expect(player).toHaveURL(`/waiting/${gameCode}`);
    await expect(player.getByText("Waiting for host to start the game...")).toBeVisible();
    players.push(player);
  }
  const [ann, bob, cat] = players;
  await expect(host.getByTestId("player-count")).toHaveText("3");
  for (const name of names) await expect(host.getByRole("list", { name: "Players" }).getByText(name)).toBeVisible();
  await cat.screenshot({ path: testInfo.outputPath("phone-lobby.png") });

  await host.getByRole("button", { name: "Start Game" }).click();
  await expect(host).toHaveURL(`/host/${gameCode}`);
  for (const player of players) await expect(player).toHaveURL(`/play/${gameCode}`);
  await expect(host.getByRole("heading", { name: "Question 1 of 2" })).toBeVisible();
  await expect(host.getByText("What is 2 + 2?")).toBeVisible();
  await expect(host.getByText("0 of 3 answered")).toBeVisible();
  await cat.screenshot({ path: testInfo.outputPath("phone-question.png") });

  // Ann answers first (right), Bob by keyboard (right), Cat wrong.
  await ann.getByRole("button", { name: /B\. 4/ }).click();
  await expect(ann.getByText("Answer submitted! Waiting for other players...")).toBeVisible();
  await expect(ann.getByRole("button", { name: /A\. 3/ })).toBeDisabled();
  await expect(host.getByText("1 of 3 answered")).toBeVisible();
  await bob.keyboard.press("2");
  await expect(bob.getByText("Answer submitted! Waiting for other players...")).toBeVisible();
  for (const hold of holds) hold.holdFrom("LEADERBOARD_UPDATE");
  await cat.getByRole("button", { name: /C\. 5/ }).click();

  // Everyone answered: results.
  await expect(ann).toHaveURL(`/result/${gameCode}`);
  await expect(ann.getByRole("heading", { name: "Correct!" })).toBeVisible();
  const annPoints = Number((await ann.getByTestId("points").textContent())!.replace(/\D/g, ""));
  expect(annPoints).toBeGreaterThanOrEqual(500);
  expect(annPoints).toBeLessThanOrEqual(1000);
  await expect(cat.getByRole("heading", { name: "Incorrect" })).toBeVisible();
  await expect(cat.getByTestId("correct-answer")).toHaveText("B. 4");
  await cat.screenshot({ path: testInfo.outputPath("phone-result.png") });
  await expect(host.getByLabel("Answer distribution")).toContainText("67% (2)");
  for (const hold of holds) hold.release("QUESTION_STARTED");

  // Leaderboard with a real countdown.
  for (const player of [host, ...players]) await expect(player).toHaveURL(`/leaderboard/${gameCode}`);
  await expect(ann.getByText("Question 1 of 2 completed")).toBeVisible();
  await expect(ann.getByText(/Next question in \d seconds\.\.\./)).toBeVisible();
  await expect(ann.getByRole("list", { name: "Leaderboard" }).locator("li").first()).toContainText("Ann");
  await cat.screenshot({ path: testInfo.outputPath("phone-leaderboard.png") });
  for (const hold of holds) hold.release();

  // Question 2: Bob refreshes mid-question and keeps his place and score.
  await expect(bob).toHaveURL(`/play/${gameCode}`, { timeout: 10_000 });
  await bob.reload();
  await expect(bob.getByText("Capital of France?")).toBeVisible();
  await bob.getByRole("button", { name: /A\. Paris/ }).click();
  await expect(bob.getByText("Answer submitted! Waiting for other players...")).toBeVisible();
  await ann.getByRole("button", { name: /B\. Rome/ }).click();
  for (const hold of holds) hold.holdFrom("LEADERBOARD_UPDATE", "GAME_OVER");
  await cat.getByRole("button", { name: /A\. Paris/ }).click();
  await expect(bob).toHaveURL(`/result/${gameCode}`);
  const bobScore = Number(await bob.getByTestId("score").textContent());
  expect(bobScore).toBeGreaterThan(1000);
  for (const hold of holds) hold.release();

  // The podium.
  for (const player of [host, ...players]) await expect(player).toHaveURL(`/results/${gameCode}`, { timeout: 15_000 });
  await expect(host.getByRole("heading", { name: "Game Complete" })).toBeVisible();
  await expect(host.getByLabel("Podium")).toContainText("Bob");
  await expect(bob.getByTestId("own-rank")).toHaveText(`You finished #1 of 3 with ${bobScore} points`);
  await cat.screenshot({ path: testInfo.outputPath("phone-podium.png") });
  await expect(ann.getByRole("button", { name: "Play Again" })).toHaveCount(0);

  const download = host.waitForEvent("download");
  await host.getByRole("button", { name: "Download CSV" }).click();
  const csv = await (await (await download).createReadStream()).toArray();
  expect(Buffer.concat(csv).toString()).toMatch(/^\uFEFFRank,Nickname,Score,Correct answers,Answered\n1,Bob,\d+,2,2\n/);

  // Play Again brings everyone back to the lobby with the same players.
  await host.getByRole("button", { name: "Play Again" }).click();
  for (const player of [host, ...players]) await expect(player).toHaveURL(`/waiting/${gameCode}`);
  await expect(host.getByTestId("player-count")).toHaveText("3");
  await expect(cat.getByText("Waiting for host to start the game...")).toBeVisible();
});

test("host screens send non-hosts home and player screens send the host home", async ({ baseURL, browser, page }) => {
  const hostId = `host-${randomUUID()}`;
  const gameCode = await createHostedGame(page, hostId, { title: "E2E Night", timeLimit: 20, questions: QUESTIONS });
  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto(`/host/${gameCode}`);
  await expect(stranger).toHaveURL("/");
  const host = await (await contextWithClientId(browser, hostId)).newPage();
  await host.context().addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL! }]);
  await host.goto(`/play/${gameCode}`);
  await expect(host).toHaveURL("/");
});

test("the host cannot start an empty lobby, and a host refresh mid-question keeps the game", async ({ baseURL, browser, page }) => {
  const hostId = `host-${randomUUID()}`;
  const gameCode = await createHostedGame(page, hostId, { title: "E2E Night", timeLimit: 20, questions: QUESTIONS });
  const host = await (await contextWithClientId(browser, hostId)).newPage();
  await host.context().addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL! }]);
  await host.goto(`/waiting/${gameCode}`);
  await host.getByRole("button", { name: "Start Game" }).click();
  await expect(host.locator(".toast-title")).toHaveText("No players");
  await expect(host.locator(".toast-description")).toHaveText("Wait for players to join before starting the game.");

  const player = await (await contextWithClientId(browser, `player-${randomUUID()}`)).newPage();
  await player.goto(`/waiting/${gameCode}?nickname=Dee`);
  await expect(host.getByTestId("player-count")).toHaveText("1");
  await host.getByRole("button", { name: "Start Game" }).click();
  await expect(host).toHaveURL(`/host/${gameCode}`);
  await host.reload();
  await expect(host.getByText("What is 2 + 2?")).toBeVisible();
  await expect(host.getByText("0 of 1 answered")).toBeVisible();
  await player.getByRole("button", { name: /A\. 3/ }).click();
  await expect(player.getByRole("heading", { name: "Incorrect" })).toBeVisible();
  await expect(host.getByLabel("Answer distribution")).toContainText("100% (1)");
});

test("the lobby's toast closes when the game starts, even while the host's window is in the background", async ({ baseURL, browser, page }) => {
  const hostId = `host-${randomUUID()}`;
  const gameCode = await createHostedGame(page, hostId, { title: "E2E Night", timeLimit: 20, questions: QUESTIONS });
  const host = await (await contextWithClientId(browser, hostId)).newPage();
  await host.context().addCookies([{ name: "quiz_client_id", value: hostId, url: baseURL! }]);
  await host.goto(`/waiting/${gameCode}?hosted=1`);
  // Radix's toast (an li), not the plain one that stands in while it loads, is the one that pauses.
  await expect(host.locator("li.toast .toast-title")).toHaveText("Success!");
  // A host who clicks into another window (the projector's, say) pauses the toast's timer.
  await host.evaluate(() => window.dispatchEvent(new Event("blur")));
  await host.waitForTimeout(6_000);
  await expect(host.locator(".toast-title"), "a paused toast outlives its 5 s").toHaveText("Success!");

  const player = await (await contextWithClientId(browser, `player-${randomUUID()}`)).newPage();
  await player.goto(`/waiting/${gameCode}?nickname=Dee`);
  await expect(host.getByTestId("player-count")).toHaveText("1");
  await host.getByRole("button", { name: "Start Game" }).click();
  await expect(host.getByText("What is 2 + 2?")).toBeVisible();
  await expect(host.locator(".toast")).toHaveCount(0);
});
