import { sql, type Kysely } from "kysely";

/**
 * Six kinds of question (docs/decisions/0018-question-kinds.md), each with its own time limit,
 * points and picture; pictures stored in the database (docs/decisions/0019-pictures.md). Existing
 * questions are multiple choice with the quiz's time limit and standard points, as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // The first schema checked correct_answer_index between 0 and 3; SQLite changes a CHECK only by
  // rebuilding the table (its documented twelve steps), with foreign keys off meanwhile so the
  // answers and game lists that point at questions keep their rows.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql`
        create table questions_new (
          id integer primary key autoincrement,
          quiz_id integer not null references quizzes (id) on delete cascade,
          text text not null,
          answers text not null,
          correct_answer_index integer not null check (correct_answer_index between -1 and 5),
          "order" integer not null,
          retired_at integer,
          kind text not null default 'choice'
            check (kind in ('choice', 'trueFalse', 'multiSelect', 'typeAnswer', 'closestNumber', 'poll')),
          correct_indexes text,
          accepted_answers text,
          correct_number real,
          time_limit integer check (time_limit is null or time_limit between 5 and 240),
          points text not null default 'standard' check (points in ('none', 'standard', 'double')),
          image_id text
        )`.execute(trx);
      await sql`
        insert into questions_new (id, quiz_id, text, answers, correct_answer_index, "order", retired_at)
        select id, quiz_id, text, answers, correct_answer_index, "order", retired_at from questions`.execute(trx);
      await sql`drop table questions`.execute(trx);
      await sql`alter table questions_new rename to questions`.execute(trx);
      await sql`create index questions_quiz_order_idx on questions (quiz_id, "order")`.execute(trx);
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error(`Rebuilding questions broke ${broken.rows.length} references.`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
  // JSON: the picks of a multi-select answer, the text typed, or the number guessed.
  await db.schema.alterTable("answers").addColumn("answer_value", "text").execute();
  // The host's "show pictures on players' devices" switch.
  await db.schema
    .alterTable("games")
    .addColumn("pictures_on_players", "integer", (col) => col.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("images")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("large", "blob", (col) => col.notNull())
    .addColumn("small", "blob", (col) => col.notNull())
    .addColumn("width", "integer", (col) => col.notNull())
    .addColumn("height", "integer", (col) => col.notNull())
    .addColumn("created_at", "integer", (col) => col.notNull())
    .execute();
  // Who uploaded which picture: what counts against each owner's storage.
  await db.schema
    .createTable("image_uploads")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("image_id", "text", (col) => col.notNull().references("images.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (col) => col.references("users.id").onDelete("cascade"))
    .addColumn("client_id", "text")
    .addColumn("bytes", "integer", (col) => col.notNull())
    .addColumn("created_at", "integer", (col) => col.notNull())
    .execute();
  await sql`create unique index image_uploads_user on image_uploads (user_id, image_id) where user_id is not null`.execute(db);
  await sql`create unique index image_uploads_client on image_uploads (client_id, image_id) where user_id is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("image_uploads").execute();
  await db.schema.dropTable("images").execute();
  await db.schema.alterTable("games").dropColumn("pictures_on_players").execute();
  await db.schema.alterTable("answers").dropColumn("answer_value").execute();
  // Questions of the new kinds cannot go back to the old table; the rest keep their rows.
  await sql`delete from questions where kind != 'choice' or correct_answer_index > 3`.execute(db);
  for (const column of ["image_id", "points", "time_limit", "correct_number", "accepted_answers", "correct_indexes", "kind"]) {
    await db.schema.alterTable("questions").dropColumn(column).execute();
  }
}
