import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { SQLite } from "./sqlite.server";
import { withStatementCache } from "./statement-cache.server";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import { migrationProviderFor } from "#migrations/index";
import { dialectOf } from "./dialect";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

export interface DatabaseOptions {
  /**
   * SQLite only. `full` (the default): every commit is on disk before it returns, so an acknowledged
   * answer survives a power cut. `normal`: it survives a crash of the process, but a power cut or an
   * OS crash may roll back the last commits (docs/decisions/0015). PostgreSQL's own settings
   * (`synchronous_commit`) decide this there.
   */
  synchronous?: "full" | "normal";
  /**
   * PostgreSQL only: how many connections this process opens at most (DATABASE_POOL_SIZE, default 10;
   * docs/configuration.md). Each transaction holds one for its length; a query beyond the limit waits.
   */
  poolSize?: number;
  /** PostgreSQL only: an idle pooled connection failed (the server restarted, the network dropped). The pool replaces it. */
  onConnectionError?: (error: Error) => void;
}

/** DATABASE_URL's form: a PostgreSQL connection URL rather than a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

export const DEFAULT_POOL_SIZE = 10;

/** A PostgreSQL URL fit for a log: host, port and database, without the user's password. */
export function describeDatabaseUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ""}${parsed.pathname}`;
}

/**
 * PostgreSQL's 64-bit integers (ids and millisecond timestamps are `bigint`, and so are count(*) and
 * sum()) and numerics (avg()) come from `pg` as strings, since JavaScript's number cannot hold every
 * int8. Ours all fit (ids, counts, ms since 1970 are far below 2^53), so they are numbers, as SQLite
 * gives them; one that does not is an error rather than a silently rounded value.
 */
const INT8_OID = 20;
const NUMERIC_OID = 1700;

function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`A bigint from PostgreSQL is beyond JavaScript's safe integers: ${text}`);
  return value;
}

const postgresTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (format !== "binary" && oid === INT8_OID) return parseInt8;
    if (format !== "binary" && oid === NUMERIC_OID) return Number;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

function openPostgres(url: string, options: DatabaseOptions): DB {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? DEFAULT_POOL_SIZE, types: postgresTypes });
  // Without a listener, an idle connection's error (a restarted server) would end the process.
  pool.on("error", (error) => options.onConnectionError?.(error));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/**
 * Opens the database: a `postgres://` (or `postgresql://`) URL on PostgreSQL through a pool of `pg`
 * connections (docs/decisions/0051-postgres-second-store.md), anything else as a SQLite file, created
 * with its folder if needed, in WAL mode.
 */
export function openDatabase(location: string, options: DatabaseOptions = {}): DB {
  if (isPostgresUrl(location)) return openPostgres(location, options);
  if (location !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(location)), { recursive: true });
  const sqlite = new SQLite(location);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma(`synchronous = ${options.synchronous === "normal" ? "NORMAL" : "FULL"}`);
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

/** Runs `run` in a transaction, or inside the one `db` already is, so models compose. */
export function inTransaction<T>(db: DB, run: (trx: DB) => Promise<T>): Promise<T> {
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** Applies every pending migration of the database's dialect; throws with the failing migration's name. */
export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProviderFor(dialectOf(db)) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? "(unknown)"} failed: ${String(error)}`, { cause: error });
  }
  return (results ?? []).filter((result) => result.status === "Success").map((result) => result.migrationName);
}
