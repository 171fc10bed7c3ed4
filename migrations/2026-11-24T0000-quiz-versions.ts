import { sql, type Kysely } from "kysely";

/**
 * A game plays the quiz as it was when the game was opened (docs/decisions/0014): its questions
 * are listed in `game_questions`, a question some game lists is never changed or deleted (an edit
 * retires it and adds a new row), and a quiz deleted while one of its games is unfinished is
 * hidden at once and removed once those games are over.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("quizzes").addColumn("deleted_at", "integer").execute();
  await sql`create index quizzes_deleted_idx on quizzes (deleted_at) where deleted_at is not null`.execute(db);
  await db.schema.alterTable("questions").addColumn("retired_at", "integer").execute();
  await db.schema.alterTable("games").addColumn("time_limit", "integer").execute();
  await sql`update games set time_limit = (select time_limit from quizzes where quizzes.id = games.quiz_id)`.execute(db);

  await db.schema
    .createTable("game_questions")
    .addColumn("game_id", "integer", (col) => col.notNull().references("games.id").onDelete("cascade"))
    .addColumn("position", "integer", (col) => col.notNull())
    .addColumn("question_id", "integer", (col) => col.notNull().references("questions.id"))
    .addPrimaryKeyConstraint("game_questions_pk", ["game_id", "position"])
    .execute();
  await db.schema.createIndex("game_questions_question_idx").on("game_questions").column("question_id").execute();
  // Games opened before this migration played the quiz's questions as they stand now.
  await sql`
    insert into game_questions (game_id, position, question_id)
    select games.id, row_number() over (partition by games.id order by questions."order", questions.id) - 1, questions.id
    from games join questions on questions.quiz_id = games.quiz_id`.execute(db);
  await sql`create index games_quiz_status_idx on games (quiz_id, status)`.execute(db);
  // The sweep looks for waiting games nobody opened, the featured list for live ones.
  await sql`create index games_status_created_idx on games (status, created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index games_status_created_idx`.execute(db);
  await sql`drop index games_quiz_status_idx`.execute(db);
  await db.schema.dropTable("game_questions").execute();
  await db.schema.alterTable("games").dropColumn("time_limit").execute();
  await db.schema.alterTable("questions").dropColumn("retired_at").execute();
  await sql`drop index quizzes_deleted_idx`.execute(db);
  await db.schema.alterTable("quizzes").dropColumn("deleted_at").execute();
}
