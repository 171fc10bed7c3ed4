/**
 * The Postgres connections the limits of a cluster count in (app/limits/rate-limits.server.ts,
 * docs/decisions/0054-limits-across-nodes.md): a `pg` pool of their own, so a burst of limit
 * checks never waits behind a game's commit for a connection. Driver specifics stay in db/.
 */
import pg from "pg";

/** What the limits use of a pool: rate-limiter-flexible's Postgres store takes the pool itself. */
export type LimitsPool = pg.Pool;

/** A few connections: a limit check is one short upsert. */
const LIMITS_POOL_SIZE = 4;

/**
 * `onConnectionError`: an idle connection the server ended (a restart, a terminated backend). pg
 * emits it on the pool, and an `error` event nobody listens to ends the process; the pool opens a
 * new connection for the next check.
 */
export function openLimitsPool(databaseUrl: string, onConnectionError: (error: Error) => void): LimitsPool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: LIMITS_POOL_SIZE });
  pool.on("error", onConnectionError);
  return pool;
}
