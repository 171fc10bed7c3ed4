/**
 * Join limits that let a real crowd in from one address and hold a flood (issue 13, item 11), with
 * the server's default limits: a school behind one NAT address joins one game, while 5,000 join
 * attempts from one address are refused with the message and the server keeps answering.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JOIN_LIMIT_MESSAGES, DEFAULT_JOIN_LIMITS } from "#server/socket/join-limits";
import { TestClient, createGameFixture, startTestServer, type TestServer } from "./harness";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(() => server.stop());

type Outcome = { client: TestClient; joined: boolean; error?: { message: string; code?: string } };

async function attemptJoin(gameCode: string, nickname: string): Promise<Outcome> {
  const client = await TestClient.connect(server);
  client.send("JOIN_GAME", { gameCode, nickname });
  return Promise.race([
    client.next("PLAYER_JOINED", () => true, 20_000).then(() => ({ client, joined: true })),
    client.next("ERROR", () => true, 20_000).then((error) => ({ client, joined: false, error })),
  ]);
}

/** `count` join attempts, `parallel` at a time, each its own socket and browser. */
async function joinMany(gameCode: string, count: number, parallel: number, prefix: string, keepOpen: boolean): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let start = 0; start < count; start += parallel) {
    const batch = await Promise.all(Array.from({ length: Math.min(parallel, count - start) }, (_, i) => attemptJoin(gameCode, `${prefix}${start + i}`)));
    if (!keepOpen) await Promise.all(batch.map((outcome) => outcome.client.terminate()));
    outcomes.push(...batch);
  }
  return outcomes;
}

describe("joins from one address", () => {
  it("let a class of 200 behind one NAT address into one game within a minute, and they play", { timeout: 60_000 }, async () => {
    const { gameCode, hostClientId } = await createGameFixture(server);
    const host = await TestClient.connect(server, hostClientId);
    await host.joinAsHost(gameCode);
    const started = Date.now();
    const outcomes = await joinMany(gameCode, 200, 50, "Pupil ", true);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(outcomes.filter((outcome) => !outcome.joined).map((outcome) => outcome.error)).toEqual([]);

    host.send("START_GAME", { gameCode });
    const [first] = outcomes;
    await first.client.next("QUESTION_STARTED", () => true, 10_000);
    const playerId = first.client.all("PLAYER_JOINED").find((joined) => joined.player.nickname === "Pupil 0")!.player.id;
    first.client.send("SUBMIT_ANSWER", { gameCode, playerId, answerIndex: 1 });
    expect(await first.client.next("ANSWER_ACCEPTED")).toMatchObject({ questionNumber: 1 });
    await Promise.all([host, ...outcomes.map((outcome) => outcome.client)].map((client) => client.terminate()));
  });

  it(
    "refuse a flood of 5,000 join attempts with the message, admitting no more than the per-game allowance, while the server keeps answering",
    { timeout: 120_000 },
    async () => {
      const { gameCode } = await createGameFixture(server);
      let healthy = 0;
      const probe = setInterval(() => {
        void fetch(`${server.url}/healthz`).then((response) => {
          if (response.ok) healthy++;
        });
      }, 250);
      const outcomes = await joinMany(gameCode, 5000, 250, "Bot", false);
      clearInterval(probe);

      const joined = outcomes.filter((outcome) => outcome.joined).length;
      const refused = outcomes.filter((outcome) => !outcome.joined);
      expect(joined).toBe(DEFAULT_JOIN_LIMITS.joinsPerIpPerGamePerMinute);
      expect(refused).toHaveLength(5000 - joined);
      for (const outcome of refused)
        expect(outcome.error).toEqual({ message: JOIN_LIMIT_MESSAGES.ipGame, code: "JOIN_RATE_LIMITED", key: "JOIN_RATE_LIMITED_IP_GAME" });
      expect(healthy).toBeGreaterThan(0);
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      const players = await server.db
        .selectFrom("players")
        .innerJoin("games", "games.id", "players.game_id")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("games.game_code", "=", gameCode)
        .executeTakeFirstOrThrow();
      expect(Number(players.n)).toBe(joined);
    },
  );

  it("never let one address bring more than PLAYERS_PER_IP_PER_GAME players into a game, however slowly", async () => {
    const capped = await startTestServer({ limits: { playersPerIpPerGame: 5, joinsPerIpPerGamePerMinute: 1000 } });
    try {
      const { gameCode } = await createGameFixture(capped);
      const replies: string[] = [];
      for (let i = 0; i < 6; i++) {
        const client = await TestClient.connect(capped);
        client.send("JOIN_GAME", { gameCode, nickname: `Slow ${i}` });
        replies.push(await Promise.race([client.next("PLAYER_JOINED").then(() => "joined"), client.next("ERROR").then((error) => error.message)]));
        await client.terminate();
      }
      expect(replies).toEqual([...Array(5).fill("joined"), JOIN_LIMIT_MESSAGES.ipGameTotal]);
    } finally {
      await capped.stop();
    }
  });
});
