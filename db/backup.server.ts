/**
 * Backups of the SQLite database: a consistent copy taken while the server runs, and a restore
 * that replaces the database file while the server is stopped. Used by `db/backup-cli.ts`
 * (`npm run db:backup -- FILE`, `npm run db:restore -- FILE`).
 *
 * Copying `quiz.sqlite` with `cp` is unsafe in WAL mode: the last commits live in `quiz.sqlite-wal`
 * until a checkpoint, and a file copied while a checkpoint writes into it can be torn.
 *
 * How the copy is taken: `VACUUM INTO` on a separate read-only connection, rather than
 * better-sqlite3's `db.backup()`. The online backup API copies the pages in steps (100 pages per
 * event-loop turn by default), and SQLite restarts it from the first page whenever another
 * connection writes to the source between two steps; a live game commits every 10 ms, so the copy
 * of a large database could start over and over. `VACUUM INTO` reads the whole database in one
 * read transaction: the copy is the database as it was when the statement began, WAL mode lets the
 * server keep committing meanwhile (its commits go on into the WAL; only the checkpoint waits for
 * the copy to finish), and the result is a compact single file without a WAL, free pages or
 * deleted rows. It costs the CPU to rebuild the tables and indexes, which is small for this app's
 * sizes. The connection is read-only so a backup can never write to the live database.
 */
import fs from "node:fs";
import path from "node:path";
import { SQLite, type SQLiteDatabase } from "./sqlite.server";
import { hasSqliteCode } from "./errors";

export type BackupResult =
  | { status: "ok"; targetPath: string; bytes: number; durationMs: number }
  | { status: "refused"; reason: "source-missing" | "same-file" | "target-exists" | "invalid-source"; message: string };

export type RestoreResult =
  | { status: "ok"; targetPath: string; bytes: number }
  | { status: "refused"; reason: "backup-missing" | "same-file" | "invalid-backup" | "in-use"; message: string };

export interface BackupOptions {
  /** Replace `targetPath` when it exists (default: refuse). */
  overwrite?: boolean;
}

/** The files SQLite may keep beside a database; stale ones would be replayed into a restored file. */
const SIDE_FILES = ["-wal", "-shm", "-journal"] as const;

/**
 * Copies the database at `sourcePath` to `targetPath` while the server keeps writing to it, then
 * checks the copy with `pragma integrity_check`. The copy is written beside the target under a
 * temporary name and renamed into place only when it checks out, so a failed backup never leaves
 * a half-written file under the target's name.
 */
export function backupDatabase(sourcePath: string, targetPath: string, options: BackupOptions = {}): BackupResult {
  const source = path.resolve(sourcePath);
  const target = path.resolve(targetPath);
  if (!fs.existsSync(source)) {
    return { status: "refused", reason: "source-missing", message: `There is no database at ${source}.` };
  }
  if (source === target || SIDE_FILES.some((suffix) => source + suffix === target)) {
    return { status: "refused", reason: "same-file", message: `The backup cannot be written over the database itself (${source}).` };
  }
  if (fs.existsSync(target) && !options.overwrite) {
    return { status: "refused", reason: "target-exists", message: `${target} already exists; choose another file name or allow overwriting it.` };
  }

  const started = Date.now();
  // The copy holds every account's email and password hash: readable by its owner only, whatever
  // the umask, and so is a folder made for it (docs/decisions/0044-shared-browsers.md).
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const partial = `${target}.partial-${process.pid}`;
  fs.rmSync(partial, { force: true });
  try {
    // VACUUM INTO writes into an empty file that exists: made here with the owner's bits only.
    fs.closeSync(fs.openSync(partial, "wx", 0o600));
    fs.chmodSync(partial, 0o600);
    const db = new SQLite(source, { readonly: true, fileMustExist: true });
    try {
      // The server may hold the write lock for a moment; a reader waits rather than failing.
      db.pragma("busy_timeout = 5000");
      db.prepare("VACUUM INTO ?").run(partial);
    } catch (error) {
      if (hasSqliteCode(error, "SQLITE_NOTADB", "SQLITE_CORRUPT")) {
        return { status: "refused", reason: "invalid-source", message: `${source} is not a readable SQLite database: ${messageOf(error)}` };
      }
      throw error;
    } finally {
      db.close();
    }
    const problems = integrityProblems(partial);
    if (problems) {
      return { status: "refused", reason: "invalid-source", message: `The copy of ${source} failed its integrity check: ${problems}` };
    }
    fsyncFile(partial);
    if (!options.overwrite && fs.existsSync(target)) {
      return { status: "refused", reason: "target-exists", message: `${target} appeared while the backup ran; it was left as it is.` };
    }
    fs.renameSync(partial, target);
    fsyncDirectory(path.dirname(target));
    return { status: "ok", targetPath: target, bytes: fs.statSync(target).size, durationMs: Date.now() - started };
  } finally {
    fs.rmSync(partial, { force: true });
  }
}

/**
 * Replaces the database at `targetPath` with the backup at `backupPath`. Refuses while any process
 * (the server, Litestream, another tool) has the database open, and when the backup fails its
 * integrity check; then copies the backup into place and removes the stale `-wal`, `-shm` and
 * `-journal` files beside it, which SQLite would otherwise replay into the restored file.
 */
export function restoreDatabase(backupPath: string, targetPath: string): RestoreResult {
  const backup = path.resolve(backupPath);
  const target = path.resolve(targetPath);
  if (!fs.existsSync(backup)) {
    return { status: "refused", reason: "backup-missing", message: `There is no backup at ${backup}.` };
  }
  if (backup === target) {
    return { status: "refused", reason: "same-file", message: `${backup} is the database itself; restore a copy made with the backup command.` };
  }
  if (fileHasContent(`${backup}-wal`)) {
    return {
      status: "refused",
      reason: "invalid-backup",
      message: `${backup} has a -wal file beside it: it is a live database, not a backup. Take a copy with the backup command and restore that.`,
    };
  }
  const problems = integrityProblems(backup);
  if (problems) {
    return { status: "refused", reason: "invalid-backup", message: `${backup} is not a usable backup: ${problems}` };
  }
  if (fs.existsSync(target) && isInUse(target)) {
    return {
      status: "refused",
      reason: "in-use",
      message: `${target} is in use: stop the server (and Litestream or any other program that has the database open), then restore again.`,
    };
  }

  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.restoring-${process.pid}`;
  try {
    fs.copyFileSync(backup, partial);
    fsyncFile(partial);
    for (const suffix of SIDE_FILES) fs.rmSync(target + suffix, { force: true });
    fs.renameSync(partial, target);
    fsyncDirectory(path.dirname(target));
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return { status: "ok", targetPath: target, bytes: fs.statSync(target).size };
}

/**
 * Whether another connection has the database open. A connection in WAL mode keeps a shared lock
 * on the database file for as long as it is open, even when idle, so asking for the exclusive lock
 * (exclusive locking mode plus `begin exclusive`, without waiting) fails while the server runs.
 * When it succeeds, closing this last connection checkpoints the old WAL into the old file, which
 * is about to be replaced anyway. A file that is not a database cannot be in use by SQLite.
 */
function isInUse(databasePath: string): boolean {
  const db = new SQLite(databasePath, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma("locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("COMMIT");
    return false;
  } catch (error) {
    if (hasSqliteCode(error, "SQLITE_BUSY", "SQLITE_LOCKED")) return true;
    if (hasSqliteCode(error, "SQLITE_NOTADB", "SQLITE_CORRUPT")) return false;
    throw error;
  } finally {
    db.close();
  }
}

/** null when `pragma integrity_check` finds nothing wrong, else what it (or opening the file) reports. */
function integrityProblems(databasePath: string): string | null {
  let db: SQLiteDatabase | undefined;
  try {
    db = new SQLite(databasePath, { readonly: true, fileMustExist: true });
    const rows = db.pragma("integrity_check") as { integrity_check: string }[];
    const messages = rows.map((row) => row.integrity_check);
    if (messages.length === 1 && messages[0] === "ok") return null;
    return messages.slice(0, 5).join("; ") + (messages.length > 5 ? ` (and ${messages.length - 5} more)` : "");
  } catch (error) {
    if (hasSqliteCode(error, "SQLITE_NOTADB", "SQLITE_CORRUPT", "SQLITE_CANTOPEN")) return messageOf(error);
    throw error;
  } finally {
    db?.close();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function fileHasContent(file: string): boolean {
  try {
    return fs.statSync(file).size > 0;
  } catch {
    return false;
  }
}

/** Puts the file's bytes on disk before it is renamed into place. */
function fsyncFile(file: string): void {
  const fd = fs.openSync(file, "r+");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Puts the rename itself on disk; not every platform can open a folder, which is fine there. */
function fsyncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // Windows and some file systems refuse to fsync a directory.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
