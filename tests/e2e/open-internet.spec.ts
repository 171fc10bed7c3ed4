import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";

/** Issue 13 on screen: deleting a quiz mid-game, and a results spreadsheet that is safe to open. */

async function playerPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const clientId = `player-${randomUUID()}`;
  await context.addInitScript((id) => window.localStorage.setItem("quizClientId", id), clientId);
  return context.newPage();
}

async function joinAs(player: Page, gameCode: string, nickname: string) {
  await player.goto(`/join?code=${gameCode}`);
  await player.getByLabel("Nickname").fill(nickname);
  await player.getByRole("button", { name: "Join Game" }).click();
  await expect(player).toHaveURL(`/waiting/${gameCode}`);
}

/** A signed-in owner makes a one-question quiz in the UI; the form opens its lobby, hosted by this browser. */
async function ownersLobby(host: Page, title: string): Promise<string> {
  const id = `owner${Date.now().toString(36)}${randomUUID().slice(0, 4)}`;
  const registered = await host.request.post("/auth", {
    form: { intent: "register", username: id, email: `${id}@example.com`, password: "owner-password", confirmPassword: "owner-password" },
  });
  expect(registered.ok()).toBe(true);
  await host.goto("/create");
  await waitForHydration(host);
  await host.getByLabel("Title").fill(title);
  const card = host.getByRole("group", { name: "Question 1", exact: true });
  await card.getByLabel("Question text").fill("What is 2 + 2?");
  for (const [index, answer] of ["3", "4", "5", "22"].entries()) await card.getByLabel(`Answer ${"ABCD"[index]}`).fill(answer);
  await card.getByRole("group", { name: "Correct answer" }).getByLabel("B", { exact: true }).check();
  await host.getByRole("button", { name: "Save Quiz" }).click();
  await expect(host).toHaveURL(/\/waiting\/[A-Z0-9]{6}/);
  return new URL(host.url()).pathname.split("/").pop()!;
}

test("the owner deletes a quiz from My Quizzes while a game of it runs: the game plays on to the podium", async ({ browser, page: host }) => {
  const gameCode = await ownersLobby(host, "Deleted mid-game");
  const player = await playerPage(browser);
  await joinAs(player, gameCode, "Ann");
  await expect(host.getByTestId("player-count")).toHaveText("1");
  await host.getByRole("button", { name: "Start Game" }).click();
  await expect(player).toHaveURL(`/play/${gameCode}`);
  await expect(player.getByText("What is 2 + 2?")).toBeVisible();

  // On another device signed in to the same account, the owner deletes the quiz. (A new tab of the host's own
  // browser rejoins the game it hosts and moves to its screen, as a refresh does: a race with the click here.)
  const phone = await browser.newContext();
  await phone.addCookies((await host.context().cookies()).filter((cookie) => cookie.name !== "qn_host"));
  const myQuizzes = await phone.newPage();
  await myQuizzes.goto("/my-quizzes");
  await myQuizzes.getByRole("link", { name: "Delete Deleted mid-game" }).click();
  await myQuizzes.getByRole("button", { name: "Yes, delete quiz" }).click();
  await expect(myQuizzes.getByRole("status")).toHaveText(
    "Quiz deleted. Its open game (waiting or being played) can still finish with the questions it started with; nobody can start a new one.",
  );
  await expect(myQuizzes.getByRole("heading", { name: "Deleted mid-game" })).toHaveCount(0);

  // The game has not frozen: the answer is taken, and the game ends as usual. The only player's answer ends the question
  // at once, so "Answer submitted!" may be gone before anyone looks; the result says the answer counted.
  await player.getByRole("button", { name: /B\. 4/ }).click();
  await expect(player).toHaveURL(`/result/${gameCode}`);
  await expect(player.getByRole("heading", { name: "Correct!" })).toBeVisible();
  for (const screen of [host, player]) await expect(screen).toHaveURL(`/results/${gameCode}`, { timeout: 15_000 });
  await expect(host.getByRole("heading", { name: "Game Complete" })).toBeVisible();
  await expect(host.getByLabel("Podium")).toContainText("Ann");
});

test("the results CSV opens safely in a spreadsheet: formula-like names stay text, accents survive", async ({ browser, page: host }) => {
  const gameCode = await ownersLobby(host, "Spreadsheet night");
  const players: Page[] = [];
  for (const name of ["=1+2", "Zoë"]) {
    const player = await playerPage(browser);
    await joinAs(player, gameCode, name);
    players.push(player);
  }
  await expect(host.getByTestId("player-count")).toHaveText("2");
  await host.getByRole("button", { name: "Start Game" }).click();
  for (const player of players) await player.getByRole("button", { name: /B\. 4/ }).click();
  await expect(host).toHaveURL(`/results/${gameCode}`, { timeout: 15_000 });

  const download = host.waitForEvent("download");
  await host.getByRole("button", { name: "Download CSV" }).click();
  const bytes = Buffer.concat(await (await (await download).createReadStream()).toArray());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = bytes.subarray(3).toString("utf8").trim().split("\n");
  expect(rows[0]).toBe("Rank,Nickname,Score,Correct answers,Answered");
  expect(rows.map((row) => row.split(",")[1]).sort()).toEqual(["'=1+2", "Nickname", "Zoë"].sort());
});
