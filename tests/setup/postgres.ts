/**
 * Vitest's globalSetup for the Postgres pass (`QUIZ_TEST_DATABASE=postgres`, `npm run
 * test:integration:postgres`): starts one throwaway PostgreSQL for the whole run
 * (scripts/local-postgres.ts) and hands its URL to every test process through
 * QUIZ_TEST_POSTGRES_URL, so each test file creates its own databases on it instead of starting a
 * server of its own. Without the switch it does nothing and the suite runs on SQLite files.
 */
import { SHARED_POSTGRES_URL_VARIABLE, startLocalPostgres } from "../../scripts/local-postgres";
import { prepareTestTemplate, usesPostgres } from "../postgres";

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (!usesPostgres() || process.env[SHARED_POSTGRES_URL_VARIABLE]) return undefined;
  // fsync off: a throwaway server whose data need not survive this machine (scripts/local-postgres.ts).
  // Each integration test file starts several servers with a pool each, more than the default 100 connections.
  const postgres = await startLocalPostgres({ fsync: false, settings: { max_connections: "400" } });
  await prepareTestTemplate(postgres);
  process.env[SHARED_POSTGRES_URL_VARIABLE] = postgres.url;
  return () => postgres.stop();
}
