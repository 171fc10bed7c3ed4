/**
 * Which mode of `npm run bench` a command line asks for, on what (bench/run.ts): one node on SQLite,
 * on PostgreSQL or on each in turn, or a cluster of `--nodes` nodes on one PostgreSQL behind the
 * consistent-hash proxy (bench/bench-target.ts), and the combinations that make no sense refused
 * with what to give instead. Pure, so tests/unit/bench-mode.test.ts holds it to its word.
 */
import { BENCH_DATABASES, type BenchDatabase } from "./bench-database";

export type BenchMode = "single game" | "many games" | "outsider" | "failover";

/** The options of the command line that choose the mode and what it runs on, as parseArgs gives them. */
export interface BenchModeArgs {
  nodes: string;
  games?: string;
  outsider: boolean;
  killOwnerAt?: string;
  hangOwnerAt?: string;
  database?: string;
  databaseUrl?: string;
  runs: number;
}

export interface BenchSetup {
  mode: BenchMode;
  /** 1: one server of the build; 2 or more: a local cluster behind the proxy, always on PostgreSQL. */
  nodes: number;
  /** What each run is played on, in turn (`--database both`: SQLite, then PostgreSQL); a cluster's is always PostgreSQL. */
  databases: BenchDatabase[];
  /** The cluster's existing, empty database instead of a throwaway PostgreSQL. */
  databaseUrl?: string;
}

export const MAX_BENCH_NODES = 16;

export function benchSetup(args: BenchModeArgs): BenchSetup {
  const nodes = Number(args.nodes);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > MAX_BENCH_NODES) {
    throw new Error(`--nodes must be a whole number from 1 to ${MAX_BENCH_NODES} (got ${args.nodes}).`);
  }
  if (args.killOwnerAt !== undefined && args.hangOwnerAt !== undefined) throw new Error("--kill-owner-at or --hang-owner-at: one fault a run.");
  if (args.database !== undefined && !(BENCH_DATABASES as readonly string[]).includes(args.database) && args.database !== "both") {
    throw new Error(`--database must be sqlite, postgres or both (got ${args.database}).`);
  }
  const failover = args.killOwnerAt !== undefined || args.hangOwnerAt !== undefined;
  const manyGames = args.games !== undefined;
  if (failover && (manyGames || args.outsider)) throw new Error("--kill-owner-at and --hang-owner-at play one game: leave out --games and --outsider.");
  if (args.outsider && manyGames) throw new Error("--outsider plays one game; leave out --games.");
  const mode: BenchMode = failover ? "failover" : args.outsider ? "outsider" : manyGames ? "many games" : "single game";

  const clustered = nodes > 1;
  if (failover && !clustered) throw new Error("--kill-owner-at and --hang-owner-at need --nodes 2 or more: another node takes the game over.");
  if (args.databaseUrl !== undefined && !clustered) {
    throw new Error("--database-url is a cluster's database: give --nodes 2 or more (one node on a throwaway PostgreSQL: --database postgres).");
  }
  if (clustered && args.database === "sqlite") throw new Error("--database sqlite is one node on its SQLite file: leave out --nodes and --database-url.");
  if (clustered && args.database === "both") {
    throw new Error("a cluster runs on PostgreSQL only: leave out --database both (or --nodes, for one node on each database in turn).");
  }
  if (args.outsider && clustered) throw new Error("--outsider runs one node on SQLite: leave out --nodes.");
  if (args.outsider && args.database !== undefined && args.database !== "sqlite") throw new Error("--outsider runs one node on SQLite: leave out --database.");
  if (args.databaseUrl !== undefined && args.runs > 1) {
    throw new Error("--database-url holds one run's games: give --runs 1, or leave it out for a throwaway database per run.");
  }

  const databases: BenchDatabase[] = clustered
    ? ["postgres"]
    : args.database === "both"
      ? [...BENCH_DATABASES]
      : [(args.database as BenchDatabase | undefined) ?? "sqlite"];
  return { mode, nodes, databases, ...(args.databaseUrl !== undefined ? { databaseUrl: args.databaseUrl } : {}) };
}

/** What a run's table calls what it was played on: `sqlite`, `postgres`, or `3 nodes on postgres`. */
export function targetLabel(database: BenchDatabase, nodes: number): string {
  return nodes > 1 ? `${nodes} nodes on ${database}` : database;
}
