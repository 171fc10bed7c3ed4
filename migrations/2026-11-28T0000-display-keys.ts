import type { Kysely } from "kysely";

/**
 * The display and remote capabilities of a game (issue 17, docs/decisions/0032-display-and-remote.md):
 * two random keys per game, one that lets a screen watch it and one that lets a phone run it as its
 * host. Games created from now on get them at once; a game created before this migration gets them
 * the first time its host's screen or its room asks (app/models/game.server.ts, `ensureGameKeys`),
 * so the migration itself draws nothing and needs no code of the app.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("games").addColumn("display_key", "text").execute();
  await db.schema.alterTable("games").addColumn("remote_key", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("games").dropColumn("remote_key").execute();
  await db.schema.alterTable("games").dropColumn("display_key").execute();
}
