/**
 * The drain's parts that need no process (server/drain.ts): readiness, which sockets a draining
 * node takes, and the handover: in a cluster the hub's `handOverAll` within the drain's time; alone,
 * serving the games until none is left or the drain's time is over. tests/integration/drain.test.ts
 * drives the whole of it with SIGTERM, tests/integration/ownership-fencing.test.ts the hub's handover.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultDrainSeconds, handOverGames, NodeDrain, SHUTDOWN_SECONDS } from "#server/drain";
import { parseEnv } from "#app/env/env.server";

function hubHolding(codes: string[], clustered = false) {
  const rooms = new Set(codes);
  const handOvers: number[] = [];
  return {
    rooms,
    handOvers,
    clustered,
    get roomCount() {
      return rooms.size;
    },
    liveRoom: (code: string) => (rooms.has(code) ? {} : null),
    handOverAll: async (deadlineMs: number) => {
      handOvers.push(deadlineMs);
      rooms.clear();
    },
  };
}

afterEach(() => vi.useRealTimers());

describe("NodeDrain", () => {
  it("is ready while its database answers, and says why not otherwise", async () => {
    const drain = new NodeDrain(hubHolding([]));
    expect(await drain.readiness(async () => 1)).toEqual({ ready: true });
    expect(await drain.readiness(() => Promise.reject(new Error("connection refused")))).toEqual({ ready: false, reason: "database failed" });
    expect(await drain.readiness(() => new Promise(() => {}), 20)).toEqual({ ready: false, reason: "database did not answer" });
  });

  it("is not ready once draining, whatever its database says", async () => {
    const drain = new NodeDrain(hubHolding([]));
    drain.begin();
    expect(drain.draining).toBe(true);
    expect(await drain.readiness(async () => 1)).toEqual({ ready: false, reason: "draining" });
  });

  it("takes every socket until it drains, then only those of games it holds", () => {
    const drain = new NodeDrain(hubHolding(["ABC234"]));
    expect([drain.admitsSocket("ABC234"), drain.admitsSocket("ZZZ234"), drain.admitsSocket(null)]).toEqual([true, true, true]);
    drain.begin();
    expect([drain.admitsSocket("ABC234"), drain.admitsSocket("ZZZ234"), drain.admitsSocket(null)]).toEqual([true, false, false]);
  });
});

describe("handOverGames in a cluster", () => {
  it("hands every game over through the hub within the drain's time", async () => {
    vi.useFakeTimers();
    const hub = hubHolding(["ABC234", "DEF567"], true);
    await handOverGames(hub, Date.now() + 20_000);
    expect(hub.handOvers).toEqual([20_000]);
    expect(hub.roomCount).toBe(0);
  });

  it("ends early when the drain is cut short", async () => {
    const hub = { ...hubHolding(["ABC234"], true), handOverAll: () => new Promise<void>(() => {}) };
    const cut = new AbortController();
    const done = handOverGames(hub, Date.now() + 20_000, cut.signal);
    cut.abort();
    await expect(done).resolves.toBeUndefined();
  });
});

describe("handOverGames alone (nobody to hand a game to: serve until no game is left, or the drain's time is over)", () => {
  it("returns at once when the node holds no game", async () => {
    vi.useFakeTimers();
    let done = false;
    void handOverGames(hubHolding([]), Date.now() + 20_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
  });

  it("serves its games until the last one is gone", async () => {
    vi.useFakeTimers();
    const hub = hubHolding(["ABC234"]);
    let done = false;
    void handOverGames(hub, Date.now() + 20_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(done).toBe(false);
    hub.rooms.clear();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(done).toBe(true);
  });

  it("stops at the deadline with games left", async () => {
    vi.useFakeTimers();
    let done = false;
    void handOverGames(hubHolding(["ABC234"]), Date.now() + 3_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(2_900);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(done).toBe(true);
  });
});

describe("the stop's deadline", () => {
  it("fits a 30 s grace period in a cluster and Docker's 10 s alone, by default", () => {
    expect(defaultDrainSeconds(true) + SHUTDOWN_SECONDS).toBeLessThanOrEqual(30);
    expect(defaultDrainSeconds(false) + SHUTDOWN_SECONDS).toBeLessThanOrEqual(10);
  });

  it("reads DRAIN_SECONDS and NODE_ID, and refuses what they cannot be", () => {
    expect(parseEnv({ DRAIN_SECONDS: "12", NODE_ID: "node-2.eu" })).toMatchObject({ DRAIN_SECONDS: 12, NODE_ID: "node-2.eu" });
    expect(parseEnv({}).DRAIN_SECONDS).toBeUndefined();
    expect(() => parseEnv({ DRAIN_SECONDS: "-1" })).toThrow(/DRAIN_SECONDS/);
    expect(() => parseEnv({ NODE_ID: "node 2" })).toThrow(/NODE_ID/);
  });
});
