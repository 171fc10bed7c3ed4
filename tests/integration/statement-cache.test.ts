/**
 * Prepared statements reused (issue 18): the same SQL text is compiled once and bound per call, the
 * cache stays bounded, and a reused statement returns what a fresh one would.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kysely, SqliteDialect, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { SQLite } from "#db/sqlite.server";
import { withStatementCache } from "#db/statement-cache.server";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function open(size?: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-statements-"));
  dirs.push(dir);
  const sqlite = new SQLite(path.join(dir, "cache.sqlite"));
  const cached = withStatementCache(sqlite, size);
  const db = new Kysely<{ scores: { id: number; points: number } }>({ dialect: new SqliteDialect({ database: cached }) });
  return { sqlite, cached, db };
}

describe("the statement cache", () => {
  it("compiles a query once and binds it per call, with the same results as fresh statements", async () => {
    const { sqlite, cached, db } = open();
    await sql`create table scores (id integer primary key, points integer not null)`.execute(db);
    const prepare = sqlite.prepare.bind(sqlite);
    let compiled = 0;
    sqlite.prepare = ((text: string) => {
      compiled++;
      return prepare(text);
    }) as typeof sqlite.prepare;
    for (let id = 1; id <= 50; id++)
      await db
        .insertInto("scores")
        .values({ id, points: id * 10 })
        .execute();
    for (let id = 1; id <= 50; id++) {
      const row = await db.selectFrom("scores").select("points").where("id", "=", id).executeTakeFirstOrThrow();
      expect(row.points).toBe(id * 10);
    }
    await db.updateTable("scores").set({ points: 0 }).where("id", "<", 5).execute();
    await db.updateTable("scores").set({ points: 1 }).where("id", "<", 3).execute();
    // One insert, one select and one update text, each compiled once.
    expect(compiled).toBe(3);
    expect(cached.stats()).toMatchObject({ misses: 4, hits: 99 });
    expect((await db.selectFrom("scores").select("points").where("id", "<", 6).orderBy("id").execute()).map((row) => row.points)).toEqual([1, 1, 0, 0, 50]);
    await db.destroy();
  });

  it("stays within its size, dropping the least recently used statement first", async () => {
    const { cached, db } = open(3);
    await sql`create table scores (id integer primary key, points integer not null)`.execute(db);
    const query = (n: number) =>
      db
        .selectFrom("scores")
        .select(sql<number>`${sql.lit(n)}`.as("n"))
        .execute();
    await query(1);
    await query(2);
    await query(3);
    await query(1); // 1 is now the most recent
    await query(4); // evicts 2
    expect(cached.stats().size).toBe(3);
    const before = cached.stats().misses;
    await query(1);
    await query(3);
    expect(cached.stats().misses).toBe(before);
    await query(2);
    expect(cached.stats().misses).toBe(before + 1);
    await db.destroy();
  });
});
