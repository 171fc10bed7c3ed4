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
import * as gameOwners from "./2026-12-02T0000-game-owners";

/**
 * Static list of migrations, oldest first. Kysely's FileMigrationProvider cannot import `.ts`
 * files under vitest, so each new migration is imported and listed here.
 */
const migrations: Record<string, Migration> = {
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
  "2026-12-02T0000-game-owners": gameOwners,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
