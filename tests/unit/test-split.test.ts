import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { attackNight, heavyTests } from "#tests/heavy-tests";
import { POSTGRES_FILES } from "#tests/integration/postgres-files";

// `npm test` skips these files and `npm run test:heavy` runs them by name (vitest.config.ts): a name
// that no longer matches a file would drop its test from both without a word, since vitest only
// complains when a project finds no file at all.
describe("the heavy tests npm test leaves to test:heavy", () => {
  it.each([...heavyTests, attackNight])("%s is a test file", (file) => {
    expect(file).toMatch(/\.test\.ts$/);
    expect(fs.existsSync(file), `${file} is named in tests/heavy-tests.ts but is not there`).toBe(true);
  });
});

// CI's SQLite passes leave these out (vitest.config.ts): a file about PostgreSQL missing from the list
// would run there needlessly; a name that no longer matches would drop nothing and say nothing.
describe("the files about PostgreSQL that CI runs in its Postgres pass alone", () => {
  it.each(POSTGRES_FILES)("%s is a test file", (file) => {
    expect(fs.existsSync(file), `${file} is named in tests/integration/postgres-files.ts but is not there`).toBe(true);
  });

  it("names every integration file that starts a PostgreSQL of its own in the SQLite pass", () => {
    const starting = fs
      .readdirSync("tests/integration")
      .filter((name) => name.endsWith(".test.ts"))
      .map((name) => `tests/integration/${name}`)
      .filter((file) => !heavyTests.includes(file) && /\b(testPostgres|describeWithPostgres)\(/.test(fs.readFileSync(file, "utf8")));
    expect(starting.sort()).toEqual([...POSTGRES_FILES].sort());
  });
});
