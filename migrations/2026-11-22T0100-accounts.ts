import { sql, type Kysely } from "kysely";

/** Accounts: passwords, guests, Google identities, sessions, failed logins and AI generation counts. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("password_hash", "text").execute();
  await db.schema.alterTable("users").addColumn("firebase_uid", "text").execute();
  await db.schema
    .alterTable("users")
    .addColumn("is_guest", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`create unique index users_firebase_uid_idx on users (firebase_uid) where firebase_uid is not null`.execute(db);
  // Usernames and emails are unique ignoring case.
  await sql`create unique index users_username_nocase_idx on users (lower(username))`.execute(db);
  await sql`create unique index users_email_nocase_idx on users (lower(email)) where email is not null`.execute(db);

  await db.schema
    .createTable("sessions")
    // SHA-256 of the random id in the cookie: a copy of the database does not hand out live sessions.
    .addColumn("id_hash", "text", (col) => col.primaryKey())
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("expires_at", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("login_failures")
    .addColumn("key", "text", (col) => col.notNull())
    .addColumn("failed_at", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("login_failures_key_idx").on("login_failures").columns(["key", "failed_at"]).execute();

  await db.schema
    .createTable("ai_generations")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("quiz_id", "integer", (col) => col.references("quizzes.id").onDelete("set null"))
    .addColumn("created_at", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("ai_generations_user_idx").on("ai_generations").columns(["user_id", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("ai_generations").execute();
  await db.schema.dropTable("login_failures").execute();
  await db.schema.dropTable("sessions").execute();
  await sql`drop index users_email_nocase_idx`.execute(db);
  await sql`drop index users_username_nocase_idx`.execute(db);
  await sql`drop index users_firebase_uid_idx`.execute(db);
  await db.schema.alterTable("users").dropColumn("is_guest").execute();
  await db.schema.alterTable("users").dropColumn("firebase_uid").execute();
  await db.schema.alterTable("users").dropColumn("password_hash").execute();
}
