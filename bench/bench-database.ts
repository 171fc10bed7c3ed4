/**
 * Where a bench server keeps its data (issue 28: one node on PostgreSQL against one on SQLite, in
 * the same run): its own SQLite file, as `npm start` does, or a fresh database on one throwaway
 * PostgreSQL from Debian's binaries (scripts/local-postgres.ts), started at the first use and shared
 * by every run of the bench. fsync stays on, as SQLite's own `synchronous = FULL`: both then keep
 * what they acknowledged through a power cut, and neither is measured without its disk flush.
 */
import { startLocalPostgres, type LocalPostgres } from "../scripts/local-postgres";

export const BENCH_DATABASES = ["sqlite", "postgres"] as const;
export type BenchDatabase = (typeof BENCH_DATABASES)[number];

let postgres: Promise<LocalPostgres> | null = null;
let databasesMade = 0;

/** A fresh, empty PostgreSQL database's URL for the next server; undefined for SQLite (the server makes its own file). */
export async function freshDatabaseUrl(database: BenchDatabase): Promise<string | undefined> {
  if (database === "sqlite") return undefined;
  postgres ??= startLocalPostgres();
  const server = await postgres;
  databasesMade++;
  return server.createDatabase(`bench_${process.pid}_${databasesMade}`);
}

/** Stops the throwaway PostgreSQL, if the bench started one. */
export async function stopBenchPostgres(): Promise<void> {
  if (!postgres) return;
  const server = await postgres;
  postgres = null;
  await server.stop();
}
