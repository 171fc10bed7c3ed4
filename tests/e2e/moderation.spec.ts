import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** The host's moderation in the lobby: Remove a player (for good) and Lock the game. */

async function hostedGame(page: Page, hostClientId: string): Promise<string> {
  const headers = { "x-client-id": hostClientId };
  const quiz = await (await page.request.post("/api/quizzes", { data: { title: "Moderated", timeLimit: 20, isPublic: false }, headers })).json();
  await page.request.post("/api/questions", {
    data: { quizId: quiz.id, order: 0, text: "2 + 2?", answers: ["3", "4", "5", "6"], correctAnswerIndex: 1 },
    headers,
  });
  const game = await (await page.request.post("/api/games", { data: { quizId: quiz.id }, headers })).json();
  await page.request.post(`/api/games/${game.gameCode}/register-host`, { data: { clientId: hostClientId } });
  return game.gameCode as string;
}

async function browserAs(browser: Browser, clientId: string, baseURL: string): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript((id) => window.localStorage.setItem("quizClientId", id), clientId);
  await context.addCookies([{ name: "quiz_client_id", value: clientId, url: baseURL }]);
  return context.newPage();
}

async function join(page: Page, gameCode: string, nickname: string) {
  await page.goto(`/join?code=${gameCode}`);
  await page.getByLabel("Nickname").fill(nickname);
  await page.getByRole("button", { name: "Join Game" }).click();
}

test("the host removes a player for good and locks the game to newcomers", async ({ browser, baseURL }, testInfo) => {
  const hostId = `host-${randomUUID()}`;
  const host = await browserAs(browser, hostId, baseURL!);
  const gameCode = await hostedGame(host, hostId);
  await host.goto(`/waiting/${gameCode}`);
  await expect(host.getByRole("button", { name: "Start Game" })).toBeVisible();

  const ann = await browserAs(browser, `ann-${randomUUID()}`, baseURL!);
  await join(ann, gameCode, "Ann");
  await expect(ann.getByText("Waiting for host to start the game...")).toBeVisible();
  const bobId = `bob-${randomUUID()}`;
  const bob = await browserAs(browser, bobId, baseURL!);
  await join(bob, gameCode, "Bob");
  await expect(host.getByTestId("player-count")).toHaveText("2");
  await host.screenshot({ path: testInfo.outputPath("host-lobby.png"), fullPage: true });

  // The × names its player, in a tooltip too.
  await host.getByRole("button", { name: "Remove Bob" }).hover();
  await expect(host.getByRole("tooltip")).toHaveText("Remove Bob");
  host.once("dialog", (dialog) => void dialog.accept());
  await host.getByRole("button", { name: "Remove Bob" }).click();
  await expect(host.getByTestId("player-count")).toHaveText("1");
  await expect(bob.locator(".toast-title")).toHaveText("Removed from the game");
  await expect(bob).toHaveURL(/\/$/);
  // Trying again from the same browser is refused.
  await join(bob, gameCode, "Bobby");
  await expect(bob.getByRole("alert")).toHaveText("You were removed from this game by the host.");

  await host.getByRole("button", { name: "Lock Game" }).click();
  await expect(host.getByRole("button", { name: "Unlock Game" })).toHaveAttribute("aria-pressed", "true");
  await expect(ann.getByText("The host has locked the game.")).toBeVisible();
  const cat = await browserAs(browser, `cat-${randomUUID()}`, baseURL!);
  await join(cat, gameCode, "Cat");
  await expect(cat.getByRole("alert")).toHaveText("The host has locked this game, so no new players can join.");

  await host.getByRole("button", { name: "Unlock Game" }).click();
  await join(cat, gameCode, "Cat");
  await expect(cat.getByText("Waiting for host to start the game...")).toBeVisible();
  await expect(host.getByTestId("player-count")).toHaveText("2");
});
