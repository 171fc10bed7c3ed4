import type { Kysely } from "kysely";

/**
 * Shared browsers (issue 26, docs/decisions/0044-shared-browsers.md): a game made signed out is its
 * browser's only while that browser holds the secret the server set in an HttpOnly cookie; the game
 * keeps the secret's SHA-256. Signing in or out on the browser clears it from that browser's games,
 * hence the index. A signed-out game made before this migration has none, so its host seat is
 * refused from now on (its phone remote's key still works); a game made signed in needs none.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("games").addColumn("host_secret_hash", "text").execute();
  await db.schema.createIndex("games_host_secret_hash").on("games").column("host_secret_hash").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("games_host_secret_hash").execute();
  await db.schema.alterTable("games").dropColumn("host_secret_hash").execute();
}
