/**
 * A migrated database for tests that call models and routes directly: a SQLite file in its own
 * temporary folder, or in the Postgres pass (QUIZ_TEST_DATABASE=postgres, docs/testing.md) a fresh
 * database on the run's PostgreSQL, copied from the migrated template.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { migrateToLatest, openDatabase, type DB } from "#db/connection.server";
import { DEFAULT_LIMIT_RULES, RateLimits, type LimitRules } from "#app/limits/rate-limits.server";
import { sharedTestPostgres, uniqueDatabaseName, usesPostgres, TEST_TEMPLATE_DATABASE } from "../postgres";

export interface TempDatabase {
  db: DB;
  /** The SQLite file, or the PostgreSQL database's URL, for a second connection of a test's own. */
  location: string;
  /** Closes the database and deletes its folder. */
  remove(): Promise<void>;
}

export async function openTempDatabase(name: string): Promise<TempDatabase> {
  if (usesPostgres()) {
    const postgres = sharedTestPostgres();
    const databaseName = uniqueDatabaseName(name);
    const location = await postgres.createDatabase(databaseName, { template: TEST_TEMPLATE_DATABASE });
    const db = openDatabase(location);
    // Connects now, as opening a SQLite file does: a test that destroys `db` then finds it closed.
    await sql`select 1`.execute(db);
    return {
      db,
      location,
      async remove() {
        await db.destroy();
        await postgres.dropDatabase(databaseName);
        await postgres.release();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `quiz-night-${name}-`));
  const location = path.join(dir, `${name}.sqlite`);
  const db = openDatabase(location);
  await migrateToLatest(db);
  return {
    db,
    location,
    async remove() {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Limits for tests that call routes directly: the login limits as in production, the creation
 * limits lifted (unless a test names its own), counted in memory.
 */
export function testLimits(rules: Partial<LimitRules> = {}): RateLimits {
  const lifted = Object.fromEntries(
    (["guest", "register", "aiAddress", "quiz", "question", "game"] as const).map((name) => [
      name,
      { ...DEFAULT_LIMIT_RULES[name], points: Number.POSITIVE_INFINITY },
    ]),
  );
  return new RateLimits(":memory:", { ...DEFAULT_LIMIT_RULES, ...lifted, ...rules });
}
