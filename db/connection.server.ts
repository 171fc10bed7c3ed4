import fs from "node:fs";
import path from "node:path";
import { SQLite } from "./sqlite.server";
import { withStatementCache } from "./statement-cache.server";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { migrationProvider } from "#migrations/index";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

export interface DatabaseOptions {
  /**
   * `full` (the default): every commit is on disk before it returns, so an acknowledged answer
   * survives a power cut. `normal`: it survives a crash of the process, but a power cut or an OS
   * crash may roll back the last commits (docs/decisions/0015).
   */
  synchronous?: "full" | "normal";
}

/** Opens (creating the file and its folder if needed) the SQLite database in WAL mode. */
export function openDatabase(databasePath: string, options: DatabaseOptions = {}): DB {
  if (databasePath !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(databasePath)), { recursive: true });
  const sqlite = new SQLite(databasePath);
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

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: DB): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? "(unknown)"} failed: ${String(error)}`, { cause: error });
  }
  return (results ?? []).filter((result) => result.status === "Success").map((result) => result.migrationName);
}
