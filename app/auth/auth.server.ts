/**
 * Email and password accounts and guests. Login goes through remix-auth's FormStrategy; the app
 * then commits its own database session (remix-auth v4 returns the user and stores nothing).
 */
import type { AppLoadContext } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import {
  burnPasswordCheck,
  CONFLICT_MESSAGES,
  createAccount,
  createGuest,
  findConflicts,
  findUserRowByEmail,
  toUser,
  verifyPassword,
  type Conflict,
  type User,
} from "#app/models/user.server";
import { getUser, startSession } from "#app/sessions/session.server";
import { parseForm, type FieldCodes, type FieldErrors } from "#app/forms/forms";
import { ROUTE_BODIES } from "#app/limits/body-limits";
import { readFormWithin } from "#app/http/request-body.server";
import { LoginSchema, RegisterSchema } from "#app/schemas/validation";
import { checkLimits } from "#app/limits/rate-limits.server";
import { DEFAULT_LIMIT_RULES } from "#app/limits/rate-limits.server";
import { appError, type AppError, type ErrorCode } from "#app/i18n/app-error";
import { englishErrorText } from "#app/i18n/error-english.server";

export const LOGIN_FAILED = "Invalid email or password";
/** Failed logins one address may make on one account in the login window (see DEFAULT_LIMIT_RULES). */
export const MAX_FAILED_LOGINS = DEFAULT_LIMIT_RULES.login.points;

type AuthContext = Pick<AppLoadContext, "db" | "sessionSecret" | "clientIp" | "limits">;

/**
 * Why a login, registration or guest session was refused: "invalid" (the form), "wrong-credentials"
 * (an unknown email or a wrong password, never said which), "conflict" (the username or email is
 * taken), "rate-limited". The routes map each to a status (AUTH_FAILURE_STATUS in api.server.ts).
 */
export type AuthFailureReason = "invalid" | "wrong-credentials" | "conflict" | "rate-limited";

/**
 * A refused login or registration: why, one message for a toast (`error`, its code and values, and
 * its English as the message), and errors beside the fields with their codes (`fieldCodes`), for
 * the page and the API to say them by (docs/decisions/0047-errors-as-codes.md).
 */
export class AuthError extends Error {
  readonly error: AppError | null;
  constructor(
    readonly reason: AuthFailureReason,
    error: AppError | string,
    readonly fieldErrors: FieldErrors = {},
    /** For "rate-limited": when to try again. */
    readonly retryAfterSeconds?: number,
    /** The refusal's own English words (a limit's configured ones), else the catalog's. */
    english?: string,
    /** The code and values of each field's message. */
    readonly fieldCodes: FieldCodes = {},
  ) {
    super(english ?? (typeof error === "string" ? error : englishErrorText(error)));
    this.error = typeof error === "string" ? null : error;
  }
}

/** A form refused by its schema: its first message by the code it was raised with, or `fallback` for a form with none. */
function invalidForm(submission: { errors: FieldErrors; codes: FieldCodes }, fallback: AppError): AuthError {
  const [field, english] = Object.entries(submission.errors)[0] ?? [];
  const error = field === undefined ? fallback : (submission.codes[field] ?? english ?? fallback);
  return new AuthError("invalid", error, submission.errors, undefined, english, submission.codes);
}

/** Which field a registration clashes on, by its code. */
const CONFLICT_CODES = { username: "USERNAME_TAKEN", email: "EMAIL_TAKEN" } as const satisfies Record<Conflict, ErrorCode>;

/** Throws the AuthError of a used-up limit. */
async function requireAllowed(context: AuthContext, spends: Parameters<typeof checkLimits>[1]): Promise<void> {
  const check = await checkLimits(context, spends);
  if (!check.ok) throw new AuthError("rate-limited", check.error, {}, check.retryAfterSeconds, check.message);
}

function loginAuthenticator(context: AuthContext): Authenticator<User> {
  const authenticator = new Authenticator<User>();
  authenticator.use(
    new FormStrategy(async ({ form }) => {
      const submission = parseForm(form, LoginSchema);
      if (submission.status !== "success") throw invalidForm(submission, appError("LOGIN_FAILED"));
      const { email, password } = submission.value;
      // The attempt is counted before the (slow) password check, so parallel guesses cannot slip
      // past the limit. It is counted per account and address together: failures from elsewhere
      // never lock the owner out, and a lock ends with its window.
      const address = context.clientIp || "unknown";
      const accountAtAddress = `${email.toLowerCase()}|${address}`;
      await requireAllowed(context, [{ name: "login", key: accountAtAddress }, { name: "loginAddress" }]);
      const row = await findUserRowByEmail(context.db, email);
      const valid = row?.password_hash ? await verifyPassword(row.password_hash, password) : (await burnPasswordCheck(password), false);
      // The same message for an unknown email and a wrong password.
      if (!row || !valid) throw new AuthError("wrong-credentials", appError("LOGIN_FAILED"));
      await context.limits.reset("login", accountAtAddress);
      await context.limits.refund("loginAddress", address);
      return toUser(row);
    }),
    "form",
  );
  return authenticator;
}

/**
 * Checks a login form (`form`, or the request's, read within its limits: request-body.server.ts);
 * returns the user and the session cookie, or throws AuthError.
 */
export async function login(context: AuthContext, request: Request, form?: FormData): Promise<{ user: User; cookie: string }> {
  form ??= await readFormWithin(request, ROUTE_BODIES["/auth"]);
  let user: User;
  // The strategy reads a request's body itself: it gets the form already read, and nothing more.
  const fields = new URLSearchParams([...form].map(([name, value]): [string, string] => [name, typeof value === "string" ? value : ""]));
  const posted = new Request(request.url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: fields });
  try {
    user = await loginAuthenticator(context).authenticate("form", posted);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    if (error instanceof Error && error.cause instanceof AuthError) throw error.cause;
    throw error;
  }
  return { user, cookie: await startSession(context, request, user.id) };
}

/** Registers from a form; a guest who registers keeps its quizzes. */
export async function register(context: AuthContext, request: Request, form: FormData): Promise<{ user: User; cookie: string }> {
  const submission = parseForm(form, RegisterSchema);
  if (submission.status !== "success") throw invalidForm(submission, appError("REGISTER_FAILED"));
  const { username, email, password } = submission.value;
  // The limit first, and every attempt spends it: past it the answer is the same whatever the
  // email, so registration cannot be used to learn, without end, which emails have accounts.
  await requireAllowed(context, [{ name: "register" }]);
  const conflicts = await findConflicts(context.db, username, email);
  if (conflicts.length > 0) {
    const errors = Object.fromEntries(conflicts.map((conflict) => [conflict, CONFLICT_MESSAGES[conflict]]));
    const codes = Object.fromEntries(conflicts.map((conflict) => [conflict, appError(CONFLICT_CODES[conflict])]));
    throw new AuthError("conflict", codes[conflicts[0]], errors, undefined, CONFLICT_MESSAGES[conflicts[0]], codes);
  }
  const current = await getUser(context, request);
  const user = await createAccount(context.db, { username, email, password }, current?.isGuest ? current.id : null);
  // A guest's upgrade: a copy of the guest's cookie elsewhere must not open the new account.
  return { user, cookie: await startSession(context, request, user.id, { endOtherSessions: true }) };
}

/** 'Continue as Guest': a session with no account, so what the guest makes has an owner. */
export async function continueAsGuest(context: AuthContext, request: Request): Promise<{ user: User; cookie: string }> {
  const current = await getUser(context, request);
  if (current) return { user: current, cookie: "" };
  await requireAllowed(context, [{ name: "guest" }]);
  const guest = await createGuest(context.db);
  return { user: guest, cookie: await startSession(context, request, guest.id) };
}
