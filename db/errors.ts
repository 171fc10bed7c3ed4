/**
 * What a database error means for the caller, for SQLite (better-sqlite3's `SQLITE_*` result codes)
 * and PostgreSQL (`pg`'s five-character SQLSTATE codes) alike; the drivers' codes stay in this folder.
 */

function codeOf(error: unknown): string | undefined {
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  return typeof code === "string" ? code : undefined;
}

/**
 * Whether the error carries one of SQLite's result codes, a primary code (`SQLITE_BUSY`) matching
 * its extended ones too (`SQLITE_BUSY_SNAPSHOT`).
 */
export function hasSqliteCode(error: unknown, ...codes: string[]): boolean {
  const code = codeOf(error);
  return code !== undefined && codes.some((wanted) => code === wanted || code.startsWith(`${wanted}_`));
}

/** PostgreSQL's SQLSTATE of the error, when it came from the server (`23505`); undefined otherwise. */
function sqlState(error: unknown): string | undefined {
  const code = codeOf(error);
  return code !== undefined && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** SQLSTATE codes (PostgreSQL's documentation, appendix "PostgreSQL Error Codes"). */
const UNIQUE_VIOLATION = "23505";
const INTEGRITY_CONSTRAINT_CLASS = "23";
const SERIALIZATION_FAILURE = "40001";
const DEADLOCK_DETECTED = "40P01";

/**
 * A write the database refuses for what it is (a unique, foreign-key, check or not-null rule):
 * trying it again changes nothing. Busy, full-disk and I/O errors are not: they may pass later.
 */
export function isConstraintViolation(error: unknown): boolean {
  return hasSqliteCode(error, "SQLITE_CONSTRAINT") || sqlState(error)?.startsWith(INTEGRITY_CONSTRAINT_CLASS) === true;
}

/** A row that would repeat a unique key (a unique index or constraint; PostgreSQL counts a primary key too). */
export function isUniqueViolation(error: unknown): boolean {
  return hasSqliteCode(error, "SQLITE_CONSTRAINT_UNIQUE") || sqlState(error) === UNIQUE_VIOLATION;
}

/**
 * A transaction the database gave up on because of another one running at the same time (a
 * serialization failure or a deadlock in PostgreSQL; SQLite's busy or locked database): running the
 * whole transaction again may succeed.
 */
export function isRetryableConflict(error: unknown): boolean {
  const state = sqlState(error);
  return state === SERIALIZATION_FAILURE || state === DEADLOCK_DETECTED || hasSqliteCode(error, "SQLITE_BUSY", "SQLITE_LOCKED");
}
