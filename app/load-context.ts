import type { DB } from "#db/connection.server";
import type { GameHub } from "#server/game-hub";
import type { QuizGenerator } from "#app/ai/quiz-generator.server";
import type { Billing } from "#app/billing/billing.server";
import type { Logger } from "#server/logger";
import type { ServerMetrics } from "#server/metrics";
import type { RateLimits } from "#app/limits/rate-limits.server";
import type { DiskSpace } from "#app/limits/disk-space.server";
import type { CodeLookups } from "#server/code-lookups";
import type { HeavyWork } from "#server/heavy-work";

/** What server.ts hands every loader and action (see getLoadContext there). */
declare module "@remix-run/node" {
  interface AppLoadContext {
    db: DB;
    hub: GameHub;
    /** Signs the session cookie (SESSION_SECRET). */
    sessionSecret: string;
    /**
     * The client's address as Express sees it (honours TRUST_PROXY), as every per-address limit
     * counts it (app/limits/address-key.ts): an IPv4 address, or an IPv6 client's /64.
     */
    clientIp: string;
    /** Failed game-code lookups and team lists per address (server/code-lookups.ts). */
    codeLookups: CodeLookups;
    /** The free space on the database's disk, which uploads must leave (MIN_FREE_DISK_MB). */
    diskSpace: DiskSpace;
    /** Cost and abuse limits on what creates something or spends money. */
    limits: RateLimits;
    /** Null when AI generation is not configured (no OPENAI_API_KEY or OPENAI_BASE_URL). */
    quizGenerator: QuizGenerator | null;
    /** Null when billing is not configured (no STRIPE_SECRET_KEY). */
    billing: Billing | null;
    /** This request's Content-Security-Policy nonce for inline scripts. */
    cspNonce?: string;
    /** Structured logs (pino). */
    logger: Logger;
    /** Counters for GET /metrics (always there; the endpoint is on only with METRICS_TOKEN). */
    metrics: ServerMetrics;
    /** Imports, pictures and reports: a few at a time, parsing in worker threads (server/heavy-work.ts). */
    heavyWork: HeavyWork;
  }
}

export {};
