/**
 * `npm run db:backup -- FILE [--force]`: a consistent copy of DATABASE_PATH, taken while the server runs.
 * `npm run db:restore -- FILE`: replaces DATABASE_PATH with a backup; the server must be stopped.
 * DATABASE_PATH comes from the environment or `.env`, as for the server.
 * Exit codes: 0 done, 1 refused or failed (the message says why), 2 wrong usage.
 */
import fs from "node:fs";
import path from "node:path";
import { backupDatabase, restoreDatabase } from "./backup.server";
import { loadDotEnvFile, parseEnv } from "#app/env/env.server";

const USAGE = `Usage:
  npm run db:backup -- FILE [--force]   copy the database to FILE while the server runs (--force replaces an existing FILE)
  npm run db:restore -- FILE            replace the database with the backup FILE; stop the server first
The database is DATABASE_PATH (default ./data/quiz.sqlite).`;

const BACKUP_HINTS: Partial<Record<string, string>> = {
  "target-exists": " (--force replaces it)",
  "source-missing": " Set DATABASE_PATH to the server's database.",
};

function usage(problem?: string): never {
  if (problem) console.error(problem);
  console.error(USAGE);
  process.exit(2);
}

const [command, ...rest] = process.argv.slice(2);
if (rest.includes("--help") || rest.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
const force = rest.includes("--force");
const files = rest.filter((arg) => arg !== "--force");
const unknown = files.find((arg) => arg.startsWith("-"));
if (command !== "backup" && command !== "restore") usage(command ? `Unknown command: ${command}` : undefined);
if (unknown) usage(`Unknown option: ${unknown}`);
if (files.length !== 1) usage(files.length === 0 ? "Name the backup file." : "Name one backup file.");
if (force && command === "restore") usage("--force is for the backup command only.");

let databasePath: string;
try {
  loadDotEnvFile(); // the server reads `.env` from the folder it starts in; npm runs this from the same one
  const env = parseEnv(process.env, "tool");
  if (env.DATABASE_URL) {
    console.error(
      `DATABASE_URL is set: the data is in PostgreSQL, which these commands do not copy (they copy SQLite's file). Use PostgreSQL's own tools: pg_dump --format=custom --file=FILE "$DATABASE_URL" to back up, pg_restore --dbname="$DATABASE_URL" FILE to restore (docs/configuration.md).`,
    );
    process.exit(1);
  }
  databasePath = env.DATABASE_PATH;
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
// npm runs scripts from the project's folder; a relative FILE means the folder the command was typed in.
const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), files[0]);

try {
  if (command === "backup") {
    const result = backupDatabase(databasePath, file, { overwrite: force });
    if (result.status === "refused") {
      console.error(result.message + (BACKUP_HINTS[result.reason] ?? ""));
      process.exit(1);
    }
    console.log(`Backed up ${path.resolve(databasePath)} to ${result.targetPath} (${kib(result.bytes)}, ${result.durationMs} ms); integrity check ok.`);
    const secret = path.join(path.dirname(path.resolve(databasePath)), "session-secret");
    if (!process.env.SESSION_SECRET && fs.existsSync(secret)) {
      console.log(`Keep ${secret} too (it signs the sign-in cookies); it is not in the backup.`);
    }
  } else {
    const result = restoreDatabase(file, databasePath);
    if (result.status === "refused") {
      console.error(result.message);
      process.exit(1);
    }
    console.log(`Restored ${file} to ${result.targetPath} (${kib(result.bytes)}). Start the server again.`);
  }
} catch (error) {
  console.error(`The ${command} failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}
