/**
 * Lobbies leave memory (issue 13, item 4): 2,000 games are created and each opened by a player who
 * then walks away; after the idle time the server holds no room, and the codes stop working.
 * Waiting games nobody ever opened close too, so strangers' titles do not linger on /featured.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient, createGameFixture, startTestServer, type TestServer } from "./harness";

const IDLE_MS = 3000;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    game: { idleLobbyTtlMs: IDLE_MS, sweepIntervalMs: 200 },
    limits: { gamesPerIpPerHour: 0, joinsPerIpPerMinute: 100_000 },
  });
});

afterAll(() => server.stop());

async function health(): Promise<{ games: number; connections: number }> {
  return (await fetch(`${server.url}/healthz`)).json();
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("not in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("abandoned lobbies", () => {
  it("2,000 lobbies opened and abandoned: after the idle time the room count is back to zero and their codes are closed", { timeout: 120_000 }, async () => {
    const { quizId, hostClientId } = await createGameFixture(server, { isPublic: true });
    const codes: string[] = [];
    let peak = 0;
    // In batches, each game opened by a passer-by right after it is created: a game waits for its
    // own passer-by, not for its whole batch, so none idles out before it is opened on a busy machine.
    for (let batch = 0; batch < 20; batch++) {
      const created = await Promise.all(
        Array.from({ length: 100 }, async () => {
          const game = await server.api("/api/games", { body: { quizId }, clientId: hostClientId });
          expect(game.status).toBe(201);
          const player = await TestClient.connect(server);
          await player.joinAsPlayer(game.body.gameCode, "Passer-by");
          await player.terminate();
          return game.body.gameCode as string;
        }),
      );
      codes.push(...created);
      peak = Math.max(peak, (await health()).games);
    }
    // Rooms piled up while the lobbies were opened faster than they idled out.
    expect(peak).toBeGreaterThan(300);

    await eventually(async () => (await health()).games === 0, IDLE_MS + 30_000);
    expect(server.hub.roomCount).toBe(0);
    const sessions = await server.api("/api/game-sessions");
    expect(sessions.body.filter((session: { gameCode: string }) => codes.includes(session.gameCode))).toEqual([]);
    const late = await TestClient.connect(server);
    late.send("JOIN_GAME", { gameCode: codes[0], nickname: "Late" });
    expect(await late.next("ERROR")).toMatchObject({ code: "GAME_NOT_FOUND" });
    await late.close();
  });

  it("keeps a lobby someone is in, however long it waits", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server);
    const host = await TestClient.connect(server, hostClientId);
    await host.joinAsHost(gameCode);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 2));
    const player = await TestClient.connect(server);
    expect(await player.joinAsPlayer(gameCode, "Patient")).toBeGreaterThan(0);
    await Promise.all([host.close(), player.close()]);
  });

  it("closes a waiting game nobody ever opened, so it leaves the public list", async () => {
    const { gameCode } = await createGameFixture(server, { isPublic: true });
    const listed = async () => (await server.api("/api/game-sessions")).body.some((session: { gameCode: string }) => session.gameCode === gameCode);
    expect(await listed()).toBe(true);
    await eventually(async () => !(await listed()), IDLE_MS + 10_000);
    const game = await server.db.selectFrom("games").select(["status", "ended_at"]).where("game_code", "=", gameCode).executeTakeFirstOrThrow();
    expect(game).toMatchObject({ status: "finished", ended_at: expect.any(Number) });
  });
});
