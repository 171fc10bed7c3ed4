import type { DB } from "#db/connection.server";
import type { GameHub } from "#server/game-hub";
import type { QuizGenerator } from "#app/ai/quiz-generator.server";
import type { Billing } from "#app/billing/billing.server";
import type { Logger } from "#server/logger";
import type { ServerMetrics } from "#server/metrics";
import type { RateLimits } from "#app/utils/rate-limits.server";
import type { HeavyWork } from "#server/heavy-work";

/** What server.ts hands every loader and action (see getLoadContext there). */
declare module "@remix-run/node" {
  interface AppLoadContext {
    db: DB;
    hub: GameHub;
    /** Signs the session cookie (SESSION_SECRET). */
    sessionSecret: string;
    /** The client's address as Express sees it (honours TRUST_PROXY), for rate limits. */
    clientIp: string;
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
