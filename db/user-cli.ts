/**
 * `npm run user -- set-tier <email> <free|standard|premium>`: puts an account on a plan by hand,
 * for clubs that do not bill through Stripe. Works on DATABASE_URL, else DATABASE_PATH, like the server.
 */
import { migrateToLatest, openDatabase } from "./connection.server";
import { setTierByEmail } from "#app/models/subscription.server";
import { loadDotEnvFile, parseEnv } from "#app/env/env.server";

const USAGE = "Usage: npm run user -- set-tier <email> <free|standard|premium>";

const [command, email, tier, ...extra] = process.argv.slice(2);
if (command !== "set-tier" || !email || !tier || extra.length > 0) {
  console.error(USAGE);
  process.exit(2);
}

loadDotEnvFile();
const env = parseEnv(process.env, "tool");
const db = openDatabase(env.DATABASE_URL ?? env.DATABASE_PATH);
try {
  await migrateToLatest(db);
  const result = await setTierByEmail(db, email, tier);
  if (!result.ok) {
    console.error(result.message);
    process.exitCode = 1;
  } else {
    console.log(`${email} is now on the ${result.tier} plan (${result.aiQuizLimit} AI quizzes a day).`);
  }
} finally {
  await db.destroy();
}
