/** db/errors.ts: what an error of either driver means, told from SQLite's result codes and PostgreSQL's SQLSTATE. */
import { describe, expect, it } from "vitest";
import { hasSqliteCode, isConstraintViolation, isRetryableConflict, isUniqueViolation } from "#db/errors";

/** An error as each driver raises it: better-sqlite3's SqliteError and pg's DatabaseError both carry `code`. */
const withCode = (code: string) => Object.assign(new Error(code), { code });

describe("database errors", () => {
  it("tells a unique violation in either database", () => {
    expect(isUniqueViolation(withCode("SQLITE_CONSTRAINT_UNIQUE"))).toBe(true);
    expect(isUniqueViolation(withCode("23505"))).toBe(true);
    expect(isUniqueViolation(withCode("SQLITE_CONSTRAINT_FOREIGNKEY"))).toBe(false);
    expect(isUniqueViolation(withCode("23503"))).toBe(false);
  });

  it("counts every integrity rule as a constraint violation, and nothing else", () => {
    for (const code of ["SQLITE_CONSTRAINT", "SQLITE_CONSTRAINT_CHECK", "23505", "23503", "23502", "23514"]) {
      expect(isConstraintViolation(withCode(code)), code).toBe(true);
    }
    for (const code of ["SQLITE_BUSY", "SQLITE_FULL", "40001", "57P01", "08006", "ECONNREFUSED"]) {
      expect(isConstraintViolation(withCode(code)), code).toBe(false);
    }
    expect(isConstraintViolation(new Error("no code"))).toBe(false);
    expect(isConstraintViolation("23505")).toBe(false);
  });

  it("tells a transaction worth running again: a serialization failure, a deadlock, a busy SQLite", () => {
    for (const code of ["40001", "40P01", "SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_LOCKED"]) expect(isRetryableConflict(withCode(code)), code).toBe(true);
    for (const code of ["23505", "SQLITE_CONSTRAINT", "57P01"]) expect(isRetryableConflict(withCode(code)), code).toBe(false);
  });

  it("matches SQLite's extended codes by their primary one, and never PostgreSQL's", () => {
    expect(hasSqliteCode(withCode("SQLITE_BUSY_SNAPSHOT"), "SQLITE_BUSY")).toBe(true);
    expect(hasSqliteCode(withCode("SQLITE_BUSYNESS"), "SQLITE_BUSY")).toBe(false);
    expect(hasSqliteCode(withCode("23505"), "SQLITE_CONSTRAINT")).toBe(false);
  });
});
