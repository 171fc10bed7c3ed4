/**
 * `npm run bench`'s choice of mode and of what it runs on (bench/bench-mode.ts): `--nodes N` plays
 * the single-game and many-games modes on a cluster on PostgreSQL, as well as the failover mode,
 * and the combinations that cannot be measured are refused with what to give instead.
 */
import { describe, expect, it } from "vitest";
import { benchSetup, targetLabel, type BenchModeArgs } from "../../bench/bench-mode";

const args = (overrides: Partial<BenchModeArgs> = {}): BenchModeArgs => ({ nodes: "1", outsider: false, runs: 1, ...overrides });

describe("benchSetup", () => {
  it("runs one node on SQLite by default, in the single-game mode", () => {
    expect(benchSetup(args())).toEqual({ mode: "single game", nodes: 1, databases: ["sqlite"] });
  });

  it("runs one node on each database in turn with --database both", () => {
    expect(benchSetup(args({ games: "900", database: "both" }))).toEqual({ mode: "many games", nodes: 1, databases: ["sqlite", "postgres"] });
  });

  it("plays the many-games mode on a cluster of --nodes on PostgreSQL", () => {
    expect(benchSetup(args({ games: "900", nodes: "3" }))).toEqual({ mode: "many games", nodes: 3, databases: ["postgres"] });
    expect(benchSetup(args({ games: "900", nodes: "3", database: "postgres" }))).toEqual({ mode: "many games", nodes: 3, databases: ["postgres"] });
  });

  it("plays the single-game mode on a cluster, on the database given", () => {
    expect(benchSetup(args({ nodes: "3", databaseUrl: "postgres://db/bench" }))).toEqual({
      mode: "single game",
      nodes: 3,
      databases: ["postgres"],
      databaseUrl: "postgres://db/bench",
    });
  });

  it("runs the failover mode on a cluster", () => {
    expect(benchSetup(args({ nodes: "3", killOwnerAt: "3" }))).toMatchObject({ mode: "failover", nodes: 3, databases: ["postgres"] });
    expect(benchSetup(args({ nodes: "2", hangOwnerAt: "1" }))).toMatchObject({ mode: "failover", nodes: 2 });
  });

  it.each([
    ["0", /--nodes must be a whole number from 1 to 16/],
    ["17", /--nodes must be a whole number from 1 to 16/],
    ["2.5", /--nodes must be a whole number/],
    ["three", /--nodes must be a whole number/],
  ])("refuses --nodes %s", (nodes, message) => {
    expect(() => benchSetup(args({ nodes }))).toThrow(message);
  });

  it.each<[string, Partial<BenchModeArgs>, RegExp]>([
    ["a cluster on SQLite", { nodes: "3", games: "10", database: "sqlite" }, /--database sqlite is one node/],
    ["a cluster on both databases", { nodes: "3", database: "both" }, /a cluster runs on PostgreSQL only/],
    ["--database-url without a cluster", { games: "10", databaseUrl: "postgres://db/bench" }, /give --nodes 2 or more/],
    ["--database-url over several runs", { nodes: "3", games: "10", databaseUrl: "postgres://db/bench", runs: 3 }, /give --runs 1/],
    ["a failover with one node", { killOwnerAt: "3" }, /need --nodes 2 or more/],
    ["two faults", { nodes: "3", killOwnerAt: "3", hangOwnerAt: "3" }, /one fault a run/],
    ["a failover of many games", { nodes: "3", killOwnerAt: "3", games: "10" }, /play one game/],
    ["the outsider on a cluster", { nodes: "3", outsider: true }, /--outsider runs one node on SQLite: leave out --nodes/],
    ["the outsider on PostgreSQL", { outsider: true, database: "postgres" }, /--outsider runs one node on SQLite: leave out --database/],
    ["the outsider with many games", { outsider: true, games: "10" }, /--outsider plays one game/],
    ["an unknown database", { database: "mysql" }, /--database must be sqlite, postgres or both/],
  ])("refuses %s", (_, overrides, message) => {
    expect(() => benchSetup(args(overrides))).toThrow(message);
  });
});

describe("targetLabel", () => {
  it("names one node by its database and a cluster by its nodes", () => {
    expect(targetLabel("sqlite", 1)).toBe("sqlite");
    expect(targetLabel("postgres", 1)).toBe("postgres");
    expect(targetLabel("postgres", 3)).toBe("3 nodes on postgres");
  });
});
