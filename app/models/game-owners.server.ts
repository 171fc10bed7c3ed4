/**
 * Who owns each live game, and which nodes are alive (docs/decisions/0052-game-ownership-and-fencing.md).
 * PostgreSQL only: on SQLite one process is the only node and nothing here runs
 * (server/ownership.ts). Every time is the database's clock in milliseconds, so the nodes'
 * clocks never have to agree.
 *
 * The tables (migrations/2026-12-02T0000-game-owners.ts) are typed here with `withTables` rather
 * than in db/schema.ts: nothing else reads them.
 */
import { sql } from "kysely";
import type { DB } from "#db/connection.server";

export type GameOwnerTables = {
  /** A live game's owner. `node_id` null: released, any node claims it at once. `epoch` only ever grows. */
  game_owners: { game_id: number; node_id: string | null; epoch: number; claimed_at: number };
  /** A node as the others see it: its heartbeat, its advisory lock's key, and where it listens. */
  nodes: { node_id: string; address: string; lock_key: number; heartbeat_at: number; started_at: number };
};

/** The database with the ownership tables in its type. */
function withOwnerTables(db: DB) {
  return db.withTables<GameOwnerTables>();
}

/**
 * The first key of every node's session advisory lock (`pg_try_advisory_lock(int, int)`); the
 * second is the node's own `lock_key`. Fixed, so the lock is told apart from any other advisory
 * lock in the database ("QN" and 52, after this decision).
 */
export const NODE_LOCK_NAMESPACE = 0x514e_0052;

/** The database's clock now, in milliseconds (clock_timestamp: the statement's own moment, not its transaction's). */
const DB_NOW_MS = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/** The advisory lock of node `lockKey` is held by some session of this database. */
const lockHeld = (lockKey: ReturnType<typeof sql.ref>) => sql<boolean>`exists (
  select 1 from pg_locks lock
  where lock.locktype = 'advisory' and lock.granted and lock.objsubid = 2
    and lock.database = (select oid from pg_database where datname = current_database())
    and lock.classid = ${NODE_LOCK_NAMESPACE}::int::oid and lock.objid = ${lockKey}::int::oid
)`;

/** A node's session takes its advisory lock; `pid` names the session, so a later heartbeat can tell it is still the same one. */
export async function takeNodeLock(db: DB, lockKey: number): Promise<{ locked: boolean; pid: number }> {
  const { rows } = await sql<{ locked: boolean; pid: number }>`
    select pg_try_advisory_lock(${NODE_LOCK_NAMESPACE}::int, ${lockKey}::int) as locked, pg_backend_pid() as pid`.execute(db);
  return { locked: rows[0].locked, pid: Number(rows[0].pid) };
}

/** Gives back every advisory lock the session holds (a lock taken again on the same session stacks). */
export async function dropNodeLocks(db: DB): Promise<void> {
  await sql`select pg_advisory_unlock_all()`.execute(db);
}

/** Writes (or rewrites, for a node id that ran before) the node's row, its heartbeat now. */
export async function registerNode(db: DB, node: { nodeId: string; address: string; lockKey: number }): Promise<void> {
  await sql`
    insert into nodes (node_id, address, lock_key, heartbeat_at, started_at)
    values (${node.nodeId}, ${node.address}, ${node.lockKey}, ${DB_NOW_MS}, ${DB_NOW_MS})
    on conflict (node_id) do update set
      address = excluded.address, lock_key = excluded.lock_key, heartbeat_at = excluded.heartbeat_at, started_at = excluded.started_at`.execute(db);
}

/**
 * Renews the node's heartbeat; the session that ran it (`pid`), or null when the row is no longer
 * this node's (removed, or rewritten by another process started with the same node id).
 */
export async function renewHeartbeat(db: DB, nodeId: string, lockKey: number): Promise<{ pid: number } | null> {
  const { rows } = await sql<{ pid: number }>`
    update nodes set heartbeat_at = ${DB_NOW_MS}
    where node_id = ${nodeId} and lock_key = ${lockKey}
    returning pg_backend_pid() as pid`.execute(db);
  return rows[0] ? { pid: Number(rows[0].pid) } : null;
}

/** The node stopped for good: its row goes (its games were released first). */
export async function removeNode(db: DB, nodeId: string, lockKey: number): Promise<void> {
  await withOwnerTables(db).deleteFrom("nodes").where("node_id", "=", nodeId).where("lock_key", "=", lockKey).execute();
}

export interface GameOwner {
  nodeId: string;
  address: string;
}

export type ClaimResult = { claimed: true; epoch: number } | { claimed: false; owner: GameOwner | null };

/**
 * Claims a game for `nodeId` in one statement: when no node owns it (no row, or released), when
 * it is already this node's, or when its owner is dead (its heartbeat older than `leaseMs`, or its
 * session's advisory lock gone). The epoch grows by one with every claim. Two nodes claiming at
 * once: the row's lock orders them, and the second sees the first alive, so exactly one wins.
 * A claim waits for a commit of the game that holds its row (the fence below), so the claimer
 * then reads everything the old owner stored.
 */
export async function claimGame(db: DB, gameId: number, nodeId: string, leaseMs: number): Promise<ClaimResult> {
  const { rows } = await sql<{ epoch: number }>`
    insert into game_owners as owner (game_id, node_id, epoch, claimed_at)
    values (${gameId}, ${nodeId}, 1, ${DB_NOW_MS})
    on conflict (game_id) do update set node_id = excluded.node_id, epoch = owner.epoch + 1, claimed_at = excluded.claimed_at
    where owner.node_id is null or owner.node_id = ${nodeId} or not exists (
      select 1 from nodes node
      where node.node_id = owner.node_id and node.heartbeat_at >= ${DB_NOW_MS} - ${leaseMs} and ${lockHeld(sql.ref("node.lock_key"))}
    )
    returning owner.epoch`.execute(db);
  if (rows[0]) return { claimed: true, epoch: Number(rows[0].epoch) };
  return { claimed: false, owner: (await ownerOf(db, gameId)) ?? null };
}

/** The node that owns a game now, with the address the others reach it at; undefined when none does. */
export async function ownerOf(db: DB, gameId: number): Promise<GameOwner | undefined> {
  const row = await withOwnerTables(db)
    .selectFrom("game_owners")
    .innerJoin("nodes", "nodes.node_id", "game_owners.node_id")
    .select(["nodes.node_id", "nodes.address"])
    .where("game_owners.game_id", "=", gameId)
    .executeTakeFirst();
  return row ? { nodeId: row.node_id, address: row.address } : undefined;
}

/** A game's owner row as stored (tests and the cluster's tools). */
export async function ownerRowOf(db: DB, gameId: number): Promise<{ nodeId: string | null; epoch: number } | undefined> {
  const row = await withOwnerTables(db).selectFrom("game_owners").select(["node_id", "epoch"]).where("game_id", "=", gameId).executeTakeFirst();
  return row ? { nodeId: row.node_id, epoch: Number(row.epoch) } : undefined;
}

export type FenceOutcome = "owned" | "lost" | "game-gone";

/**
 * The fence, first thing in the transaction that writes these games' batches, before any of their
 * writes, in one statement for all of them: for each claim, "owned" when the game's row still names
 * this node at this epoch, and that row stays locked until the transaction ends, so no claim can
 * pass between this check and the commit; "lost" when another node claimed it or it was released
 * (nothing may be written); "game-gone" when the game's row itself is gone (its owner row went with
 * it). The rows are locked in the order of their ids, as every transaction of this node takes them.
 */
export async function fenceGames(trx: DB, nodeId: string, claims: readonly { gameId: number; epoch: number }[]): Promise<FenceOutcome[]> {
  const ids = claims.map((claim) => claim.gameId);
  const { rows } = await sql<{ game_id: number; epoch: number }>`
    select game_id, epoch from game_owners
    where game_id = any(${ids}::bigint[]) and node_id = ${nodeId}
    order by game_id for update`.execute(trx);
  const owned = new Map(rows.map((row) => [Number(row.game_id), Number(row.epoch)]));
  const lost = claims.filter((claim) => owned.get(claim.gameId) !== claim.epoch).map((claim) => claim.gameId);
  // Only when a game was lost: is it gone altogether?
  const present =
    lost.length === 0
      ? new Set<number>()
      : new Set((await trx.selectFrom("games").select("id").where("id", "in", lost).execute()).map((row) => Number(row.id)));
  return claims.map((claim) => (owned.get(claim.gameId) === claim.epoch ? "owned" : present.has(claim.gameId) ? "lost" : "game-gone"));
}

/**
 * Gives a game up (a handover, or its room left memory): any node may claim it at once, without
 * waiting for a lease. Only this node's claim of this epoch is released; the epoch stays, so the
 * next claim still goes above it. False when the game was no longer this node's.
 */
export async function releaseGame(db: DB, gameId: number, nodeId: string, epoch: number): Promise<boolean> {
  const result = await withOwnerTables(db)
    .updateTable("game_owners")
    .set({ node_id: null })
    .where("game_id", "=", gameId)
    .where("node_id", "=", nodeId)
    .where("epoch", "=", epoch)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The games a live node owns now (a waiting game among them is open, though not in this node's
 * memory). A dead node's claim does not count: the default node id names its process, so a killed
 * node may never come back to release its games, and its waiting games must still expire.
 */
export async function ownedGameIds(db: DB, leaseMs: number): Promise<number[]> {
  const { rows } = await sql<{ game_id: number }>`
    select owner.game_id from game_owners owner join nodes node on node.node_id = owner.node_id
    where ${nodeAlive(leaseMs)}`.execute(db);
  return rows.map((row) => Number(row.game_id));
}

/**
 * Releases every game that names this node: at its start (an earlier process with the same node
 * id), and after it fenced itself (its rooms stopped, so what it still names it no longer runs).
 * Returns how many.
 */
export async function releaseGamesOf(db: DB, nodeId: string): Promise<number> {
  const result = await withOwnerTables(db).updateTable("game_owners").set({ node_id: null }).where("node_id", "=", nodeId).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * A node is alive for the others: its heartbeat younger than `leaseMs` and its session's advisory
 * lock held, as a claim judges it (`claimGame`), so nothing is sent to a node a claim would take over.
 */
const nodeAlive = (leaseMs: number) => sql<boolean>`node.heartbeat_at >= ${DB_NOW_MS} - ${leaseMs} and ${lockHeld(sql.ref("node.lock_key"))}`;

/**
 * The live node that owns the live game with this code: where a socket for it belongs
 * (server/socket/forward.ts, docs/decisions/0056-forwarding-and-signals.md). Undefined when no
 * node owns it, or its owner is dead: then whichever node the socket reached claims it. One
 * statement on indexes (the live code's, the owner's key, the node's key).
 */
export async function liveOwnerOfCode(db: DB, gameCode: string, leaseMs: number): Promise<GameOwner | undefined> {
  return (await liveOwnersOfCodes(db, [gameCode], leaseMs)).get(gameCode);
}

/** `liveOwnerOfCode` for many games in one statement: each live game a live node owns, by its code. */
export async function liveOwnersOfCodes(db: DB, gameCodes: readonly string[], leaseMs: number): Promise<Map<string, GameOwner>> {
  if (gameCodes.length === 0) return new Map();
  const { rows } = await sql<{ game_code: string; node_id: string; address: string }>`
    select game.game_code, node.node_id, node.address
    from games game
    join game_owners owner on owner.game_id = game.id
    join nodes node on node.node_id = owner.node_id
    where game.game_code = any(${gameCodes}::text[]) and game.status != 'finished' and ${nodeAlive(leaseMs)}`.execute(db);
  return new Map(rows.map((row) => [row.game_code, { nodeId: row.node_id, address: row.address }]));
}
