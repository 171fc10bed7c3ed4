/**
 * Sessions are rows in SQLite; the cookie holds only a random id (signed with SESSION_SECRET),
 * httpOnly, SameSite=Lax, Secure over https. Logout deletes the row. Every sign-in, registration
 * and password change issues a new id to the browser and ends the one it had (no fixation); an
 * account may be signed in on several devices, and registration (a guest's upgrade) and a password
 * change end the account's other sessions, as "Sign out everywhere" does
 * (docs/decisions/0008, 0017, 0043).
 */
import { createHash, randomBytes } from "node:crypto";
import { createCookie, type AppLoadContext } from "@remix-run/node";
import { clientIdOf, ensureClientId } from "./client-id.server";
import { ensureHostSecret, hostSecretOf, releaseHostClaims, type HostSeatRelease } from "./host-secret.server";
import { findUserById, type User } from "#app/models/user.server";
import type { Requester } from "#app/models/quiz.server";

export const SESSION_COOKIE = "qn_session";
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

type AuthContext = Pick<AppLoadContext, "db" | "sessionSecret">;

function sessionCookie(secret: string) {
  return createCookie(SESSION_COOKIE, { httpOnly: true, sameSite: "lax", path: "/", secrets: [secret] });
}

function hashId(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}

function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
}

async function sessionIdOf(context: AuthContext, request: Request): Promise<string | null> {
  const value: unknown = await sessionCookie(context.sessionSecret).parse(request.headers.get("cookie"));
  return typeof value === "string" && /^[0-9a-f]{64}$/.test(value) ? value : null;
}

/** The signed-in user (or guest) of this request, if any. */
export async function getUser(context: AuthContext, request: Request, now = Date.now()): Promise<User | null> {
  const id = await sessionIdOf(context, request);
  if (!id) return null;
  const session = await context.db.selectFrom("sessions").select(["user_id", "expires_at"]).where("id_hash", "=", hashId(id)).executeTakeFirst();
  if (!session || session.expires_at <= now) return null;
  return findUserById(context.db, session.user_id);
}

export interface StartSessionOptions {
  /**
   * End every other session of the account too: for a registration (a guest's copied cookie must
   * not open the new account) and a password change (whoever learned the old one is shut out).
   * A plain sign-in leaves the account's other devices signed in.
   */
  endOtherSessions?: boolean;
}

/**
 * Starts the user's session under a new random id and returns the Set-Cookie header value. The
 * browser's previous session (a guest's, another account's, or one planted in it) ends, so an id
 * the browser had before signing in never becomes the signed-in one.
 */
export async function startSession(
  context: AuthContext & HostSeatRelease,
  request: Request,
  userId: number,
  { endOtherSessions = false }: StartSessionOptions = {},
  now = Date.now(),
): Promise<string> {
  // Whoever signs in here is not whoever made this browser's games before (docs/decisions/0044).
  await releaseHostClaims(context, request);
  const previous = await sessionIdOf(context, request);
  const id = randomBytes(32).toString("hex");
  await context.db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("sessions")
      .where((eb) =>
        eb.or([
          eb("expires_at", "<=", now),
          ...(endOtherSessions ? [eb("user_id", "=", userId)] : []),
          ...(previous ? [eb("id_hash", "=", hashId(previous))] : []),
        ]),
      )
      .execute();
    await trx
      .insertInto("sessions")
      .values({ id_hash: hashId(id), user_id: userId, created_at: now, expires_at: now + SESSION_TTL_MS })
      .execute();
  });
  return sessionCookie(context.sessionSecret).serialize(id, { maxAge: SESSION_TTL_MS / 1000, secure: isHttps(request) });
}

/** "Sign out everywhere": ends every session of the user, this browser's included; returns the Set-Cookie header that clears the cookie. */
export async function endAllSessions(context: AuthContext & HostSeatRelease, request: Request, userId: number): Promise<string> {
  await releaseHostClaims(context, request);
  await context.db.deleteFrom("sessions").where("user_id", "=", userId).execute();
  return sessionCookie(context.sessionSecret).serialize("", { maxAge: 0, secure: isHttps(request) });
}

/** Deletes this request's session and returns the Set-Cookie header that clears the cookie. */
export async function endSession(context: AuthContext & HostSeatRelease, request: Request): Promise<string> {
  await releaseHostClaims(context, request);
  const id = await sessionIdOf(context, request);
  if (id) await context.db.deleteFrom("sessions").where("id_hash", "=", hashId(id)).execute();
  return sessionCookie(context.sessionSecret).serialize("", { maxAge: 0, secure: isHttps(request) });
}

/** Who is asking, for ownership checks: the signed-in user (or guest), the browser's client id and its host secret. */
export async function requesterOf(context: AuthContext, request: Request): Promise<Requester> {
  const user = await getUser(context, request);
  return { userId: user?.id ?? null, clientId: clientIdOf(request), hostSecret: hostSecretOf(request.headers.get("cookie")) };
}

/** For what creates something: the requester with a client id minted (and its cookie header) when the browser has none. */
export async function requesterWithClientId(
  context: AuthContext,
  request: Request,
): Promise<{ requester: Requester & { clientId: string }; headers: HeadersInit }> {
  const { clientId, headers } = ensureClientId(request);
  // What makes a game also binds it to this browser (docs/decisions/0044-shared-browsers.md).
  const { hostSecret, setCookie } = ensureHostSecret(request);
  const user = await getUser(context, request);
  const all = new Headers(headers);
  if (setCookie) all.append("Set-Cookie", setCookie);
  return { requester: { userId: user?.id ?? null, clientId, hostSecret }, headers: all };
}
