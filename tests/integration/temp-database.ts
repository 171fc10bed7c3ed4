/** A migrated SQLite file in its own temporary folder, for tests that call models and routes directly. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrateToLatest, openDatabase, type DB } from "#db/connection.server";

export interface TempDatabase {
  db: DB;
  /** Closes the database and deletes its folder. */
  remove(): Promise<void>;
}

export async function openTempDatabase(name: string): Promise<TempDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `quiz-night-${name}-`));
  const db = openDatabase(path.join(dir, `${name}.sqlite`));
  await migrateToLatest(db);
  return {
    db,
    async remove() {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
