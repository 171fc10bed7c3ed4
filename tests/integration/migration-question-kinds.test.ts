/**
 * Upgrading a database that already holds quizzes, games and answers to the question kinds: the
 * questions table is rebuilt (its old CHECK allowed answers 0-3 only) and nothing that points at a
 * question may lose a row.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator, sql } from "kysely";
import { afterAll, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "#db/connection.server";
import { migrationProvider } from "#migrations/index";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-upgrade-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it("keeps every question, game list and answer, and makes every existing question multiple choice", async () => {
  const db = openDatabase(path.join(dir, "upgrade.sqlite"));
  const before = await new Migrator({ db, provider: migrationProvider }).migrateTo("2026-11-24T0200-login-limits");
  expect(before.error).toBeUndefined();
  const now = Date.now();
  await sql`insert into quizzes (id, title, time_limit, is_public, created_at) values (1, 'Old quiz', 20, 1, ${now})`.execute(db);
  await sql`insert into questions (id, quiz_id, text, answers, correct_answer_index, "order") values
    (1, 1, 'Q1', '["a","b","c","d"]', 3, 0), (2, 1, 'Q2', '["a","b","c","d"]', 0, 1)`.execute(db);
  await sql`insert into games (id, quiz_id, game_code, status, created_at) values (1, 1, 'ABC234', 'active', ${now})`.execute(db);
  await sql`insert into game_questions (game_id, position, question_id) values (1, 0, 1), (1, 1, 2)`.execute(db);
  await sql`insert into players (game_id, id, nickname, client_id, joined_at) values (1, 1, 'Ann', 'c1', ${now})`.execute(db);
  await sql`insert into answers (game_id, player_id, round, question_id, question_index, answer_index, response_ms, correct, points, answered_at)
    values (1, 1, 0, 1, 0, 3, 1200, 1, 970, ${now})`.execute(db);

  await migrateToLatest(db);

  const questions = await db.selectFrom("questions").selectAll().orderBy("id").execute();
  expect(questions.map((q) => [q.id, q.kind, q.correct_answer_index, q.points, q.time_limit])).toEqual([
    [1, "choice", 3, "standard", null],
    [2, "choice", 0, "standard", null],
  ]);
  expect(await db.selectFrom("game_questions").select(["position", "question_id"]).orderBy("position").execute()).toEqual([
    { position: 0, question_id: 1 },
    { position: 1, question_id: 2 },
  ]);
  expect(await db.selectFrom("answers").select(["question_id", "points", "answer_value"]).execute()).toEqual([
    { question_id: 1, points: 970, answer_value: null },
  ]);
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
