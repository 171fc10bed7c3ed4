/** `npm run db:migrate`: applies pending migrations to DATABASE_URL, else DATABASE_PATH, and exits. */
import { migrateToLatest, openDatabase } from "./connection.server";
import { loadDotEnvFile, parseEnv } from "#app/env/env.server";

loadDotEnvFile();
const env = parseEnv(process.env, "tool");
const db = openDatabase(env.DATABASE_URL ?? env.DATABASE_PATH);
try {
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date.");
} finally {
  await db.destroy();
}
