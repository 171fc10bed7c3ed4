/**
 * Locks by name, for the work that SQLite's one writer used to keep to one at a time and that
 * PostgreSQL runs side by side across connections and servers (docs/decisions/0051-postgres-second-store.md).
 * They are PostgreSQL's advisory locks: a lock on a number that means nothing to the database but
 * what we agree it means, released by the database itself when the transaction or the connection
 * ends, so a server that dies holding one holds it no longer. On SQLite each is a no-op: one
 * process writes to the file and its transactions already run one after another.
 */
import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "./connection.server";
import { isPostgres } from "./dialect";

/** The advisory lock's 64-bit key for a name: the first 8 bytes of its SHA-256, as PostgreSQL's signed bigint. */
export function lockKey(name: string): string {
  return createHash("sha256").update(name).digest().readBigInt64BE(0).toString();
}

/**
 * Waits until no other transaction holds the lock `name`, then holds it until this transaction
 * (`trx`) ends: for a read that decides a write (a quota, a seat) and must not be read by another
 * transaction in between.
 */
export async function lockUntilCommit(trx: DB, name: string): Promise<void> {
  if (!trx.isTransaction) throw new Error(`lockUntilCommit(${name}) outside a transaction would release the lock at once.`);
  if (!isPostgres(trx)) return;
  await sql`select pg_advisory_xact_lock(cast(${lockKey(name)} as bigint))`.execute(trx);
}

/**
 * Runs `run` unless another server (or this one) is running the work `name` now, and tells whether
 * it ran. The lock is held on a connection of its own for the whole run, so `run` may commit in as
 * many transactions as it likes (the sweep's purges go a chunk at a time); the pool therefore needs
 * two connections at least (DATABASE_POOL_SIZE). On SQLite, `run` always runs.
 */
export async function runAlone(db: DB, name: string, run: () => Promise<void>): Promise<boolean> {
  if (!isPostgres(db)) {
    await run();
    return true;
  }
  const key = lockKey(name);
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(cast(${key} as bigint)) as locked`.execute(connection);
    if (!rows[0]?.locked) return false;
    try {
      await run();
      return true;
    } finally {
      await sql`select pg_advisory_unlock(cast(${key} as bigint))`.execute(connection);
    }
  });
}
