/**
 * Game codes are 6 characters of 32 (about a billion): what keeps a stranger from sweeping them for
 * private games is a count of the codes each address looked up that do not exist (issue 26, hole 8;
 * docs/decisions/0042-limits-that-mean-what-they-say.md). Every place that looks a code up counts a
 * miss here: the socket's JOIN_GAME and WATCH_GAME (server/socket/transport.ts), the join form and the teams list
 * (app/teams/join-teams.server.ts), and every page and API path with a code in it, whose 404s the
 * Express middleware below counts. Past the limit, every lookup from that address is refused until
 * its window ends, a real code's too, so a refusal says nothing about the code.
 *
 * The counts live in memory (a restart forgets them); the keys are the limit keys of
 * app/limits/address-key.ts, so a /64 counts as one address.
 */
import type { NextFunction, Request, Response } from "express";
import { describeWait } from "#app/limits/rate-limits.server";
import { WindowCounter } from "./window-counter";

export interface CodeLookupLimits {
  /** Unknown codes one address may look up per window; 0 is no limit (CODE_LOOKUP_FAILURES_PER_IP). */
  failuresPerAddress: number;
  /** The window those failures are counted in. */
  windowSeconds: number;
  /** Team lists (GET /api/games/:code/teams) one address may ask for per minute; 0 is no limit (TEAMS_LIMIT_PER_IP). */
  teamListsPerAddressPerMinute: number;
}

export const DEFAULT_CODE_LOOKUP_LIMITS: CodeLookupLimits = {
  failuresPerAddress: 100,
  windowSeconds: 10 * 60,
  teamListsPerAddressPerMinute: 300,
};

export const CODE_LOOKUPS_MESSAGE = "Too many game codes that do not exist were tried from your network. Please try again in {wait}.";
/** The code of CODE_LOOKUPS_MESSAGE in the errors catalog, on the socket and over HTTP. */
export const CODE_LOOKUPS_CODE = "CODE_LOOKUPS_LIMITED";
export const TEAM_LISTS_MESSAGE = "Too many team lists were asked for from your network. Please wait a moment and try again.";

export interface LookupRefusal {
  message: string;
  retryAfterSeconds: number;
  /** The wait in the message ("7 minutes"), the value its translations take. */
  wait: string;
}

export class CodeLookups {
  private readonly failures: WindowCounter;
  private readonly teamLists = new WindowCounter(60);

  constructor(readonly limits: CodeLookupLimits = DEFAULT_CODE_LOOKUP_LIMITS) {
    this.failures = new WindowCounter(limits.windowSeconds);
  }

  /** Null while `address` may look codes up; else why not and for how long. */
  refusal(address: string): LookupRefusal | null {
    const limit = this.limits.failuresPerAddress;
    if (limit <= 0 || this.failures.count(address) < limit) return null;
    const retryAfterSeconds = Math.max(1, this.failures.secondsLeft(address));
    const wait = describeWait(retryAfterSeconds);
    return { retryAfterSeconds, wait, message: CODE_LOOKUPS_MESSAGE.replace("{wait}", wait) };
  }

  /** `address` looked up a code no game has. */
  failed(address: string): void {
    if (this.limits.failuresPerAddress > 0) this.failures.add(address);
  }

  /** Spends one of the address's team lists this minute; false when they are used up. */
  takeTeamList(address: string): boolean {
    const limit = this.limits.teamListsPerAddressPerMinute;
    return limit <= 0 || this.teamLists.take(address, limit);
  }

  stop(): void {
    this.failures.stop();
    this.teamLists.stop();
  }
}

/** Paths that look a game code up: a game's pages, its API, and the join form's post. */
const CODE_PAGE = /^\/(?:play|waiting|break|leaderboard|result|results|display|remote|host)\/[^/]+/;
const CODE_API = /^\/api\/games\/[^/]+\//;

function looksUpACode(req: Request): boolean {
  return CODE_PAGE.test(req.path) || CODE_API.test(req.path) || (req.method === "POST" && req.path === "/join");
}

/**
 * Before Remix: a path that looks a code up is refused with 429 (and Retry-After) for an address
 * past its failures, before any database work; otherwise its 404 (an unknown code, or a display or
 * remote link with a wrong key) counts as a failure.
 */
export function guardCodeLookups(lookups: CodeLookups, addressOf: (req: Request) => string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!looksUpACode(req)) return next();
    const address = addressOf(req);
    const refusal = lookups.refusal(address);
    if (refusal) {
      res.status(429).set({ "Retry-After": String(refusal.retryAfterSeconds), "Cache-Control": "no-store" });
      // As app/http/api.server.ts answers: the English message, its code in the errors catalog and the wait for its translations.
      if (req.path.startsWith("/api/") || req.query._data !== undefined)
        res.json({ error: refusal.message, code: CODE_LOOKUPS_CODE, values: { wait: refusal.wait } });
      else res.type("text/plain").send(refusal.message);
      return;
    }
    // Counted as the status goes out, not when the body is through: a sweeper that never reads a
    // page's body still has its miss counted before its next request.
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      if (this.writeHead !== writeHead) {
        this.writeHead = writeHead;
        if ((typeof args[0] === "number" ? args[0] : this.statusCode) === 404) lookups.failed(address);
      }
      return (writeHead as (...all: unknown[]) => Response).apply(this, args);
    } as Response["writeHead"];
    next();
  };
}
