/**
 * After the Google popup: the ID token is traded for our own session, GET /api/auth/me, and on
 * 404 POST /api/auth/register (docs/product.md#http-api). No Firebase import here, so the unit
 * tests and the initial bundle stay free of the SDK.
 */
import { appError, appErrorOf, type AppError } from "#app/i18n/app-error";
import { googleUsername } from "./google-errors";

/** What a sign-in says when the server's answer is not one it gives on purpose (docs/product.md#messages). */
export const GOOGLE_LOGIN_FALLBACK = "Failed to login with Google";

/** An error whose message is what the user should read, with the code and values it is said by (null: a refusal the server sent without one). */
export class SignInError extends Error {
  constructor(
    message: string,
    readonly error: AppError | null,
  ) {
    super(message);
  }
}

const LOGIN_FALLBACK = appError("GOOGLE_LOGIN_FALLBACK");

export type GoogleAccount = "returning" | "new";

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

async function bodyOf(response: Response): Promise<unknown> {
  try {
    return JSON.parse(await response.text());
  } catch {
    return null; // not JSON: a proxy's error page, a captive portal
  }
}

const isUser = (body: unknown) => typeof body === "object" && body !== null && "id" in body && typeof body.id === "number";

/**
 * The server's own refusal (a JSON `{error}` it chose: already registered, a limit, Firebase not
 * set up) keeps its message; a 500 (the server's catch-all) or a body that is not ours says
 * GOOGLE_LOGIN_FALLBACK.
 */
function refusal(status: number, body: unknown): SignInError {
  const known = status !== 500 && typeof body === "object" && body !== null && "error" in body && typeof body.error === "string";
  return known
    ? new SignInError(body.error as string, appErrorOf(body as { code?: unknown; values?: unknown; valueErrors?: unknown }))
    : new SignInError(GOOGLE_LOGIN_FALLBACK, LOGIN_FALLBACK);
}

/**
 * Signs in with the popup's ID token: the existing account ("returning"), or a new one registered
 * by the username rule of docs/product.md#http-api ("new"). Throws SignInError with the message to
 * show; a request that never reached the server throws fetch's own TypeError.
 */
export async function exchangeGoogleToken(
  token: string,
  profile: { displayName: string | null; email: string | null },
  request: Fetch = fetch,
): Promise<GoogleAccount> {
  const authorization = `Bearer ${token}`;
  const me = await request("/api/auth/me", { headers: { authorization }, credentials: "same-origin" });
  const found = await bodyOf(me);
  if (me.ok && isUser(found)) return "returning";
  // Only the API's own 404 means "not registered yet"; any other page at that address is not ours.
  const notRegistered = me.status === 404 && typeof found === "object" && found !== null && "error" in found;
  if (!notRegistered) throw me.ok ? new SignInError(GOOGLE_LOGIN_FALLBACK, LOGIN_FALLBACK) : refusal(me.status, found);
  const registered = await request("/api/auth/register", {
    method: "POST",
    headers: { authorization, "content-type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify({ username: googleUsername(profile.displayName, profile.email), email: profile.email ?? "" }),
  });
  const created = await bodyOf(registered);
  if (registered.ok && isUser(created)) return "new";
  throw registered.ok ? new SignInError(GOOGLE_LOGIN_FALLBACK, LOGIN_FALLBACK) : refusal(registered.status, created);
}

/** Where a signed-in Google user lands: a first sign-in is welcomed, a later one welcomed back (app/components/flash-toasts.tsx). */
export function welcomeAfterGoogle(account: GoogleAccount): string {
  return account === "new" ? "/?welcome=google-new" : "/?welcome=login";
}
