/**
 * Prepared statements compiled once and bound per call (issue 18). Kysely hands the driver each
 * query's SQL text, and better-sqlite3 compiles it again on every `prepare`; on the hot paths (an
 * answer, a join, a phase change, a score write) the text is the same every time, with only its
 * parameters changing, so a statement is kept by its text and reused. The cache is bounded: SQL
 * whose text varies with its rows (a chunk of N inserts) takes a few slots, the least recently used
 * goes first.
 */
import type { SqliteDatabase, SqliteStatement } from "kysely";
import type { SQLiteDatabase } from "./sqlite.server";

/** Statements kept; the app's distinct queries are a few hundred at most. */
export const STATEMENT_CACHE_SIZE = 500;

export interface StatementCacheStats {
  hits: number;
  misses: number;
  size: number;
}

/**
 * The database as Kysely's SQLite dialect sees it, with `prepare` served from the cache. Safe
 * because Kysely runs a statement to completion (`all` or `run`) before the next query, and never
 * streams (`iterate`) in this app; a statement still iterating would be busy for a second caller.
 */
export function withStatementCache(sqlite: SQLiteDatabase, size = STATEMENT_CACHE_SIZE): SqliteDatabase & { stats(): StatementCacheStats } {
  const statements = new Map<string, SqliteStatement>();
  let hits = 0;
  let misses = 0;
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare(sql: string): SqliteStatement {
      const cached = statements.get(sql);
      if (cached) {
        hits++;
        // Most recently used last: a Map iterates in insertion order.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      misses++;
      const statement = sqlite.prepare(sql) as unknown as SqliteStatement;
      statements.set(sql, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value!);
      return statement;
    },
    stats: () => ({ hits, misses, size: statements.size }),
  };
}
