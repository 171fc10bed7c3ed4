/** What a better-sqlite3 error means for the caller; the driver's codes stay in this folder. */

function codeOf(error: unknown): string {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
}

/**
 * A write the database refuses for what it is (a unique, foreign-key, check or not-null rule):
 * trying it again changes nothing. Busy, full-disk and I/O errors are not: they may pass later.
 */
export function isConstraintViolation(error: unknown): boolean {
  return codeOf(error).startsWith("SQLITE_CONSTRAINT");
}

export function isUniqueViolation(error: unknown): boolean {
  return codeOf(error) === "SQLITE_CONSTRAINT_UNIQUE";
}
