import type { Kysely } from "kysely";

/**
 * Teams and a night of rounds (issue 17; docs/decisions/0033-team-scoring.md and
 * docs/decisions/0034-a-night-of-rounds.md):
 * - `games.evening`: JSON of what a game keeps beyond its phase (team mode, the teams and their
 *   scores, a night's finished rounds' standings, the break's countdown), at most a few kilobytes;
 * - `players.team_id` and `players.team_points` (what the player added to its team's score);
 * - `game_rounds`: the quizzes a night chains, in order, with each round's title; a single game has none;
 * - `game_questions.round`: which round of a night a question belongs to (0 for a single game).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("games").addColumn("evening", "text").execute();
  await db.schema.alterTable("players").addColumn("team_id", "integer").execute();
  await db.schema
    .alterTable("players")
    .addColumn("team_points", "real", (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("game_questions")
    .addColumn("round", "integer", (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable("game_rounds")
    .addColumn("game_id", "integer", (column) => column.notNull().references("games.id").onDelete("cascade"))
    .addColumn("position", "integer", (column) => column.notNull())
    .addColumn("quiz_id", "integer", (column) => column.notNull().references("quizzes.id"))
    .addColumn("title", "text", (column) => column.notNull())
    .addColumn("time_limit", "integer", (column) => column.notNull())
    .addPrimaryKeyConstraint("game_rounds_pk", ["game_id", "position"])
    .execute();
  await db.schema.createIndex("game_rounds_quiz_idx").on("game_rounds").column("quiz_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("game_rounds").execute();
  await db.schema.alterTable("game_questions").dropColumn("round").execute();
  await db.schema.alterTable("players").dropColumn("team_points").execute();
  await db.schema.alterTable("players").dropColumn("team_id").execute();
  await db.schema.alterTable("games").dropColumn("evening").execute();
}
