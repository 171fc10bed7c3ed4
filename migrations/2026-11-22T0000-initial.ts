import { sql, type Kysely } from "kysely";

/** Users, quizzes, questions, games, players and answers for the foundation. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("username", "text", (col) => col.notNull().unique())
    .addColumn("email", "text", (col) => col.unique())
    .addColumn("display_name", "text")
    .addColumn("subscription_tier", "text", (col) => col.notNull().defaultTo("free"))
    .addColumn("created_at", "integer", (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("quizzes")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("time_limit", "integer", (col) => col.notNull())
    .addColumn("is_public", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("creator_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("owner_client_id", "text")
    .addColumn("created_at", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("quizzes_creator_idx").on("quizzes").column("creator_id").execute();
  await db.schema.createIndex("quizzes_owner_client_idx").on("quizzes").column("owner_client_id").execute();

  await db.schema
    .createTable("questions")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("quiz_id", "integer", (col) => col.notNull().references("quizzes.id").onDelete("cascade"))
    .addColumn("text", "text", (col) => col.notNull())
    .addColumn("answers", "text", (col) => col.notNull())
    .addColumn("correct_answer_index", "integer", (col) => col.notNull().check(sql`correct_answer_index between 0 and 3`))
    .addColumn("order", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("questions_quiz_order_idx").on("questions").columns(["quiz_id", "order"]).execute();

  await db.schema
    .createTable("games")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("quiz_id", "integer", (col) => col.notNull().references("quizzes.id").onDelete("cascade"))
    .addColumn("host_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("game_code", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull().defaultTo("waiting"))
    .addColumn("host_client_id", "text")
    .addColumn("phase", "text", (col) => col.notNull().defaultTo("lobby"))
    .addColumn("question_index", "integer", (col) => col.notNull().defaultTo(-1))
    .addColumn("question_started_at", "integer")
    // Play Again starts a new round with the same players; answers are kept per round.
    .addColumn("round", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("started_at", "integer")
    .addColumn("ended_at", "integer")
    .execute();
  // A code is unique among live games; a finished game's code may be drawn again.
  await sql`create unique index games_live_code_idx on games (game_code) where status != 'finished'`.execute(db);
  await db.schema.createIndex("games_code_idx").on("games").column("game_code").execute();

  await db.schema
    .createTable("players")
    .addColumn("game_id", "integer", (col) => col.notNull().references("games.id").onDelete("cascade"))
    .addColumn("id", "integer", (col) => col.notNull())
    .addColumn("nickname", "text", (col) => col.notNull())
    .addColumn("client_id", "text", (col) => col.notNull())
    .addColumn("score", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("streak", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("correct_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("joined_at", "integer", (col) => col.notNull())
    .addPrimaryKeyConstraint("players_pk", ["game_id", "id"])
    .addUniqueConstraint("players_client_unique", ["game_id", "client_id"])
    .execute();
  await sql`create unique index players_nickname_idx on players (game_id, lower(nickname))`.execute(db);

  await db.schema
    .createTable("answers")
    .addColumn("game_id", "integer", (col) => col.notNull())
    .addColumn("player_id", "integer", (col) => col.notNull())
    .addColumn("round", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("question_id", "integer", (col) => col.notNull().references("questions.id").onDelete("cascade"))
    .addColumn("question_index", "integer", (col) => col.notNull())
    .addColumn("answer_index", "integer", (col) => col.notNull())
    .addColumn("response_ms", "integer", (col) => col.notNull())
    .addColumn("correct", "integer", (col) => col.notNull())
    .addColumn("points", "integer", (col) => col.notNull())
    .addColumn("answered_at", "integer", (col) => col.notNull())
    .addPrimaryKeyConstraint("answers_pk", ["game_id", "player_id", "round", "question_index"])
    .addForeignKeyConstraint("answers_player_fk", ["game_id", "player_id"], "players", ["game_id", "id"], (fk) => fk.onDelete("cascade"))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["answers", "players", "games", "questions", "quizzes", "users"]) {
    await db.schema.dropTable(table).execute();
  }
}
