/**
 * Cost and abuse limits on everything that creates something or spends money: each limit counts
 * attempts per key (an address, an account, or the whole server) in a window, with
 * `rate-limiter-flexible`'s SQLite store so the counts survive a restart. The store is its own small
 * SQLite file beside the database: its writes never wait for, or take part in, a game's commit.
 *
 * Like the quiz generator, it is built in server.ts and called from routes in the app build, so it
 * answers with data (`LimitCheck`), never with an error class of its own.
 */
import { appError, type AppError, type ErrorCode } from "#app/i18n/app-error";
import fs from "node:fs";
import path from "node:path";
import { SQLite, type SQLiteDatabase } from "#db/sqlite.server";
import { RateLimiterMemory, RateLimiterRes, RateLimiterSQLite, type RateLimiterAbstract } from "rate-limiter-flexible";

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

export class RateLimits {
  private readonly limiters = new Map<LimitName, RateLimiterAbstract>();
  private readonly store: SQLiteDatabase;
  private readonly clearTimer: NodeJS.Timeout;

  /** `storePath`: a SQLite file for the counts (":memory:" keeps them in this process only). */
  constructor(
    storePath: string,
    private readonly rules: LimitRules = DEFAULT_LIMIT_RULES,
    private readonly now: () => number = Date.now,
  ) {
    if (storePath !== ":memory:") fs.mkdirSync(path.dirname(storePath), { recursive: true });
    this.store = new SQLite(storePath);
    this.store.pragma("journal_mode = WAL");
    // Counts lost to a power cut only let a few more attempts through.
    this.store.pragma("synchronous = NORMAL");
    this.store.exec("create table if not exists rate_limits (key text primary key, points integer not null default 0, expire integer)");
    for (const [name, rule] of Object.entries(rules) as [LimitName, LimitRule][]) {
      if (!Number.isFinite(rule.points)) continue;
      // A UTC-day limit keys each day apart; its rows simply expire a day later.
      const duration = rule.window === "utc-day" ? 2 * 24 * HOUR : rule.window;
      const limiter = new RateLimiterSQLite({
        storeClient: this.store,
        storeType: "better-sqlite3",
        tableName: "rate_limits",
        tableCreated: true,
        keyPrefix: name,
        points: rule.points,
        duration,
        // Once over, a key is refused from memory until its window ends: a flood costs no writes.
        inMemoryBlockOnConsumed: rule.points + 1,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: name, points: rule.points, duration }),
      });
      this.limiters.set(name, limiter);
    }
    // The limiters share one table (the library's own timer would run once per limiter and outlive `close`).
    const clearExpired = this.store.prepare("delete from rate_limits where expire < ?");
    this.clearTimer = setInterval(() => clearExpired.run(this.now() - HOUR * 1000), CLEAR_EXPIRED_EVERY_MS);
    this.clearTimer.unref();
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

  close(): void {
    clearInterval(this.clearTimer);
    this.store.close();
  }
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
