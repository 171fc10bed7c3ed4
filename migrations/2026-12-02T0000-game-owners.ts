import type { Kysely } from "kysely";

/**
 * Game ownership (issue 28, docs/decisions/0052-game-ownership-and-fencing.md): which node owns
 * each live game, at which epoch, and each node's heartbeat, advisory lock key and address. Only
 * PostgreSQL reads and writes them (one SQLite process is the only node); the tables exist in both
 * so both schemas stay the same. Dialect-neutral: the schema builder only, integers for times in
 * milliseconds and for the epoch (bigint: it only ever grows).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("nodes")
    .addColumn("node_id", "text", (column) => column.primaryKey())
    .addColumn("address", "text", (column) => column.notNull())
    .addColumn("lock_key", "integer", (column) => column.notNull())
    .addColumn("heartbeat_at", "bigint", (column) => column.notNull())
    .addColumn("started_at", "bigint", (column) => column.notNull())
    .execute();
  await db.schema
    .createTable("game_owners")
    .addColumn("game_id", "bigint", (column) => column.primaryKey().references("games.id").onDelete("cascade"))
    // Null: released (a handover, or the room left memory); any node may claim the game at once.
    .addColumn("node_id", "text")
    .addColumn("epoch", "bigint", (column) => column.notNull())
    .addColumn("claimed_at", "bigint", (column) => column.notNull())
    .execute();
  // A node's games, released together after it fenced itself or when it starts again.
  await db.schema.createIndex("game_owners_node_id").on("game_owners").column("node_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("game_owners").execute();
  await db.schema.dropTable("nodes").execute();
}
