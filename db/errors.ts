/** What a better-sqlite3 error means for the caller; the driver's codes stay in this folder. */

/**
 * Whether the error carries one of SQLite's result codes, a primary code (`SQLITE_BUSY`) matching
 * its extended ones too (`SQLITE_BUSY_SNAPSHOT`).
 */
export function hasSqliteCode(error: unknown, ...codes: string[]): boolean {
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  return typeof code === "string" && codes.some((wanted) => code === wanted || code.startsWith(`${wanted}_`));
}

/**
 * A write the database refuses for what it is (a unique, foreign-key, check or not-null rule):
 * trying it again changes nothing. Busy, full-disk and I/O errors are not: they may pass later.
 */
export function isConstraintViolation(error: unknown): boolean {
  return hasSqliteCode(error, "SQLITE_CONSTRAINT");
}

export function isUniqueViolation(error: unknown): boolean {
  return hasSqliteCode(error, "SQLITE_CONSTRAINT_UNIQUE");
}
