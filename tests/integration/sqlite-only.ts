/**
 * What the Postgres pass of the integration suite (QUIZ_TEST_DATABASE=postgres, docs/testing.md)
 * leaves out, and why: in one place, so that what PostgreSQL is not tested on is plain to see.
 * Everything else runs on both databases.
 *
 * Whole files are left out by vitest.config.ts; single tests call `sqliteOnly(reason)` in their
 * skipIf, naming their reason here.
 */
import { usesPostgres } from "../postgres";

/** Files about SQLite itself. */
export const SQLITE_ONLY_FILES: Record<string, string> = {
  "tests/integration/backup.test.ts":
    "npm run db:backup / db:restore copy the SQLite file with SQLite's backup API; a PostgreSQL database is backed up with pg_dump (docs/configuration.md).",
  "tests/integration/durability.test.ts":
    "SQLITE_SYNCHRONOUS (FULL or NORMAL) is SQLite's setting; PostgreSQL's durability is its own configuration (synchronous_commit).",
  "tests/integration/statement-cache.test.ts":
    "The prepared-statement cache wraps better-sqlite3 (db/statement-cache.server.ts); pg prepares nothing we cache.",
  "tests/integration/migration-question-kinds.test.ts": "Migrates an old SQLite file; PostgreSQL starts from its baseline (migrations/index.ts).",
  "tests/integration/migration-kind-without-check.test.ts": "Migrates an old SQLite file; PostgreSQL starts from its baseline (migrations/index.ts).",
  "tests/integration/migration-every-subscription.test.ts": "Migrates an old SQLite file; PostgreSQL starts from its baseline (migrations/index.ts).",
};

/** Single tests about SQLite, by the reason each names. */
export const SQLITE_ONLY_TESTS: Record<string, string> = {};

/** True in the Postgres pass, for a test that is SQLite's alone: `it.skipIf(sqliteOnly("its reason's key"))(...)`. */
export function sqliteOnly(reason: string): boolean {
  if (SQLITE_ONLY_TESTS[reason] === undefined) throw new Error(`${reason}: list it in SQLITE_ONLY_TESTS with why`);
  return usesPostgres();
}
