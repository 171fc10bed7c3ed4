/**
 * Accounts and sessions end to end on the server: the /auth route's loader and action and the
 * /logout action, called with real Requests against a real SQLite database, plus login() and
 * register() from auth.server directly.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection.server";
import { createQuiz } from "#app/models/quiz.server";
import { listOwnQuizzes } from "#app/models/quiz-lists.server";
import * as authRoute from "#app/routes/auth";
import * as logoutRoute from "#app/routes/logout";
import { AuthError, LOGIN_FAILED, login, MAX_FAILED_LOGINS, register } from "#app/auth/auth.server";
import { getUser, SESSION_COOKIE } from "#app/sessions/session.server";
import { openTempDatabase, testLimits, type TempDatabase } from "./temp-database";
import { captureLogs, ERROR } from "#tests/log-capture";

const SECRET = "auth-test-secret-0123456789-0123456789";
const PASSWORD = "correct horse";

let database: TempDatabase;
let db: DB;
let ipCounter = 0;

beforeAll(async () => {
  database = await openTempDatabase("auth");
  db = database.db;
});

afterAll(() => database.remove());

/** Failed logins are also counted per client address, so each test gets its own. */
function freshIp(): string {
  ipCounter += 1;
  return `10.0.0.${ipCounter}`;
}

const limits = testLimits();

function contextFor(clientIp = "127.0.0.1") {
  return { db, hub: null as any, sessionSecret: SECRET, clientIp, limits };
}

let uniqueCounter = 0;
function unique(prefix: string): string {
  uniqueCounter += 1;
  return `${prefix}${Date.now().toString(36)}${uniqueCounter}`;
}

function request(url: string, init: { form?: Record<string, string>; cookie?: string | null; headers?: Record<string, string> } = {}) {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("cookie", init.cookie);
  return new Request(`http://localhost${url}`, {
    method: init.form ? "POST" : "GET",
    headers,
    body: init.form ? new URLSearchParams(init.form) : undefined,
  });
}

interface Reply {
  status: number;
  body: any;
  location: string | null;
  setCookie: string | null;
  /** Everything the client receives, to check that no password leaks. */
  raw: string;
}

type Handler = (args: any) => Promise<unknown>;

/** Calls a loader or action the way Remix does; a thrown Response (a redirect) counts as the reply. */
async function call(
  handler: Handler,
  url: string,
  init: { form?: Record<string, string>; cookie?: string | null; clientIp?: string; headers?: Record<string, string>; context?: object } = {},
): Promise<Reply> {
  let result: unknown;
  try {
    result = await handler({ request: request(url, init), params: {}, context: init.context ?? contextFor(init.clientIp) });
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    result = thrown;
  }
  if (result instanceof Response) {
    const body = await result.text();
    const raw = JSON.stringify([...result.headers.entries()]) + body;
    return { status: result.status, body, location: result.headers.get("location"), setCookie: result.headers.get("set-cookie"), raw };
  }
  if (result && typeof result === "object" && "init" in result && "data" in result) {
    const wrapped = result as { data: unknown; init: ResponseInit | null };
    const raw = JSON.stringify(wrapped);
    return { status: wrapped.init?.status ?? 200, body: wrapped.data, location: null, setCookie: null, raw };
  }
  return { status: 200, body: result, location: null, setCookie: null, raw: JSON.stringify(result) };
}

/** The Cookie header a browser would send back after this Set-Cookie. */
function cookieFrom(setCookie: string | null): string {
  expect(setCookie).toBeTruthy();
  return setCookie!.split(";")[0];
}

function registerForm(change: Record<string, string> = {}): Record<string, string> {
  return { intent: "register", username: unique("user"), email: `${unique("mail")}@example.com`, password: PASSWORD, confirmPassword: PASSWORD, ...change };
}

async function registerAccount(change: Record<string, string> = {}) {
  const form = registerForm(change);
  const reply = await call(authRoute.action, "/auth", { form });
  expect(reply.status).toBe(302);
  return { form, cookie: cookieFrom(reply.setCookie), reply };
}

async function userRow(username: string) {
  return db.selectFrom("users").selectAll().where("username", "=", username).executeTakeFirstOrThrow();
}

describe("register", () => {
  it("creates the account, starts a session in an httpOnly SameSite=Lax cookie and goes home with the welcome flash", async () => {
    const form = registerForm();
    const reply = await call(authRoute.action, "/auth", { form });
    expect(reply.status).toBe(302);
    expect(reply.location).toBe("/?welcome=register");

    const setCookie = reply.setCookie!;
    expect(setCookie).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    expect(setCookie).toMatch(/; HttpOnly/i);
    expect(setCookie).toMatch(/; SameSite=Lax/i);
    expect(setCookie).toMatch(/; Path=\//i);
    expect(setCookie).not.toMatch(/; Secure/i);
    expect(reply.raw).not.toContain(PASSWORD);
    expect(reply.raw).not.toContain(encodeURIComponent(PASSWORD));

    const user = await getUser(contextFor(), request("/", { cookie: cookieFrom(setCookie) }));
    expect(user).toMatchObject({ username: form.username, email: form.email, isGuest: false, hasPassword: true, subscriptionTier: "free" });
  });

  it("stores the password hashed with argon2id, never as typed", async () => {
    const { form } = await registerAccount();
    const row = await userRow(form.username);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toBe(PASSWORD);
    expect(row.password_hash).not.toContain(PASSWORD);
  });

  it("marks the cookie Secure behind https", async () => {
    const reply = await call(authRoute.action, "/auth", { form: registerForm(), headers: { "x-forwarded-proto": "https" } });
    expect(reply.status).toBe(302);
    expect(reply.setCookie).toMatch(/; Secure/i);
  });

  it("refuses a username or an email that is already taken, in any case, with a clear 409", async () => {
    const { form } = await registerAccount();

    const sameUsername = await call(authRoute.action, "/auth", { form: registerForm({ username: form.username.toUpperCase() }) });
    expect(sameUsername.status).toBe(409);
    expect(sameUsername.setCookie).toBeNull();
    expect(sameUsername.body).toMatchObject({
      intent: "register",
      formError: "That username is already taken",
      fieldErrors: { username: "That username is already taken" },
      formErrorCode: { code: "USERNAME_TAKEN" },
      fieldCodes: { username: { code: "USERNAME_TAKEN" } },
    });

    const sameEmail = await call(authRoute.action, "/auth", { form: registerForm({ email: form.email.toUpperCase() }) });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toMatchObject({
      formError: "An account with this email already exists",
      fieldErrors: { email: "An account with this email already exists" },
    });
    expect(sameEmail.raw).not.toContain(PASSWORD);

    const again = request("/auth", { form: registerForm({ username: form.username }) });
    await expect(register(contextFor(), again, await again.clone().formData())).rejects.toMatchObject({
      reason: "conflict",
      message: "That username is already taken",
    });
    const count = await db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("email", "=", form.email)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it("shows the messages of docs/product.md#validation beside the fields and keeps what was typed except the passwords", async () => {
    const form = { intent: "register", username: "ab", email: "not-an-email", password: "12345", confirmPassword: "123456" };
    const reply = await call(authRoute.action, "/auth", { form });
    expect(reply.status).toBe(400);
    expect(reply.body.values).toEqual({ username: "ab", email: "not-an-email" });
    expect(reply.body.fieldErrors).toMatchObject({
      username: "Username must be at least 3 characters",
      email: "Please enter a valid email",
      password: "Password must be at least 6 characters",
    });
    // Each with the code its rule raised it with, which the page says it by.
    expect(reply.body.fieldCodes).toMatchObject({
      username: { code: "USERNAME_TOO_SHORT" },
      email: { code: "EMAIL_INVALID" },
      password: { code: "PASSWORD_TOO_SHORT" },
    });
    expect(reply.raw).not.toContain("12345");

    const mismatch = await call(authRoute.action, "/auth", { form: registerForm({ confirmPassword: "something else" }) });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.fieldErrors).toEqual({ confirmPassword: "Passwords don't match" });
    expect(mismatch.body.formError).toBe("Passwords don't match");
    expect(mismatch.body.formErrorCode).toEqual({ code: "PASSWORDS_DONT_MATCH" });
    expect(Object.keys(mismatch.body.values).sort()).toEqual(["email", "username"]);
  });
});

describe("login", () => {
  it("signs in with the right password (any email case) and goes home with the welcome flash", async () => {
    const { form } = await registerAccount();
    const reply = await call(authRoute.action, "/auth", {
      form: { intent: "login", email: form.email.toUpperCase(), password: PASSWORD },
      clientIp: freshIp(),
    });
    expect(reply.status).toBe(302);
    expect(reply.location).toBe("/?welcome=login");
    expect(reply.setCookie).toMatch(/; HttpOnly/i);
    expect(reply.setCookie).toMatch(/; SameSite=Lax/i);
    expect(reply.raw).not.toContain(PASSWORD);
    const user = await getUser(contextFor(), request("/", { cookie: cookieFrom(reply.setCookie) }));
    expect(user?.username).toBe(form.username);

    const direct = await login(contextFor(freshIp()), request("/auth", { form: { email: form.email, password: PASSWORD } }));
    expect(direct.user.username).toBe(form.username);
    expect(direct.cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
  });

  it("gives the same message for a wrong password and an unknown email", async () => {
    const { form } = await registerAccount();
    const ip = freshIp();
    const wrongPassword = await call(authRoute.action, "/auth", { form: { intent: "login", email: form.email, password: "wrong password" }, clientIp: ip });
    const unknownEmail = await call(authRoute.action, "/auth", {
      form: { intent: "login", email: `${unique("nobody")}@example.com`, password: "wrong password" },
      clientIp: ip,
    });
    for (const reply of [wrongPassword, unknownEmail]) {
      expect(reply.status).toBe(401);
      expect(reply.setCookie).toBeNull();
      // With the code it was raised with, which the page says it by (docs/decisions/0047-errors-as-codes.md).
      expect(reply.body).toEqual({
        intent: "login",
        values: { email: expect.any(String) },
        fieldErrors: {},
        formError: LOGIN_FAILED,
        fieldCodes: {},
        formErrorCode: { code: "LOGIN_FAILED" },
      });
      expect(reply.raw).not.toContain("wrong password");
    }
    expect(LOGIN_FAILED).toBe("Invalid email or password");
    expect(wrongPassword.body.values.email).toBe(form.email);

    const direct = await login(contextFor(freshIp()), request("/auth", { form: { email: form.email, password: "nope nope" } })).catch((error) => error);
    expect(direct).toBeInstanceOf(AuthError);
    expect(direct).toMatchObject({ message: LOGIN_FAILED, reason: "wrong-credentials" });
  });

  it("checks the form with the messages of docs/product.md#validation before looking anyone up", async () => {
    const reply = await call(authRoute.action, "/auth", { form: { intent: "login", email: "nope", password: "123" }, clientIp: freshIp() });
    expect(reply.status).toBe(400);
    expect(reply.body.fieldErrors).toEqual({ email: "Please enter a valid email", password: "Password must be at least 6 characters" });
    expect(reply.body.values).toEqual({ email: "nope" });
  });

  it(`refuses even the right password after ${MAX_FAILED_LOGINS} failures from one address, with 'Too many attempts...' and 429`, async () => {
    const { form } = await registerAccount();
    const ip = freshIp();
    for (let attempt = 0; attempt < MAX_FAILED_LOGINS; attempt += 1) {
      const reply = await call(authRoute.action, "/auth", { form: { intent: "login", email: form.email, password: `wrong-${attempt}` }, clientIp: ip });
      expect(reply.status).toBe(401);
    }
    const blocked = await call(authRoute.action, "/auth", { form: { intent: "login", email: form.email, password: PASSWORD }, clientIp: ip });
    expect(blocked.status).toBe(429);
    expect(blocked.body.formError).toBe("Too many attempts. Please wait 15 minutes and try again.");
    expect(blocked.setCookie).toBeNull();

    // Counted per account and address together: the owner, elsewhere, is never locked out by them.
    const elsewhere = await call(authRoute.action, "/auth", { form: { intent: "login", email: form.email, password: PASSWORD }, clientIp: freshIp() });
    expect(elsewhere.status).toBe(302);
  });

  it("follows a same-site redirectTo and ignores any other", async () => {
    const { form } = await registerAccount();
    const cases: [string, string][] = [
      ["/ai-quiz", "/ai-quiz?welcome=login"],
      ["/create?x=1", "/create?x=1&welcome=login"],
      ["//evil.example", "/?welcome=login"],
      ["/\\evil.example", "/?welcome=login"],
      ["https://evil.example/", "/?welcome=login"],
      ["javascript:alert(1)", "/?welcome=login"],
      ["/auth", "/?welcome=login"],
    ];
    for (const [redirectTo, expected] of cases) {
      const reply = await call(authRoute.action, `/auth?${new URLSearchParams({ redirectTo })}`, {
        form: { intent: "login", email: form.email, password: PASSWORD },
        clientIp: freshIp(),
      });
      expect(reply.location, redirectTo).toBe(expected);
    }
  });
});

describe("logout", () => {
  it("deletes the session row, so the old cookie no longer resolves a user", async () => {
    const { cookie } = await registerAccount();
    expect(await getUser(contextFor(), request("/", { cookie }))).not.toBeNull();
    const sessionsBefore = await db.selectFrom("sessions").select("id_hash").execute();

    const reply = await call(logoutRoute.action, "/logout", { form: {}, cookie });
    expect(reply.status).toBe(302);
    expect(reply.location).toBe("/");
    expect(reply.setCookie).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
    expect(reply.setCookie).toMatch(/Max-Age=0/i);

    const sessionsAfter = await db.selectFrom("sessions").select("id_hash").execute();
    expect(sessionsAfter).toHaveLength(sessionsBefore.length - 1);
    // The browser kept the old cookie anyway: it no longer means anyone.
    expect(await getUser(contextFor(), request("/", { cookie }))).toBeNull();
    const loader = await call(authRoute.loader, "/auth", { cookie });
    expect(loader.status).toBe(200);
  });

  it("answers a script that asks for JSON with {ok: true} instead of a redirect, ending the session the same way", async () => {
    const { cookie } = await registerAccount();
    const reply = await call(logoutRoute.action, "/logout", { form: {}, cookie, headers: { accept: "application/json" } });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ ok: true });
    expect(reply.setCookie).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
    expect(await getUser(contextFor(), request("/", { cookie }))).toBeNull();
  });
});

describe("a failure the server did not expect", () => {
  // A database that is gone: every query throws, as it would on a full disk or a corrupt file.
  let broken: TempDatabase;
  const logs = captureLogs();
  const brokenContext = () => ({ db: broken.db, hub: null as any, sessionSecret: SECRET, clientIp: freshIp(), limits, logger: logs.logger });

  beforeAll(async () => {
    broken = await openTempDatabase("auth-broken");
    await broken.db.destroy();
  });

  afterAll(() => broken.remove());

  it.each([
    ["login", { intent: "login", email: "sam@example.com", password: PASSWORD }, "Failed to login"],
    ["register", registerForm(), "Failed to register"],
    ["guest", { intent: "guest" }, "Failed to authenticate"],
  ])("a %s answers 500 with the fallback message, keeps what was typed but passwords, and is logged", async (intent, form, message) => {
    const before = logs.lines.length;
    const reply = await call(authRoute.action, "/auth", { form, context: brokenContext() });
    expect(reply.status).toBe(500);
    expect(reply.body).toMatchObject({ intent, fieldErrors: {}, formError: message });
    expect(reply.raw).not.toContain(PASSWORD);
    expect(logs.lines.slice(before)).toEqual([expect.objectContaining({ level: ERROR, event: "auth_failed" })]);
  });

  it("a logout asked for JSON answers 500 with 'Failed to logout'", async () => {
    const { cookie } = await registerAccount();
    const reply = await call(logoutRoute.action, "/logout", { form: {}, cookie, headers: { accept: "application/json" }, context: brokenContext() });
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toEqual({ error: "Failed to logout" });
    expect(reply.setCookie).toBeNull();
  });
});

describe("/auth loader", () => {
  it("sends a signed-in account home", async () => {
    const { cookie } = await registerAccount();
    const reply = await call(authRoute.loader, "/auth?tab=register", { cookie });
    expect(reply.status).toBe(302);
    expect(reply.location).toBe("/");
  });

  it("shows the chosen tab to a signed-out visitor, login by default, and keeps only a safe redirectTo", async () => {
    expect((await call(authRoute.loader, "/auth")).body).toEqual({ tab: "login", redirectTo: null, isGuest: false });
    expect((await call(authRoute.loader, "/auth?tab=register")).body).toMatchObject({ tab: "register" });
    expect((await call(authRoute.loader, "/auth?tab=bogus")).body).toMatchObject({ tab: "login" });
    expect((await call(authRoute.loader, "/auth?redirectTo=%2Fai-quiz")).body).toMatchObject({ redirectTo: "/ai-quiz" });
    expect((await call(authRoute.loader, "/auth?redirectTo=%2F%2Fevil.example")).body).toMatchObject({ redirectTo: null });
  });
});

describe("guests", () => {
  it("'Continue as Guest' starts a guest session and goes home with the guest welcome", async () => {
    const reply = await call(authRoute.action, "/auth", { form: { intent: "guest" } });
    expect(reply.status).toBe(302);
    expect(reply.location).toBe("/?welcome=guest");
    expect(reply.setCookie).toMatch(/; HttpOnly/i);
    const guest = await getUser(contextFor(), request("/", { cookie: cookieFrom(reply.setCookie) }));
    expect(guest).toMatchObject({ isGuest: true, hasPassword: false, email: null });

    // A guest may still open /auth, and continuing again keeps the same guest.
    const cookie = cookieFrom(reply.setCookie);
    const page = await call(authRoute.loader, "/auth", { cookie });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ isGuest: true });
    const again = await call(authRoute.action, "/auth", { form: { intent: "guest" }, cookie });
    expect(again.location).toBe("/?welcome=guest");
    expect(again.setCookie).toBeNull();
  });

  it("a guest who registers keeps its id, and so its quizzes", async () => {
    const guestReply = await call(authRoute.action, "/auth", { form: { intent: "guest" } });
    const guestCookie = cookieFrom(guestReply.setCookie);
    const guest = (await getUser(contextFor(), request("/", { cookie: guestCookie })))!;
    const quiz = await createQuiz(db, { title: "Made as a guest", description: "", timeLimit: 20, isPublic: false }, { userId: guest.id });

    const form = registerForm();
    const reply = await call(authRoute.action, "/auth", { form, cookie: guestCookie });
    expect(reply.status).toBe(302);
    expect(reply.location).toBe("/?welcome=register");
    const account = (await getUser(contextFor(), request("/", { cookie: cookieFrom(reply.setCookie) })))!;
    expect(account).toMatchObject({ id: guest.id, username: form.username, isGuest: false });
    expect((await listOwnQuizzes(db, account.id)).map((own) => own.id)).toContain(quiz.id);
    expect((await userRow(form.username)).password_hash).toMatch(/^\$argon2id\$/);
  });
});
