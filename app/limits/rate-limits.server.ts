/**
 * Cost and abuse limits on everything that creates something or spends money: each limit counts
 * attempts per key (an address, an account, or the whole server) in a window, with
 * `rate-limiter-flexible`'s SQLite store so the counts survive a restart. The store is its own small
 * SQLite file beside the database: its writes never wait for, or take part in, a game's commit.
 * In a cluster (DATABASE_URL) the counts are kept in Postgres instead, with the library's Postgres
 * store, in a table of their own that every node counts in, so a limit holds across the nodes
 * whichever one a request reaches (docs/decisions/0054-limits-across-nodes.md).
 *
 * Like the quiz generator, it is built in server.ts and called from routes in the app build, so it
 * answers with data (`LimitCheck`), never with an error class of its own.
 */
import { appError, type AppError, type ErrorCode } from "#app/i18n/app-error";
import fs from "node:fs";
import path from "node:path";
import { SQLite, type SQLiteDatabase } from "#db/sqlite.server";
import type { LimitsPool } from "#db/limits-pool.server";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, RateLimiterSQLite, type RateLimiterAbstract } from "rate-limiter-flexible";

export type LimitName =
  | "guest"
  | "register"
  | "login"
  | "loginAddress"
  | "aiAddress"
  | "aiServer"
  | "quiz"
  | "question"
  | "game"
  | "image"
  | "imageBytesAddress"
  | "imageBytesServer";

export interface LimitRule {
  /** Attempts allowed per key in each window. */
  points: number;
  /** A rolling window of this many seconds from the first attempt, or the UTC calendar day. */
  window: number | "utc-day";
  /** What the refused caller is told; `{wait}` becomes "3 minutes", "1 hour", ... */
  message: string;
}

export type LimitRules = Record<LimitName, LimitRule>;

/** A refusal carries its code and wait where it is raised (`error`), and its English words for logs and tests (`message`). */
export type LimitCheck = { ok: true } | { ok: false; retryAfterSeconds: number; message: string; error: AppError };

/** Each limit's refusal in the errors catalog; the wait is its value (docs/decisions/0047-errors-as-codes.md). */
export const LIMIT_CODES = {
  guest: "LIMIT_GUESTS",
  register: "LIMIT_REGISTRATIONS",
  login: "LIMIT_LOGIN",
  loginAddress: "LIMIT_LOGIN",
  aiAddress: "LIMIT_AI_ADDRESS",
  aiServer: "LIMIT_AI_SERVER",
  quiz: "LIMIT_QUIZZES",
  question: "LIMIT_QUESTIONS",
  game: "LIMIT_GAMES",
  image: "LIMIT_PICTURES",
  imageBytesAddress: "LIMIT_PICTURE_BYTES_ADDRESS",
  imageBytesServer: "LIMIT_PICTURE_BYTES_SERVER",
} as const satisfies Record<LimitName, ErrorCode>;

const HOUR = 3600;
const MB = 1024 * 1024;

/** The defaults, and what each protects; docs/deployment.md, "Running it on the internet", lists them. */
export const DEFAULT_LIMIT_RULES: LimitRules = {
  guest: { points: 30, window: HOUR, message: "Too many guest sessions were started from your network. Please try again in {wait}." },
  register: { points: 30, window: HOUR, message: "Too many accounts were registered from your network. Please try again in {wait}." },
  login: { points: 10, window: 15 * 60, message: "Too many attempts. Please wait {wait} and try again." },
  loginAddress: { points: 100, window: 15 * 60, message: "Too many attempts. Please wait {wait} and try again." },
  aiAddress: { points: 30, window: HOUR, message: "Too many AI quizzes were requested from your network. Please try again in {wait}." },
  aiServer: {
    points: Number.POSITIVE_INFINITY,
    window: "utc-day",
    message: "This server has generated all the AI quizzes its operator allows today. Please try again in {wait}, or write your quiz by hand.",
  },
  quiz: { points: 60, window: HOUR, message: "Too many quizzes were created from your network. Please try again in {wait}." },
  question: { points: 2000, window: HOUR, message: "Too many questions were added from your network. Please try again in {wait}." },
  game: { points: 120, window: HOUR, message: "Too many games were opened from your network. Please try again in {wait}." },
  // Every upload is re-encoded (CPU) before the storage quota can refuse it; a picture round is a few dozen.
  image: { points: 300, window: HOUR, message: "Too many pictures were uploaded from your network. Please try again in {wait}." },
  // Bytes of new pictures stored (docs/decisions/0042-limits-that-mean-what-they-say.md): what the disk takes in a day.
  imageBytesAddress: {
    points: 200 * MB,
    window: "utc-day",
    message: "Your network has uploaded all the pictures this server takes from it in a day. Please try again in {wait}.",
  },
  imageBytesServer: {
    points: 2000 * MB,
    window: "utc-day",
    message: "This server has taken all the new pictures its operator allows today. Please try again in {wait}.",
  },
};

/** "45 seconds", "3 minutes", "2 hours": a wait a person can plan around. */
export function describeWait(seconds: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (seconds < 60) return plural(Math.max(1, Math.ceil(seconds)), "second");
  if (seconds < 2 * HOUR) return plural(Math.ceil(seconds / 60), "minute");
  return plural(Math.ceil(seconds / HOUR), "hour");
}

function secondsToUtcMidnight(now: number): number {
  const midnight = new Date(now);
  midnight.setUTCHours(24, 0, 0, 0);
  return Math.ceil((midnight.getTime() - now) / 1000);
}

/** The limits file beside the database: `quiz.sqlite` keeps its counts in `quiz-limits.sqlite`. */
export function limitsDatabasePath(databasePath: string): string {
  if (databasePath === ":memory:") return ":memory:";
  const parsed = path.parse(path.resolve(databasePath));
  return path.join(parsed.dir, `${parsed.name}-limits.sqlite`);
}

/** How often rows whose window ended over an hour ago are cleared from the store. */
const CLEAR_EXPIRED_EVERY_MS = 5 * 60_000;

/**
 * An allowance kept where every node of a cluster counts it (rate-limiter-flexible's Postgres
 * store, `RateLimits.sharedAllowance`): the joins an address may make across games in a
 * window, whichever nodes they land on (docs/decisions/0054-limits-across-nodes.md).
 */
export interface SharedAllowance {
  /**
   * Takes up to `wanted` of `key`'s allowance in its current window, atomically across nodes:
   * how many were granted (0: none left) and the milliseconds until the window ends.
   */
  lease(key: string, wanted: number): Promise<{ granted: number; msLeft: number }>;
}

/** The table of the counts, in the limits' SQLite file or in a cluster's Postgres database. */
const TABLE = "rate_limits";

/** rate-limiter-flexible's own table, as its Postgres store would make it (key, points, expire in epoch ms). */
const CREATE_POSTGRES_TABLE = `create table if not exists ${TABLE} (key varchar(255) primary key, points integer not null default 0, expire bigint)`;

/** Where the counts are kept: this node's SQLite file, or the Postgres database every node of a cluster shares. */
type Store = { kind: "sqlite"; db: SQLiteDatabase } | { kind: "postgres"; pool: LimitsPool };

export class RateLimits {
  private readonly limiters = new Map<LimitName, RateLimiterAbstract>();
  private readonly store: Store;
  private readonly clearTimer: NodeJS.Timeout;

  /**
   * The counts of a cluster's nodes in `pool`'s database, shared by every node (DATABASE_URL); the
   * table is made on first use. The pool stays the caller's: `close` leaves it open.
   */
  static async onPostgres(pool: LimitsPool, rules: LimitRules = DEFAULT_LIMIT_RULES, now: () => number = Date.now): Promise<RateLimits> {
    await pool.query(CREATE_POSTGRES_TABLE);
    return new RateLimits(pool, rules, now);
  }

  /**
   * `store`: a SQLite file for the counts (":memory:" keeps them in this process only), or a
   * Postgres pool whose table exists (`onPostgres` makes it).
   */
  constructor(
    store: string | LimitsPool,
    private readonly rules: LimitRules = DEFAULT_LIMIT_RULES,
    private readonly now: () => number = Date.now,
  ) {
    this.store = typeof store === "string" ? { kind: "sqlite", db: openSqliteStore(store) } : { kind: "postgres", pool: store };
    for (const [name, rule] of Object.entries(rules) as [LimitName, LimitRule][]) {
      if (!Number.isFinite(rule.points)) continue;
      // A UTC-day limit keys each day apart; its rows simply expire a day later.
      const duration = rule.window === "utc-day" ? 2 * 24 * HOUR : rule.window;
      // Once over, a key is refused from memory until its window ends: a flood costs no writes.
      this.limiters.set(name, this.limiter(name, rule.points, duration, rule.points + 1));
    }
    // The limiters share one table (the library's own timer would run once per limiter and outlive `close`).
    this.clearTimer = setInterval(() => void this.clearExpired(this.now() - HOUR * 1000), CLEAR_EXPIRED_EVERY_MS);
    this.clearTimer.unref();
  }

  /**
   * A limiter of the store, with a memory one as its insurance: when the store fails (a Postgres
   * that does not answer), this node counts alone rather than refuse or let everything through.
   */
  private limiter(keyPrefix: string, points: number, duration: number, inMemoryBlockOnConsumed?: number): RateLimiterAbstract {
    const common = {
      tableName: TABLE,
      tableCreated: true,
      keyPrefix,
      points,
      duration,
      ...(inMemoryBlockOnConsumed === undefined ? {} : { inMemoryBlockOnConsumed }),
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
    };
    const store = this.store;
    if (store.kind === "sqlite") return new RateLimiterSQLite({ ...common, storeClient: store.db, storeType: "better-sqlite3" });
    return new RateLimiterPostgres({ ...common, storeClient: store.pool, storeType: "pool", clearExpiredByTimeout: false });
  }

  private async clearExpired(before: number): Promise<void> {
    const store = this.store;
    if (store.kind === "sqlite") {
      store.db.prepare(`delete from ${TABLE} where expire < ?`).run(before);
      return;
    }
    // Every node clears; a row cleared twice costs nothing, and a failure only leaves old rows a while longer.
    await store.pool.query(`delete from ${TABLE} where expire < $1`, [before]).catch(() => {});
  }

  /**
   * In a cluster, an allowance every node spends from (`SharedAllowance`): `points` per `key` in
   * windows of `windowSeconds`, for the socket's join limit across games (server/socket/join-limits.ts).
   * Null on one node, whose own count in memory is exact and costs no write.
   */
  sharedAllowance(keyPrefix: string, points: number, windowSeconds: number): SharedAllowance | null {
    if (this.store.kind !== "postgres" || !Number.isFinite(points)) return null;
    // Without a block in memory: a refused lease must still say how much of it the store granted.
    const limiter = this.limiter(keyPrefix, points, windowSeconds);
    return {
      async lease(key, wanted) {
        try {
          const taken = await limiter.consume(key, wanted);
          return { granted: wanted, msLeft: taken.msBeforeNext };
        } catch (rejection) {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          // The store counted all of `wanted` and went past `points`: what was left before it is granted.
          const before = rejection.consumedPoints - wanted;
          return { granted: Math.max(0, Math.min(wanted, points - before)), msLeft: rejection.msBeforeNext };
        }
      },
    };
  }

  private keyOf(name: LimitName, key: string): string {
    return this.rules[name].window === "utc-day" ? `${new Date(this.now()).toISOString().slice(0, 10)}:${key}` : key;
  }

  /** Spends `points` of `key`'s allowance under `name`; refused (with the wait) when it is used up. */
  async consume(name: LimitName, key: string, points = 1): Promise<LimitCheck> {
    const limiter = this.limiters.get(name);
    if (!limiter) return { ok: true };
    try {
      await limiter.consume(this.keyOf(name, key), points);
      return { ok: true };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return this.refusal(name, rejection.msBeforeNext);
    }
  }

  private refusal(name: LimitName, msBeforeNext: number): LimitCheck {
    const rule = this.rules[name];
    const retryAfterSeconds = rule.window === "utc-day" ? secondsToUtcMidnight(this.now()) : Math.max(1, Math.ceil(msBeforeNext / 1000));
    const wait = describeWait(retryAfterSeconds);
    return { ok: false, retryAfterSeconds, message: rule.message.replace("{wait}", wait), error: appError(LIMIT_CODES[name], { wait }) };
  }

  /** Whether `key` has any of its allowance under `name` left, spending nothing. */
  async peek(name: LimitName, key: string): Promise<LimitCheck> {
    const limiter = this.limiters.get(name);
    if (!limiter) return { ok: true };
    const used = await limiter.get(this.keyOf(name, key));
    if (!used || used.consumedPoints < this.rules[name].points) return { ok: true };
    return this.refusal(name, used.msBeforeNext);
  }

  /**
   * Counts `points` against `key` under `name` whatever is left: for a cost known only once the
   * work is done (the bytes a picture took), after `peek` let it start.
   */
  async charge(name: LimitName, key: string, points: number): Promise<void> {
    if (points > 0) await this.limiters.get(name)?.penalty(this.keyOf(name, key), points);
  }

  /** Gives back what an attempt spent (a login that turned out right does not count against the address). */
  async refund(name: LimitName, key: string, points = 1): Promise<void> {
    await this.limiters.get(name)?.reward(this.keyOf(name, key), points);
  }

  /** Forgets `key`'s count under `name` (a successful login clears its failures). */
  async reset(name: LimitName, key: string): Promise<void> {
    await this.limiters.get(name)?.delete(this.keyOf(name, key));
  }

  /** Stops the clearing; closes a SQLite store (a Postgres pool is its opener's to end). */
  close(): void {
    clearInterval(this.clearTimer);
    if (this.store.kind === "sqlite") this.store.db.close();
  }
}

function openSqliteStore(storePath: string): SQLiteDatabase {
  if (storePath !== ":memory:") fs.mkdirSync(path.dirname(storePath), { recursive: true });
  const db = new SQLite(storePath);
  db.pragma("journal_mode = WAL");
  // Counts lost to a power cut only let a few more attempts through.
  db.pragma("synchronous = NORMAL");
  db.exec(`create table if not exists ${TABLE} (key text primary key, points integer not null default 0, expire integer)`);
  return db;
}

/**
 * Spends a request's attempts of cost and abuse limits, keyed by its address unless a key is
 * given, in order; the first refusal (its message and wait) when one is used up.
 */
export async function checkLimits(
  context: { limits: RateLimits; clientIp: string },
  spends: { name: LimitName; points?: number; key?: string }[],
): Promise<LimitCheck> {
  for (const { name, points, key } of spends) {
    const check = await context.limits.consume(name, key ?? (context.clientIp || "unknown"), points);
    if (!check.ok) return check;
  }
  return { ok: true };
}
