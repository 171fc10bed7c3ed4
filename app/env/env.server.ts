import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import proxyaddr from "proxy-addr";
import { z } from "zod";
import type { AiConfig } from "#app/ai/quiz-generator.server";
import type { BillingConfig } from "#app/billing/billing.server";

const BooleanFlag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off"], {
    error: "must be one of true/false, 1/0, yes/no, on/off",
  })
  .transform((value) => ["1", "true", "yes", "on"].includes(value));

const OriginList = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.url({ error: "must be a comma-separated list of origins such as https://quiz.example.org" })));

const WholeNumber = z.coerce.number({ error: "must be a whole number" }).int({ error: "must be a whole number" });
/** A limit per window; 0 turns it off. */
const Limit = WholeNumber.min(0, { error: "must be 0 (off) or more" });

/**
 * Which proxies in front may tell the client's address (Express's `trust proxy`): off, a number of
 * hops (`1`: the one proxy in front; `true` means that too), or addresses and ranges of the
 * proxies (`127.0.0.1`, `10.0.0.0/8`, `loopback`, `linklocal`, `uniquelocal`). Trusting every hop would let a
 * client pick its own address by writing X-Forwarded-For.
 */
export type TrustProxy = false | number | string[];

const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

const TrustProxySetting = z.string().transform((value, context): TrustProxy => {
  const text = value.trim().toLowerCase();
  if (["false", "no", "off", "0"].includes(text)) return false;
  if (["true", "yes", "on"].includes(text)) return 1;
  if (/^\d+$/.test(text)) return Number(text);
  // proxy-addr knows its range names in lower case only; `Loopback` means the same.
  const addresses = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => (PROXY_RANGE_NAMES.has(entry.toLowerCase()) ? entry.toLowerCase() : entry));
  try {
    proxyaddr.compile(addresses);
    return addresses;
  } catch (error) {
    context.addIssue({
      code: "custom",
      message: `must be false, a number of proxy hops, or proxy addresses such as 127.0.0.1,10.0.0.0/8 (${error instanceof Error ? error.message : String(error)})`,
    });
    return z.NEVER;
  }
});

/** A current model with structured output that answers a quiz in seconds; any such model works. */
export const DEFAULT_AI_MODEL = "gpt-5.4-mini";

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number({ error: "must be a port number" }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_PATH: z.string().min(1).default("./data/quiz.sqlite"),
  // PostgreSQL instead of the SQLite file (docs/configuration.md, docs/decisions/0051-postgres-second-store.md).
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/[^\s]+$/i, { error: "must be a PostgreSQL URL such as postgres://quiz:secret@db.example:5432/quiz" })
    .optional(),
  DATABASE_POOL_SIZE: WholeNumber.min(2, { error: "must be 2 or more (the sweep holds one connection while it runs)" }).max(1000).default(10),
  // This node's name in /metrics and the logs; the machine's host name when unset.
  NODE_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, { error: "must be 1 to 64 letters, digits, dots, dashes or underscores" })
    .optional(),
  // In a cluster: where the other nodes reach this one (host:port); this machine's host name and PORT when unset.
  NODE_ADDRESS: z
    .string()
    .regex(/^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/, { error: "must be host:port" })
    .optional(),
  // In a cluster: how often a node renews its heartbeat, and how old one may be before its games are
  // claimed (docs/decisions/0052-game-ownership-and-fencing.md); the lease at least three heartbeats.
  // At most 5 s: the heartbeat's connection must never sit idle for the 10 s after which pg's pool
  // closes it, since a new session would no longer hold the node's lock.
  NODE_HEARTBEAT_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int().min(50).max(5_000).optional(),
  NODE_LEASE_MS: z.coerce.number({ error: "must be a number of milliseconds" }).int().min(150).max(300_000).optional(),
  // How long a node drains after SIGTERM before it saves and closes (server/drain.ts); by default 20 in a cluster, 0 alone.
  DRAIN_SECONDS: z.coerce.number({ error: "must be a number of seconds" }).int().min(0).max(600).optional(),
  SESSION_SECRET: z.string().min(32, { error: "must be at least 32 characters" }).optional(),
  SEED_DEMO: BooleanFlag.default(true),
  ALLOWED_ORIGINS: OriginList.default([]),
  TRUST_PROXY: TrustProxySetting.default(false),
  FIREBASE_API_KEY: z.string().min(1).optional(),
  FIREBASE_AUTH_DOMAIN: z.string().min(1).optional(),
  FIREBASE_PROJECT_ID: z.string().min(1).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url({ protocol: /^https?$/, error: "must be the API root of an OpenAI-compatible server, such as http://127.0.0.1:11434/v1" }).optional(),
  OPENAI_MODEL: z.string().min(1).default(DEFAULT_AI_MODEL),
  OPENAI_TIMEOUT_SECONDS: z.coerce.number({ error: "must be a number of seconds" }).int().min(5).max(600).default(60),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_PRICE_STANDARD: z.string().min(1).optional(),
  STRIPE_PRICE_PREMIUM: z.string().min(1).optional(),
  STRIPE_API_BASE: z.url({ protocol: /^https?$/, error: "must be a URL such as http://127.0.0.1:12111" }).optional(),
  // The limits' defaults live in one place, server/server-limits.ts's DEFAULT_LIMITS; unset here means "the default".
  JOIN_LIMIT_PER_IP: WholeNumber.min(1).optional(),
  JOIN_LIMIT_PER_IP_ALL_GAMES: WholeNumber.min(1).optional(),
  PLAYERS_PER_IP_PER_GAME: WholeNumber.min(1).optional(),
  JOIN_LIMIT_PER_GAME: WholeNumber.min(1).optional(),
  GUEST_LIMIT_PER_IP: Limit.optional(),
  REGISTER_LIMIT_PER_IP: Limit.optional(),
  AI_LIMIT_PER_IP: Limit.optional(),
  AI_DAILY_LIMIT: Limit.optional(),
  QUIZ_LIMIT_PER_IP: Limit.optional(),
  QUESTION_LIMIT_PER_IP: Limit.optional(),
  GAME_LIMIT_PER_IP: Limit.optional(),
  IMAGE_LIMIT_PER_IP: Limit.optional(),
  IMAGE_MB_PER_IP_PER_DAY: Limit.optional(),
  IMAGE_MB_PER_DAY: Limit.optional(),
  MIN_FREE_DISK_MB: Limit.optional(),
  SOCKETS_PER_IP: WholeNumber.min(1).optional(),
  CODE_LOOKUP_FAILURES_PER_IP: Limit.optional(),
  TEAMS_LIMIT_PER_IP: Limit.optional(),
  // Every per-address limit counts an IPv6 client by its network of this many leading bits.
  IPV6_PREFIX_LENGTH: WholeNumber.min(16).max(128).default(64),
  // Heavy work (imports, pictures, reports): defaults in server/heavy-work.ts, quiz-spreadsheet.server.ts, image-processing.server.ts.
  HEAVY_WORK_CONCURRENCY: WholeNumber.min(1).max(64).optional(),
  HEAVY_WORK_QUEUE: WholeNumber.min(0).max(10_000).optional(),
  HEAVY_WORK_PER_IP: WholeNumber.min(1).max(10_000).optional(),
  HEAVY_WORK_MEMORY_MB: WholeNumber.min(64).max(16_384).optional(),
  SPREADSHEET_MAX_ROWS: WholeNumber.min(10).max(1_000_000).optional(),
  SPREADSHEET_MAX_UNPACKED_MB: WholeNumber.min(1).max(4096).optional(),
  IMAGE_MAX_PIXELS: WholeNumber.min(1_000_000).max(1_000_000_000).optional(),
  LOBBY_IDLE_MINUTES: WholeNumber.min(1)
    .max(7 * 24 * 60)
    .optional(),
  SQLITE_SYNCHRONOUS: z
    .enum(["full", "normal", "FULL", "NORMAL"], { error: "must be full or normal" })
    .transform((value) => value.toLowerCase() as "full" | "normal")
    .optional(),
  MAX_PLAYERS_PER_GAME: WholeNumber.min(1).max(100_000).optional(),
  METRICS_TOKEN: z.string().min(16, { error: "must be at least 16 characters" }).optional(),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], { error: "must be one of fatal, error, warn, info, debug, trace, silent" })
    .default("info"),
  RESULTS_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(3000),
  NEXT_QUESTION_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
  LOBBY_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  // A finished game's report (its players and answers) is kept this long, then purged.
  REPORT_RETENTION_DAYS: z.coerce.number({ error: "must be a number of days" }).int().min(1).max(36_500).default(365),
});

export type Env = z.infer<typeof EnvSchema> & { SESSION_SECRET: string };

/**
 * On PostgreSQL the server needs SESSION_SECRET set: the secret generated beside a SQLite file would
 * be one per machine, and every server on the database must sign and check the same cookies. The
 * command-line tools (`npm run user`, `db:migrate`) sign nothing and go without.
 */
const ServerEnvSchema = EnvSchema.superRefine((env, context) => {
  if (env.DATABASE_URL && !env.SESSION_SECRET) {
    context.addIssue({
      code: "custom",
      path: ["SESSION_SECRET"],
      message: "must be set when DATABASE_URL is: every server on the database signs sign-in cookies with it (at least 32 characters)",
    });
  }
});

/**
 * Reads and checks the environment once; a bad value stops the boot with a message naming it. A
 * command-line `tool` is not held to the server's rules between variables.
 */
export function parseEnv(source: Record<string, string | undefined> = process.env, purpose: "server" | "tool" = "server"): z.infer<typeof EnvSchema> {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = (purpose === "server" ? ServerEnvSchema : EnvSchema).safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}\nSee .env.example for every variable.`);
  }
  return result.data;
}

/** SESSION_SECRET from the environment, else one generated once and kept beside the database. */
export function resolveSessionSecret(configured: string | undefined, databasePath: string, log: (message: string) => void): string {
  if (configured) return configured;
  const dir = databasePath === ":memory:" ? path.resolve("data") : path.dirname(path.resolve(databasePath));
  const file = path.join(dir, "session-secret");
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  fs.mkdirSync(dir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  fs.writeFileSync(file, secret, { mode: 0o600 });
  log(`SESSION_SECRET is not set: generated one and saved it in ${file}`);
  return secret;
}

export interface PublicFirebaseConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
}

/** What the browser needs for Google sign-in; null (Google sign-in off) unless all three are set. */
export function publicFirebaseConfig(source: Record<string, string | undefined> = process.env): PublicFirebaseConfig | null {
  const { FIREBASE_API_KEY: apiKey, FIREBASE_AUTH_DOMAIN: authDomain, FIREBASE_PROJECT_ID: projectId } = source;
  return apiKey && authDomain && projectId ? { apiKey, authDomain, projectId } : null;
}

/** The quiz generator's settings; generation is off unless a key or a base URL is set. */
export function aiConfigOf(env: z.infer<typeof EnvSchema>): AiConfig {
  return {
    apiKey: env.OPENAI_API_KEY,
    baseURL: env.OPENAI_BASE_URL,
    model: env.OPENAI_MODEL,
    timeoutMs: env.OPENAI_TIMEOUT_SECONDS * 1000,
  };
}

/** Stripe's settings; billing is off unless STRIPE_SECRET_KEY is set. */
export function billingConfigOf(env: z.infer<typeof EnvSchema>): BillingConfig {
  return {
    secretKey: env.STRIPE_SECRET_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
    prices: { standard: env.STRIPE_PRICE_STANDARD, premium: env.STRIPE_PRICE_PREMIUM },
    apiBase: env.STRIPE_API_BASE,
  };
}

/**
 * Reads a `.env` file (the working directory's by default) into `process.env` when there is one:
 * it fills in what the environment leaves unset, and a variable set in the environment wins.
 */
export function loadDotEnvFile(file = ".env"): boolean {
  if (!fs.existsSync(file)) return false;
  process.loadEnvFile(file);
  return true;
}
