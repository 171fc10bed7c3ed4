/**
 * Work that one node of a cluster at a time may do (issue 28: "the hub's sweep and purges run on
 * one node at a time"; docs/decisions/0056-forwarding-and-signals.md). On PostgreSQL a session
 * advisory lock, tried, never waited for, on one connection held for the work's length; on SQLite
 * (one process) the work runs at once. Driver specifics stay in db/.
 */
import { sql } from "kysely";
import type { DB } from "./connection.server";
import { isPostgres } from "./dialect";

/**
 * The first key of these locks (`pg_try_advisory_lock(int, int)`), told apart from the nodes' own
 * locks (app/models/game-owners.server.ts): "QN" and 56, after the decision.
 */
const CLUSTER_WORK_NAMESPACE = 0x514e_0056;

/** Each job's second key. */
export const ClusterWork = { sweep: 1 } as const;

/**
 * Runs `run` unless another node runs the same work now: its result, or null when it was skipped.
 * `run` gets the database handle to use, bound to the connection that holds the lock on PostgreSQL.
 */
export async function aloneInCluster<T>(db: DB, work: number, run: (db: DB) => Promise<T>): Promise<T | null> {
  if (!isPostgres(db)) return run(db);
  // A session lock lives on a connection, not a pool: the work runs on the connection that took it.
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${CLUSTER_WORK_NAMESPACE}::int, ${work}::int) as locked`.execute(connection);
    if (!rows[0]?.locked) return null;
    try {
      return await run(connection);
    } finally {
      await sql`select pg_advisory_unlock(${CLUSTER_WORK_NAMESPACE}::int, ${work}::int)`.execute(connection);
    }
  });
}
