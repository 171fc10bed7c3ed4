/**
 * The integration files about PostgreSQL itself: its schema, its locks, ownership and fencing, nodes
 * forwarding to one another, the cluster command. They run in every
 * pass: in the SQLite pass (`npm test`) each starts a PostgreSQL of its own, in the Postgres pass they
 * use the run's. CI runs them once per Node.js version at most: with QUIZ_POSTGRES_FILES_IN_POSTGRES_PASS=1,
 * vitest.config.ts leaves them out of a SQLite pass, and CI sets it on Node 24's SQLite pass (its
 * Postgres pass runs them next) and on Node 22's and 20's (docs/testing.md).
 */
export const POSTGRES_FILES = [
  "tests/integration/cluster-command.test.ts",
  "tests/integration/forwarding.test.ts",
  "tests/integration/limits-across-nodes.test.ts",
  "tests/integration/local-postgres.test.ts",
  "tests/integration/ownership-fencing.test.ts",
  "tests/integration/ownership-kill.test.ts",
  "tests/integration/ownership-servers.test.ts",
  "tests/integration/postgres-concurrency.test.ts",
  "tests/integration/postgres-config.test.ts",
  "tests/integration/postgres-schema.test.ts",
];
