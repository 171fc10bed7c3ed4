import type { Kysely } from "kysely";

/**
 * The host's pauses of the open question (issue 17), as JSON `[[from, to], ...]` with `to` null for
 * a pause still on, so a question paused when the server stops comes back paused with the time it
 * had left, and answers after a restart are still timed without the pauses.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("games")
    .addColumn("question_pauses", "text", (column) => column.notNull().defaultTo("[]"))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("games").dropColumn("question_pauses").execute();
}
