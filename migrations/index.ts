import type { Migration, MigrationProvider } from "kysely";
import * as initial from "./2026-11-22T0000-initial";
import * as accounts from "./2026-11-22T0100-accounts";
import * as subscriptions from "./2026-11-23T0000-subscriptions";
import * as moderation from "./2026-11-23T0100-moderation";
import * as quizVersions from "./2026-11-24T0000-quiz-versions";
import * as ownership from "./2026-11-24T0100-ownership";
import * as loginLimits from "./2026-11-24T0200-login-limits";
import * as questionKinds from "./2026-11-25T0000-question-kinds";
import * as userLanguage from "./2026-11-26T0000-user-language";
import * as questionPauses from "./2026-11-27T0000-question-pauses";
import * as gameHistory from "./2026-11-27T0100-game-history";
import * as displayKeys from "./2026-11-28T0000-display-keys";
import * as teamsAndRounds from "./2026-11-29T0000-teams-and-rounds";
import * as hostSecrets from "./2026-11-30T0044-host-secrets";
import * as everySubscription from "./2026-11-30T0400-every-subscription";
import * as kindWithoutCheck from "./2026-12-01T0000-kind-without-check";
import * as postgresBaseline from "./postgres/2026-12-01T0000-postgres-baseline";
import * as gameOwners from "./2026-12-02T0000-game-owners";

/**
 * Static lists of migrations, oldest first. Kysely's FileMigrationProvider cannot import `.ts`
 * files under vitest, so each new migration is imported and listed here.
 *
 * SQLite's history, written in SQLite's SQL (some rebuild tables, as SQLite changes a CHECK no
 * other way). PostgreSQL starts from one baseline equal to where this history stands.
 */
const sqliteHistory: Record<string, Migration> = {
  "2026-11-22T0000-initial": initial,
  "2026-11-22T0100-accounts": accounts,
  "2026-11-23T0000-subscriptions": subscriptions,
  "2026-11-23T0100-moderation": moderation,
  "2026-11-24T0000-quiz-versions": quizVersions,
  "2026-11-24T0100-ownership": ownership,
  "2026-11-24T0200-login-limits": loginLimits,
  "2026-11-25T0000-question-kinds": questionKinds,
  "2026-11-26T0000-user-language": userLanguage,
  "2026-11-27T0000-question-pauses": questionPauses,
  "2026-11-27T0100-game-history": gameHistory,
  "2026-11-28T0000-display-keys": displayKeys,
  "2026-11-29T0000-teams-and-rounds": teamsAndRounds,
  "2026-11-30T0044-host-secrets": hostSecrets,
  "2026-11-30T0400-every-subscription": everySubscription,
  "2026-12-01T0000-kind-without-check": kindWithoutCheck,
};

/** PostgreSQL's start: the schema and seeded rows of sqliteHistory, in one migration. */
const postgresHistory: Record<string, Migration> = {
  "2026-12-01T0000-postgres-baseline": postgresBaseline,
};

/**
 * Every migration after the baseline, for both databases (docs/decisions/0051-postgres-second-store.md):
 * written once with kysely's schema builder and types both understand (`bigint` for ids and
 * millisecond timestamps, `text`, `double precision`), named after 2026-12-01T0000-postgres-baseline
 * so it sorts after both histories, and checked by tests/integration/postgres-schema.test.ts. A
 * step one database cannot take the same way (SQLite rebuilding a table to change a CHECK) branches
 * on dialectOf(db) from db/dialect.ts inside the migration.
 */
const sharedMigrations: Record<string, Migration> = {
  "2026-12-02T0000-game-owners": gameOwners,
};

export function migrationsFor(dialect: "sqlite" | "postgres"): Record<string, Migration> {
  return { ...(dialect === "postgres" ? postgresHistory : sqliteHistory), ...sharedMigrations };
}

export function migrationProviderFor(dialect: "sqlite" | "postgres"): MigrationProvider {
  return {
    async getMigrations() {
      return migrationsFor(dialect);
    },
  };
}

/** SQLite's migrations (the default database). */
export const migrationProvider: MigrationProvider = migrationProviderFor("sqlite");
