/**
 * The browser's host secret (docs/decisions/0044-shared-browsers.md): a random value the server sets
 * in an HttpOnly cookie when the browser makes a game. A game made signed out keeps the secret's
 * SHA-256 and is that browser's (host seat, host pages, full results) while it holds the secret and
 * nobody has signed in or out there since. The client id cookie alone, which outlives every sign-in
 * on a shared computer and travels in every socket's URL, no longer suffices.
 */
import { createHash, randomBytes } from "node:crypto";
import type { DB } from "#db/connection.server";
import { clientIdOf } from "./client-id.server";

export const HOST_SECRET_COOKIE = "qn_host";
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** The host secret in a Cookie header, if a well-formed one is there. */
export function hostSecretOf(cookieHeader: string | null | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const at = part.indexOf("=");
    if (at < 0 || part.slice(0, at).trim() !== HOST_SECRET_COOKIE) continue;
    const value = part.slice(at + 1).trim();
    return SECRET_SHAPE.test(value) ? value : null;
  }
  return null;
}

/** What a game stores of the secret: a copy of the database gives no browser's secret away. */
export function hashHostSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
}

/** The request's host secret, or a new one with the Set-Cookie header that keeps it (for what makes a game). */
export function ensureHostSecret(request: Request): { hostSecret: string; setCookie: string | null } {
  const existing = hostSecretOf(request.headers.get("cookie"));
  if (existing) return { hostSecret: existing, setCookie: null };
  return newHostSecret(isHttps(request));
}

/** A new host secret and the Set-Cookie header that keeps it in the browser. */
export function newHostSecret(secure: boolean): { hostSecret: string; setCookie: string } {
  const hostSecret = randomBytes(32).toString("base64url");
  return {
    hostSecret,
    setCookie: `${HOST_SECRET_COOKIE}=${hostSecret}; Path=/; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`,
  };
}

/**
 * The running games, when the caller has them (a route's load context): to end the host seats of a
 * browser's open sockets, on every node of a cluster (server/cluster-signals.ts).
 */
export interface HostSeatRelease {
  hub?: { releaseHostSeats(clientId: string): Promise<void> } | null;
}

/**
 * Someone signs in or out on this browser: the games it made signed out are no longer its, for
 * whoever comes next (a school computer), and its open sockets lose their host seats (they are
 * closed, and reopen with the browser's cookies as they are now). The phone remote's key keeps
 * working. Games made signed in belong to their account, which is checked on every host request.
 */
export async function releaseHostClaims(context: { db: DB } & HostSeatRelease, request: Request): Promise<void> {
  const secret = hostSecretOf(request.headers.get("cookie"));
  if (secret) await context.db.updateTable("games").set({ host_secret_hash: null }).where("host_secret_hash", "=", hashHostSecret(secret)).execute();
  const clientId = clientIdOf(request);
  if (clientId) await context.hub?.releaseHostSeats(clientId);
}
