/**
 * PostgreSQL for tests: the switch between the SQLite and the Postgres pass of the integration suite
 * (QUIZ_TEST_DATABASE=postgres, docs/testing.md), and fresh databases on the run's shared server
 * (tests/setup/postgres.ts) or, for a test that needs Postgres in either pass, on one of its own.
 */
import {
  SHARED_POSTGRES_URL_VARIABLE,
  connectToLocalPostgres,
  startLocalPostgres,
  type LocalPostgres,
  type LocalPostgresDatabases,
} from "../scripts/local-postgres";

/** The database the Postgres pass copies for every test database (created by the globalSetup). */
export const TEST_TEMPLATE_DATABASE = "quiz_template";

/** Whether this run's tests open Postgres databases instead of SQLite files. */
export function usesPostgres(): boolean {
  return process.env.QUIZ_TEST_DATABASE === "postgres";
}

/** Creates the template database every test database copies. */
export async function prepareTestTemplate(postgres: LocalPostgresDatabases): Promise<void> {
  await postgres.createDatabase(TEST_TEMPLATE_DATABASE);
}

let counter = 0;

/** A database name no other test process picks: the label, this process and a counter. */
export function uniqueDatabaseName(label: string): string {
  counter += 1;
  const suffix = `_${process.pid}_${counter}`;
  const cleaned = label.toLowerCase().replace(/[^a-z0-9_]+/g, "_");
  return `t_${cleaned}`.slice(0, 63 - suffix.length) + suffix;
}

export interface TestPostgres extends LocalPostgresDatabases {
  /** A fresh database copied from the migrated template; returns its URL. */
  freshDatabase(label: string): Promise<string>;
  /** Closes the connection to the shared server, or stops the server this test started. */
  release(): Promise<void>;
}

/**
 * The run's shared server when there is one (the Postgres pass), else a server of this test's own
 * with the template prepared the same way, for tests that exercise Postgres in the SQLite pass too.
 */
export async function testPostgres(): Promise<TestPostgres> {
  const sharedUrl = process.env[SHARED_POSTGRES_URL_VARIABLE];
  let own: LocalPostgres | undefined;
  let databases: LocalPostgresDatabases;
  if (sharedUrl) {
    databases = connectToLocalPostgres(sharedUrl);
  } else {
    own = await startLocalPostgres({ fsync: false, settings: { max_connections: "400" } });
    await prepareTestTemplate(own);
    databases = own;
  }
  return {
    ...databases,
    freshDatabase: (label) => databases.createDatabase(uniqueDatabaseName(label), { template: TEST_TEMPLATE_DATABASE }),
    release: () => (own ? own.stop() : databases.close()),
  };
}
