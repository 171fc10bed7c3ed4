import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { attackNight, heavyTests } from "./tests/heavy-tests";
import { POSTGRES_FILES } from "./tests/integration/postgres-files";
import { SQLITE_ONLY_FILES } from "./tests/integration/sqlite-only";
import { pathAliases } from "./vite.aliases";

export default defineConfig({
  resolve: { alias: pathAliases },
  test: {
    environment: "node",
    setupFiles: ["./tests/setup/fail-on-console-error.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores: one, on a 2-core machine like CI's. Most
    // integration tests wait on sockets, timers and child processes, so two files at a time finish
    // the suite in about three quarters of the time there (docs/testing.md, "CI and parallelism").
    maxWorkers: Math.max(2, availableParallelism() - 1),
    minWorkers: 1,
    // `vitest run --project main`, then `npm run test:integration`, are npm test's share; a path
    // filter (`vitest run tests/unit`) picks from every project.
    projects: [
      {
        extends: true,
        test: {
          name: "main",
          include: ["tests/**/*.test.ts", "app/**/*.test.ts", "server/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "tests/integration/**", ...heavyTests, attackNight],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          // `npm run test:integration` runs these with --no-isolate: each file starts its own servers on
          // fresh databases, and loading the server's modules again for every file was 40 % of this
          // project's time (docs/decisions/0049-ten-minute-test-loop.md, "Third pass"). Vitest 3 takes
          // the forks pool's isolation from the root config only, so it is the script's flag, not set here.
          // The Postgres pass leaves out the files about SQLite itself (tests/integration/sqlite-only.ts).
          exclude: [
            ...configDefaults.exclude,
            ...heavyTests,
            attackNight,
            ...(process.env.QUIZ_TEST_DATABASE === "postgres" ? Object.keys(SQLITE_ONLY_FILES) : []),
            // CI's SQLite passes leave the files about PostgreSQL to its Postgres pass (tests/integration/postgres-files.ts).
            ...(process.env.QUIZ_TEST_DATABASE !== "postgres" && process.env.QUIZ_POSTGRES_FILES_IN_POSTGRES_PASS === "1" ? POSTGRES_FILES : []),
          ],
          // With QUIZ_TEST_DATABASE=postgres, one throwaway PostgreSQL for the run (docs/testing.md).
          globalSetup: ["./tests/setup/postgres.ts"],
        },
      },
      // The soak and storm tests may run on PostgreSQL too (QUIZ_TEST_DATABASE=postgres); CI runs them on SQLite.
      { extends: true, test: { name: "heavy", include: heavyTests, globalSetup: ["./tests/setup/postgres.ts"] } },
      { extends: true, test: { name: "attacks", include: [attackNight] } },
    ],
  },
});
