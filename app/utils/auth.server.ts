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
  type User,
} from "#app/models/user.server";
import { getUser, startSession } from "./session.server";
import { firstErrors } from "./form-schemas";
import { LoginSchema, RegisterSchema } from "./validation";

export const LOGIN_FAILED = "Invalid email or password";
export const TOO_MANY_ATTEMPTS = "Too many attempts. Please wait 15 minutes and try again.";
export const MAX_FAILED_LOGINS = 10;
export const FAILED_LOGIN_WINDOW_MS = 15 * 60 * 1000;

type AuthContext = Pick<AppLoadContext, "db" | "sessionSecret" | "clientIp">;

export type FieldErrors = Partial<Record<string, string>>;

/** A refused login or registration: one message for a toast, and errors beside the fields. */
export class AuthError extends Error {
  constructor(
    message: string,
    readonly fieldErrors: FieldErrors = {},
    readonly status = 400,
  ) {
    super(message);
  }
}


function failureKeys(context: AuthContext, email: string): string[] {
  return [`email:${email.toLowerCase()}`, `ip:${context.clientIp || "unknown"}`];
}

async function tooManyFailures(context: AuthContext, email: string, now: number): Promise<boolean> {
  const rows = await context.db
    .selectFrom("login_failures")
    .select(["key", (eb) => eb.fn.countAll<number>().as("failures")])
    .where("key", "in", failureKeys(context, email))
    .where("failed_at", ">", now - FAILED_LOGIN_WINDOW_MS)
    .groupBy("key")
    .execute();
  return rows.some((row) => Number(row.failures) >= MAX_FAILED_LOGINS);
}

async function recordFailure(context: AuthContext, email: string, now: number): Promise<void> {
  await context.db
    .insertInto("login_failures")
    .values(failureKeys(context, email).map((key) => ({ key, failed_at: now })))
    .execute();
  await context.db.deleteFrom("login_failures").where("failed_at", "<=", now - FAILED_LOGIN_WINDOW_MS).execute();
}

function loginAuthenticator(context: AuthContext, now: number): Authenticator<User> {
  const authenticator = new Authenticator<User>();
  authenticator.use(
    new FormStrategy(async ({ form }) => {
      const parsed = LoginSchema.safeParse({ email: form.get("email") ?? "", password: form.get("password") ?? "" });
      if (!parsed.success) {
        const errors = firstErrors(parsed.error);
        throw new AuthError(Object.values(errors)[0] ?? LOGIN_FAILED, errors);
      }
      const { email, password } = parsed.data;
      if (await tooManyFailures(context, email, now)) throw new AuthError(TOO_MANY_ATTEMPTS, {}, 429);
      const row = await findUserRowByEmail(context.db, email);
      const valid = row?.password_hash ? await verifyPassword(row.password_hash, password) : (await burnPasswordCheck(password), false);
      if (!row || !valid) {
        await recordFailure(context, email, now);
        // The same message for an unknown email and a wrong password.
        throw new AuthError(LOGIN_FAILED, {}, 401);
      }
      await context.db.deleteFrom("login_failures").where("key", "=", failureKeys(context, email)[0]).execute();
      return toUser(row);
    }),
    "form",
  );
  return authenticator;
}

/** Checks a login form; returns the user and the session cookie, or throws AuthError. */
export async function login(context: AuthContext, request: Request, now = Date.now()): Promise<{ user: User; cookie: string }> {
  let user: User;
  try {
    user = await loginAuthenticator(context, now).authenticate("form", request);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    if (error instanceof Error && error.cause instanceof AuthError) throw error.cause;
    throw error;
  }
  return { user, cookie: await startSession(context, request, user.id, now) };
}

/** Registers from a form; a guest who registers keeps its quizzes. */
export async function register(context: AuthContext, request: Request, form: FormData): Promise<{ user: User; cookie: string }> {
  const parsed = RegisterSchema.safeParse({
    username: form.get("username") ?? "",
    email: form.get("email") ?? "",
    password: form.get("password") ?? "",
    confirmPassword: form.get("confirmPassword") ?? "",
  });
  if (!parsed.success) {
    const errors = firstErrors(parsed.error);
    throw new AuthError(Object.values(errors)[0] ?? "Failed to register", errors);
  }
  const { username, email, password } = parsed.data;
  const conflicts = await findConflicts(context.db, username, email);
  if (conflicts.length > 0) {
    const errors = Object.fromEntries(conflicts.map((conflict) => [conflict, CONFLICT_MESSAGES[conflict]]));
    throw new AuthError(CONFLICT_MESSAGES[conflicts[0]], errors, 409);
  }
  const current = await getUser(context, request);
  const user = await createAccount(context.db, { username, email, password }, current?.isGuest ? current.id : null);
  return { user, cookie: await startSession(context, request, user.id) };
}

/** 'Continue as Guest': a session with no account, so what the guest makes has an owner. */
export async function continueAsGuest(context: AuthContext, request: Request): Promise<{ user: User; cookie: string }> {
  const current = await getUser(context, request);
  if (current) return { user: current, cookie: "" };
  const guest = await createGuest(context.db);
  return { user: guest, cookie: await startSession(context, request, guest.id) };
}
