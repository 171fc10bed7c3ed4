import { sql, type Kysely } from "kysely";

/** A ':' is not allowed in usernames people choose, so this one can never clash with theirs. */
export const SYSTEM_USERNAME = "quiz-night:system";

/**
 * Ownership without holes (docs/decisions/0005): a quiz belongs to its account alone, or to the
 * browser that made it without one; quizzes nobody owned (the seeded demos) now belong to the
 * system account, so they are read-only; a game remembers the browser that created it, the only
 * one that may take its host seat.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("is_system", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  // The system account has no email, password or Google identity, so nobody can ever sign in as it.
  await db.insertInto("users").values({ username: SYSTEM_USERNAME, display_name: "Quiz Night", is_system: 1, created_at: Date.now() }).execute();
  await sql`
    update quizzes set creator_id = (select id from users where is_system = 1)
    where creator_id is null and owner_client_id is null`.execute(db);
  // A quiz made while signed in also recorded the browser; it is the account's alone.
  await sql`update quizzes set owner_client_id = null where creator_id is not null`.execute(db);
  await db.schema.alterTable("games").addColumn("creator_client_id", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("games").dropColumn("creator_client_id").execute();
  await sql`update quizzes set creator_id = null where creator_id = (select id from users where is_system = 1)`.execute(db);
  await db.deleteFrom("users").where("is_system", "=", 1).execute();
  await db.schema.alterTable("users").dropColumn("is_system").execute();
}
