/** The tests about PostgreSQL that run in both passes of the integration suite (docs/testing.md). */
import { describe, it } from "vitest";
import { SHARED_POSTGRES_URL_VARIABLE, findPostgresBinaries } from "../../scripts/local-postgres";

/**
 * `describe` for the tests about PostgreSQL that run in the SQLite pass too, on a server of their
 * own: without PostgreSQL's programs on the machine they are skipped, saying so, as the proxy tests
 * are without nginx; with REQUIRE_POSTGRES_TESTS=1 (CI) they fail instead.
 */
export function describeWithPostgres(title: string, body: () => void): void {
  let missing: string | null = null;
  if (!process.env[SHARED_POSTGRES_URL_VARIABLE]) {
    try {
      findPostgresBinaries();
    } catch (error) {
      missing = error instanceof Error ? error.message : String(error);
    }
  }
  if (missing === null) {
    describe(title, body);
  } else if (process.env.REQUIRE_POSTGRES_TESTS === "1") {
    describe(title, () => {
      it("has PostgreSQL installed (REQUIRE_POSTGRES_TESTS=1)", () => {
        throw new Error(missing);
      });
    });
  } else {
    const skipped = `${title}: SKIPPED, PostgreSQL is not installed (apt-get install postgresql; REQUIRE_POSTGRES_TESTS=1 makes this a failure)`;
    console.warn(skipped);
    describe.skip(skipped, body);
  }
}
