import type { Kysely } from "kysely";

/** Failed logins are counted by the rate limiter now (a file of its own beside the database). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("login_failures").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("login_failures")
    .addColumn("key", "text", (col) => col.notNull())
    .addColumn("failed_at", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("login_failures_key_idx").on("login_failures").columns(["key", "failed_at"]).execute();
}
