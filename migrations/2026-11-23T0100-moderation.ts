import type { Kysely } from "kysely";

/** The host's moderation: a game closed to new players, and browsers removed from a game for good. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("games")
    .addColumn("locked", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable("game_kicks")
    .addColumn("game_id", "integer", (col) => col.notNull().references("games.id").onDelete("cascade"))
    .addColumn("client_id", "text", (col) => col.notNull())
    .addColumn("kicked_at", "integer", (col) => col.notNull())
    .addPrimaryKeyConstraint("game_kicks_pk", ["game_id", "client_id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("game_kicks").execute();
  await db.schema.alterTable("games").dropColumn("locked").execute();
}
