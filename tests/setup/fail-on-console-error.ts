import { afterEach, beforeEach, vi } from "vitest";

/** A test that logs an unexpected console.error fails; tests that expect one spy on it themselves. */
let errors: unknown[][] = [];

beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (errors.length > 0) {
    const shown = errors.map((args) => args.map(String).join(" ")).join("\n");
    throw new Error(`console.error was called:\n${shown}`);
  }
});
