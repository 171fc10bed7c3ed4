import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import { attackNight, heavyTests } from "./tests/heavy-tests";
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
    // `vitest run --project main` is npm test's share; a path filter (`vitest run tests/unit`) picks
    // from every project.
    projects: [
      {
        extends: true,
        test: {
          name: "main",
          include: ["tests/**/*.test.ts", "app/**/*.test.ts", "server/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...heavyTests, attackNight],
        },
      },
      { extends: true, test: { name: "heavy", include: heavyTests } },
      { extends: true, test: { name: "attacks", include: [attackNight] } },
    ],
  },
});
