import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { pathAliases } from "./vite.aliases";

export default defineConfig({
  resolve: { alias: pathAliases },
  test: {
    include: ["tests/**/*.test.ts", "app/**/*.test.ts", "server/**/*.test.ts"],
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
  },
});
