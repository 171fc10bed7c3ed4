/**
 * A socket's messages are handled in the order they were sent, also when one of them waits for the
 * database (a join loads its game) and the next ones arrive meanwhile (server/socket/transport.ts).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { TestClient, createGameFixture, startTestServer, type TestServer } from "./harness";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.stop();
});

it("handles the messages sent behind a join after the join, in order", async () => {
  const { gameCode, hostClientId } = await createGameFixture(server);
  const player = await TestClient.connect(server);
  // Sent together: the room is not in memory yet, so the join waits for the database.
  player.send("JOIN_GAME", { gameCode, nickname: "Ann" });
  player.send("LEAVE_GAME", { gameCode });
  player.send("JOIN_GAME", { gameCode, nickname: "Ann" });
  const joined = await player.next("PLAYER_JOINED");
  await player.next("PLAYER_JOINED", (payload) => payload.player.id !== joined.player.id);
  await player.expectNone("ERROR");

  const host = await TestClient.connect(server, hostClientId);
  host.send("JOIN_GAME", { gameCode, nickname: "__HOST__" });
  host.send("LOCK_GAME", { gameCode, locked: true });
  host.send("START_GAME", { gameCode });
  await host.next("GAME_SNAPSHOT");
  expect(await host.next("LOBBY_LOCKED")).toEqual({ locked: true });
  await host.next("QUESTION_STARTED");
  await host.expectNone("ERROR");
  const started = await player.next("QUESTION_STARTED");
  expect(started.questionNumber).toBe(1);
  await Promise.all([host.close(), player.close()]);
});
