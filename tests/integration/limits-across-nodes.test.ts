/**
 * Limits shared across the nodes of a cluster (issue 28, docs/decisions/0054-limits-across-nodes.md),
 * against a real PostgreSQL: two `RateLimits` on one database are two nodes, and a limit spent on
 * one is spent for the other; the socket's join limit across games never lets an address past it,
 * whichever node its joins reach.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLimitsPool, type LimitsPool } from "#db/limits-pool.server";
import { DEFAULT_LIMIT_RULES, RateLimits, type LimitRules } from "#app/limits/rate-limits.server";
import { JOIN_WINDOW_SECONDS, JoinLimiter, LEASE_SHARE } from "#server/socket/join-limits";
import { testPostgres, type TestPostgres } from "#tests/postgres";

const RULES: LimitRules = { ...DEFAULT_LIMIT_RULES, game: { ...DEFAULT_LIMIT_RULES.game, points: 5 } };
const ACROSS_GAMES = 40;

describe("limits shared by two nodes on one Postgres", () => {
  let postgres: TestPostgres;
  const pools: LimitsPool[] = [];
  const nodes: RateLimits[] = [];
  const limiters: JoinLimiter[] = [];

  beforeAll(async () => {
    postgres = await testPostgres();
    const url = await postgres.freshDatabase("limits_across_nodes");
    for (let node = 0; node < 2; node++) {
      const pool = openLimitsPool(url, () => {});
      pools.push(pool);
      nodes.push(await RateLimits.onPostgres(pool, RULES));
    }
  });

  afterAll(async () => {
    for (const limiter of limiters) limiter.stop();
    for (const node of nodes) node.close();
    await Promise.all(pools.map((pool) => pool.end()));
    await postgres?.release();
  });

  it("holds an HTTP limit across nodes: what one node spent, the other cannot", async () => {
    const [a, b] = nodes;
    const address = "203.0.113.7";
    for (let i = 0; i < 3; i++) expect((await a.consume("game", address)).ok).toBe(true);
    for (let i = 0; i < 2; i++) expect((await b.consume("game", address)).ok).toBe(true);
    const refusedOnB = await b.consume("game", address);
    const refusedOnA = await a.consume("game", address);
    expect(refusedOnB).toMatchObject({ ok: false, error: { code: "LIMIT_GAMES" } });
    expect(refusedOnA.ok).toBe(false);
    // Another address is untouched on either node.
    expect((await a.consume("game", "203.0.113.8")).ok).toBe(true);
  });

  it("outlives an idle connection the server ends: the pool reports it and the next check opens another", async () => {
    const url = await postgres.freshDatabase("limits_connection_ended");
    const errors: Error[] = [];
    const pool = openLimitsPool(url, (error) => errors.push(error));
    const node = await RateLimits.onPostgres(pool, RULES);
    try {
      expect((await node.consume("game", "203.0.113.20")).ok).toBe(true);
      const admin = openLimitsPool(url, () => {});
      try {
        // Every idle connection of the limits' pool, as a restart or an operator's pg_terminate_backend ends it.
        await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()");
      } finally {
        await admin.end();
      }
      await expect.poll(() => errors.length).toBeGreaterThan(0);
      expect((await node.consume("game", "203.0.113.20")).ok).toBe(true);
    } finally {
      node.close();
      await pool.end();
    }
  });

  it("has no shared allowance on SQLite: one node's own count is exact", () => {
    const alone = new RateLimits(":memory:", RULES);
    try {
      expect(alone.sharedAllowance("joinsAcrossGames", ACROSS_GAMES, JOIN_WINDOW_SECONDS)).toBeNull();
    } finally {
      alone.close();
    }
  });

  it("never lets one address add more new players across games than the limit, however its joins spread over the nodes", async () => {
    const joinLimits = { joinsPerIpPerMinute: ACROSS_GAMES, joinsPerIpPerGamePerMinute: 1000, joinsPerGamePerMinute: 100_000, playersPerIpPerGame: 1000 };
    const [a, b] = nodes.map((node) => {
      const limiter = new JoinLimiter(joinLimits, node.sharedAllowance("joinsAcrossGames", ACROSS_GAMES, JOIN_WINDOW_SECONDS)!);
      limiters.push(limiter);
      return limiter;
    });
    const address = "198.51.100.9";
    // Many games, each on one of the two nodes, joined at once: 3 times the limit in attempts.
    const attempts = Array.from({ length: ACROSS_GAMES * 3 }, (_, index) =>
      Promise.resolve((index % 2 === 0 ? a : b).refusalOf(address, `G${String(index).padStart(5, "0")}`)),
    );
    const outcomes = await Promise.all(attempts);
    const admitted = outcomes.filter((outcome) => outcome === null).length;
    expect(outcomes.filter((outcome) => outcome !== null).every((outcome) => outcome === "ip")).toBe(true);
    // Never more than the limit; fewer by at most what the other node holds leased and unspent.
    expect(admitted).toBeLessThanOrEqual(ACROSS_GAMES);
    expect(admitted).toBeGreaterThanOrEqual(ACROSS_GAMES - Math.ceil(ACROSS_GAMES * LEASE_SHARE));
    // Used up for both nodes until the window ends.
    expect(await a.refusalOf(address, "ZZZZZ1")).toBe("ip");
    expect(await b.refusalOf(address, "ZZZZZ2")).toBe("ip");
    // Another address has its own allowance.
    expect(await b.refusalOf("198.51.100.10", "ZZZZZ3")).toBeNull();
  });

  it("lets an address that joins on one node only have the whole limit there", async () => {
    const joinLimits = { joinsPerIpPerMinute: ACROSS_GAMES, joinsPerIpPerGamePerMinute: 1000, joinsPerGamePerMinute: 100_000, playersPerIpPerGame: 1000 };
    const limiter = new JoinLimiter(joinLimits, nodes[0].sharedAllowance("joinsAcrossGames", ACROSS_GAMES, JOIN_WINDOW_SECONDS)!);
    limiters.push(limiter);
    const outcomes: Array<string | null> = [];
    for (let index = 0; index < ACROSS_GAMES + 5; index++) outcomes.push(await limiter.refusalOf("192.0.2.44", `H${index}`));
    expect(outcomes.filter((outcome) => outcome === null)).toHaveLength(ACROSS_GAMES);
  });
});
