import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { attackNight, heavyTests } from "#tests/heavy-tests";

// `npm test` skips these files and `npm run test:heavy` runs them by name (vitest.config.ts): a name
// that no longer matches a file would drop its test from both without a word, since vitest only
// complains when a project finds no file at all.
describe("the heavy tests npm test leaves to test:heavy", () => {
  it.each([...heavyTests, attackNight])("%s is a test file", (file) => {
    expect(file).toMatch(/\.test\.ts$/);
    expect(fs.existsSync(file), `${file} is named in tests/heavy-tests.ts but is not there`).toBe(true);
  });
});
