import type { Kysely } from "kysely";

/** The interface language a signed-in user chose with the footer's switcher (issue 16); null: the browser's. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("language", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("language").execute();
}
