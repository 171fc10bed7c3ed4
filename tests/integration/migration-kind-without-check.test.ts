/**
 * The questions table loses its CHECK on kind (docs/decisions/0045-question-kind-registry.md): a
 * kind the database has never heard of is stored, every question, game list and answer keeps its
 * row, and every other rule of the table still holds.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator, sql } from "kysely";
import { afterAll, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "#db/connection.server";
import { migrationProvider } from "#migrations/index";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-kind-check-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const insertQuestion = (id: number, kind: string, extra: { correct?: number; points?: string; timeLimit?: number } = {}) =>
  sql`insert into questions (id, quiz_id, text, answers, correct_answer_index, "order", kind, points, time_limit)
    values (${id}, 1, ${`Q${id}`}, '["a","b"]', ${extra.correct ?? 0}, ${id}, ${kind}, ${extra.points ?? "standard"}, ${extra.timeLimit ?? null})`;

it("stores a kind the registry adds later, and keeps every row, rule and index", async () => {
  const db = openDatabase(path.join(dir, "kinds.sqlite"));
  const before = await new Migrator({ db, provider: migrationProvider }).migrateTo("2026-11-30T0400-every-subscription");
  expect(before.error).toBeUndefined();
  const now = Date.now();
  await sql`insert into quizzes (id, title, time_limit, is_public, created_at) values (1, 'Quiz', 20, 1, ${now})`.execute(db);
  await insertQuestion(1, "poll", { correct: -1, points: "none", timeLimit: 30 }).execute(db);
  await insertQuestion(2, "choice", { correct: 1 }).execute(db);
  await sql`update questions set accepted_answers = '["x"]', correct_indexes = '[0]', correct_number = 2.5, image_id = 'img', retired_at = 7 where id = 2`.execute(
    db,
  );
  // Until now the database refused a kind it did not list.
  await expect(insertQuestion(3, "ranking").execute(db)).rejects.toThrow(/CHECK constraint failed/);
  await sql`insert into games (id, quiz_id, game_code, status, created_at) values (1, 1, 'ABC234', 'active', ${now})`.execute(db);
  await sql`insert into game_questions (game_id, position, question_id) values (1, 0, 1), (1, 1, 2)`.execute(db);
  await sql`insert into players (game_id, id, nickname, client_id, joined_at) values (1, 1, 'Ann', 'c1', ${now})`.execute(db);
  await sql`insert into answers (game_id, player_id, round, question_id, question_index, answer_index, response_ms, correct, points, answered_at)
    values (1, 1, 0, 2, 1, 1, 1200, 1, 970, ${now})`.execute(db);
  const rowsBefore = await db.selectFrom("questions").selectAll().orderBy("id").execute();

  await migrateToLatest(db);

  expect(await db.selectFrom("questions").selectAll().orderBy("id").execute()).toEqual(rowsBefore);
  await insertQuestion(3, "ranking").execute(db);
  expect((await db.selectFrom("questions").select("kind").where("id", "=", 3).executeTakeFirstOrThrow()).kind).toBe("ranking");
  // A question without a kind is still multiple choice.
  await sql`insert into questions (id, quiz_id, text, answers, correct_answer_index, "order") values (4, 1, 'Q4', '["a","b"]', 0, 4)`.execute(db);
  expect((await db.selectFrom("questions").select("kind").where("id", "=", 4).executeTakeFirstOrThrow()).kind).toBe("choice");
  // The table's other rules hold.
  await expect(insertQuestion(5, "choice", { correct: 6 }).execute(db)).rejects.toThrow(/CHECK constraint failed/);
  await expect(insertQuestion(5, "choice", { points: "triple" }).execute(db)).rejects.toThrow(/CHECK constraint failed/);
  await expect(insertQuestion(5, "choice", { timeLimit: 1 }).execute(db)).rejects.toThrow(/CHECK constraint failed/);
  await expect(
    sql`insert into questions (id, quiz_id, text, answers, correct_answer_index, "order") values (5, 99, 'Q', '[]', 0, 5)`.execute(db),
  ).rejects.toThrow(/FOREIGN KEY constraint failed/);
  const indexes = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'questions' and sql is not null`.execute(db);
  expect(indexes.rows.map((row) => row.name)).toEqual(["questions_quiz_order_idx"]);
  expect(await db.selectFrom("game_questions").select(["position", "question_id"]).orderBy("position").execute()).toEqual([
    { position: 0, question_id: 1 },
    { position: 1, question_id: 2 },
  ]);
  expect(await db.selectFrom("answers").select(["question_id", "points"]).execute()).toEqual([{ question_id: 2, points: 970 }]);
  expect((await sql`pragma foreign_key_check`.execute(db)).rows).toEqual([]);
  expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)).rows[0].foreign_keys).toBe(1);
  // The questions still cascade with their quiz, through the rebuilt table's foreign key.
  await db.deleteFrom("answers").execute();
  await db.deleteFrom("game_questions").execute();
  await db.deleteFrom("games").execute();
  await db.deleteFrom("quizzes").execute();
  expect(await db.selectFrom("questions").selectAll().execute()).toEqual([]);
  await db.destroy();
});
