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
  },
});
