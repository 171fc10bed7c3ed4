/**
 * In the browser, the game socket names its game (`&game=CODE`, issue 28): a player who opens the
 * home page (a socket naming no game) and joins from the join form moves to a socket naming the
 * game, opened before the old one closes, with no "back in the game" toast; a reload opens the
 * socket naming the game at once (docs/decisions/0054-limits-across-nodes.md).
 */
import { randomUUID } from "node:crypto";
import type { WebSocket } from "@playwright/test";
import { contextWithClientId, createHostedGame, expect, openHydrated, test } from "./fixtures";

test("a player's socket names the game it joins, without a drop, and after a reload", async ({ browser }) => {
  const hostId = `host-${randomUUID()}`;
  const hostContext = await contextWithClientId(browser, hostId);
  const host = await hostContext.newPage();
  const gameCode = await createHostedGame(host, hostId, {
    title: "Socket URL",
    timeLimit: 30,
    questions: [{ text: "What is 2 + 2?", answers: ["3", "4", "5", "22"], correctAnswerIndex: 1 }],
  });

  const context = await contextWithClientId(browser, `player-${randomUUID()}`);
  const player = await context.newPage();
  const sockets: WebSocket[] = [];
  player.on("websocket", (socket) => {
    if (new URL(socket.url()).pathname === "/ws") sockets.push(socket);
  });
  await openHydrated(player, "/join");
  await expect.poll(() => sockets.length).toBe(1);
  const [homeSocket] = sockets;
  expect(new URL(homeSocket.url()).searchParams.get("game")).toBeNull();

  await player.getByLabel("Game code").fill(gameCode);
  await player.getByLabel("Nickname").fill("Ann");
  await player.getByRole("button", { name: "Join Game" }).click();
  await expect(player).toHaveURL(`/waiting/${gameCode}`);
  await expect(player.getByText("Waiting for host to start the game...")).toBeVisible();
  // One more socket, naming the game; the home page's is closed once it took over.
  expect(sockets.map((socket) => new URL(socket.url()).searchParams.get("game"))).toEqual([null, gameCode]);
  await expect.poll(() => homeSocket.isClosed()).toBe(true);
  expect(sockets[1].isClosed()).toBe(false);
  await expect(player.getByText("You're back in the game.")).toHaveCount(0);

  await player.reload();
  await expect(player.getByText("Waiting for host to start the game...")).toBeVisible();
  await expect.poll(() => sockets.length).toBe(3);
  expect(new URL(sockets[2].url()).searchParams.get("game")).toBe(gameCode);
  await context.close();
  await hostContext.close();
});
