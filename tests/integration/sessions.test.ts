/**
 * Sessions end when they should, and the login limit can be neither raced nor used to lock an owner
 * out (issue 13, items 7 and 10), over HTTP against the real server. Addresses are told apart by
 * X-Forwarded-For from a trusted local proxy.
 */
import { createHash, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_FAILED_LOGINS } from "#app/auth/auth.server";
import { TEST_SESSION_SECRET, startTestServer, type TestServer } from "./harness";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ trustProxy: ["127.0.0.1"] });
});

afterAll(() => server.stop());

const PASSWORD = "correct horse battery";
let counter = 0;

async function post(pathname: string, form: Record<string, string>, init: { cookie?: string; from?: string } = {}) {
  const response = await fetch(server.url + pathname, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.from ? { "x-forwarded-for": init.from } : {}),
    },
    body: new URLSearchParams(form),
    redirect: "manual",
  });
  const setCookie = response.headers.get("set-cookie");
  return { status: response.status, cookie: setCookie?.startsWith("qn_session=") ? setCookie.split(";")[0] : null, text: await response.text() };
}

/** Who a cookie signs in, as the server sees it now: null when it signs in no one. */
async function whoIs(cookie: string): Promise<number | null> {
  const response = await fetch(`${server.url}/api/auth/quiz-limit`, { headers: { cookie } });
  if (response.status === 401) return null;
  expect(response.status).toBe(200);
  const row = await server.db
    .selectFrom("sessions")
    .select("user_id")
    .where("id_hash", "=", await hashOfCookie(cookie))
    .executeTakeFirstOrThrow();
  return row.user_id;
}

async function hashOfCookie(cookie: string): Promise<string> {
  const id = await createCookie("qn_session", { secrets: [TEST_SESSION_SECRET] }).parse(cookie);
  return createHash("sha256").update(String(id)).digest("hex");
}

function account() {
  counter += 1;
  return { username: `sessions${counter}`, email: `sessions${counter}@example.com` };
}

async function register(from = "192.0.2.1", cookie?: string) {
  const { username, email } = account();
  const reply = await post("/auth", { intent: "register", username, email, password: PASSWORD, confirmPassword: PASSWORD }, { cookie, from });
  expect(reply.status).toBe(302);
  return { email, cookie: reply.cookie! };
}

const login = (email: string, password: string, from: string, cookie?: string) => post("/auth", { intent: "login", email, password }, { from, cookie });

describe("sessions", () => {
  it("a guest who registers gets a new session, and the guest's old cookie (copied on a shared tablet) opens nothing", async () => {
    const guest = await post("/auth", { intent: "guest" }, { from: "192.0.2.10" });
    expect(guest.status).toBe(302);
    const tabletCopy = guest.cookie!;
    const guestId = await whoIs(tabletCopy);
    expect(guestId).not.toBeNull();

    const upgraded = await register("192.0.2.10", tabletCopy);
    expect(upgraded.cookie).not.toBe(tabletCopy);
    expect(await whoIs(upgraded.cookie)).toBe(guestId);
    expect(await whoIs(tabletCopy)).toBeNull();
  });

  it("signing in on a second device leaves the first signed in; this browser's previous session (a guest's) ends", async () => {
    const { email, cookie: laptop } = await register();
    const userId = await whoIs(laptop);
    const phone = await login(email, PASSWORD, "192.0.2.20");
    expect(phone.status).toBe(302);
    expect(await whoIs(phone.cookie!)).toBe(userId);
    // The laptop, hosting a game, is still signed in.
    expect(await whoIs(laptop)).toBe(userId);

    // A guest browsing at a pub signs in to its account there: the guest's session ends, the others go on.
    const guest = await post("/auth", { intent: "guest" }, { from: "192.0.2.21" });
    const signedIn = await login(email, PASSWORD, "192.0.2.21", guest.cookie!);
    expect(signedIn.status).toBe(302);
    expect(await whoIs(guest.cookie!)).toBeNull();
    expect(await whoIs(signedIn.cookie!)).toBe(userId);
    expect(await whoIs(phone.cookie!)).toBe(userId);
    expect(await whoIs(laptop)).toBe(userId);
  });

  it("rotates the session on sign-in: an id the browser had before (planted, or a guest's) never becomes the signed-in one", async () => {
    const { email } = await register();
    // Someone planted a session of theirs in this browser (a guest session they know the cookie of).
    const planted = await post("/auth", { intent: "guest" }, { from: "192.0.2.22" });
    const plantedHash = await hashOfCookie(planted.cookie!);
    const signedIn = await login(email, PASSWORD, "192.0.2.22", planted.cookie!);
    expect(signedIn.status).toBe(302);
    expect(signedIn.cookie).not.toBe(planted.cookie);
    expect(await hashOfCookie(signedIn.cookie!)).not.toBe(plantedHash);
    expect(await whoIs(planted.cookie!)).toBeNull();
    expect(await server.db.selectFrom("sessions").select("id_hash").where("id_hash", "=", plantedHash).executeTakeFirst()).toBeUndefined();

    // Signing in again from a signed-in browser issues yet another id.
    const again = await login(email, PASSWORD, "192.0.2.22", signedIn.cookie!);
    expect(again.cookie).not.toBe(signedIn.cookie);
    expect(await whoIs(signedIn.cookie!)).toBeNull();
    expect(await whoIs(again.cookie!)).not.toBeNull();
  });

  it("'Sign out everywhere' on My Account ends every session of the account, this one included, without JavaScript", async () => {
    const { email, cookie: laptop } = await register();
    const phone = (await login(email, PASSWORD, "192.0.2.23")).cookie!;
    const page = await fetch(`${server.url}/account`, { headers: { cookie: laptop } });
    const html = await page.text();
    expect(html).toMatch(/<button[^>]*name="intent"[^>]*value="sign-out-everywhere"[^>]*>Sign out everywhere<\/button>/);

    const other = await register();
    const reply = await post("/account", { intent: "sign-out-everywhere" }, { cookie: phone });
    expect(reply.status).toBe(302);
    expect(reply.cookie).toBe("qn_session=");
    expect(await whoIs(phone)).toBeNull();
    expect(await whoIs(laptop)).toBeNull();
    // Nobody else's sessions.
    expect(await whoIs(other.cookie)).not.toBeNull();
    // Signing in again works as ever.
    expect((await login(email, PASSWORD, "192.0.2.23")).status).toBe(302);
  });

  it("changing the password reissues this session and ends every other", async () => {
    const { cookie } = await register();
    const userId = (await whoIs(cookie))!;
    // A session from elsewhere that is still open (made as sessions were before this rule).
    const otherId = randomBytes(32).toString("hex");
    await server.db
      .insertInto("sessions")
      .values({ id_hash: createHash("sha256").update(otherId).digest("hex"), user_id: userId, created_at: Date.now(), expires_at: Date.now() + 60_000 })
      .execute();
    const other = (await createCookie("qn_session", { secrets: [TEST_SESSION_SECRET] }).serialize(otherId)).split(";")[0];
    expect(await whoIs(other)).toBe(userId);

    const changed = await post(
      "/account",
      { intent: "change-password", currentPassword: PASSWORD, newPassword: "a brand new one", confirmPassword: "a brand new one" },
      { cookie },
    );
    expect(changed.status).toBe(302);
    expect(changed.cookie).toBeTruthy();
    expect(await whoIs(changed.cookie!)).toBe(userId);
    expect(await whoIs(cookie)).toBeNull();
    expect(await whoIs(other)).toBeNull();
  });
});

describe("the login limit", () => {
  it(`cannot be raced: of 300 guesses sent at once, at most ${MAX_FAILED_LOGINS} reach the password check`, { timeout: 60_000 }, async () => {
    const { email } = await register("192.0.2.30");
    const replies = await Promise.all(Array.from({ length: 300 }, (_, i) => login(email, `guess-${i}`, "198.51.100.30")));
    const checked = replies.filter((reply) => reply.status === 401).length;
    const refused = replies.filter((reply) => reply.status === 429).length;
    expect(checked).toBeLessThanOrEqual(MAX_FAILED_LOGINS);
    expect(checked + refused).toBe(300);
    expect((await login(email, PASSWORD, "198.51.100.30")).status).toBe(429);
  });

  it("cannot lock the owner out: failures from another address leave the owner's own address alone", async () => {
    const { email } = await register("192.0.2.40");
    for (let i = 0; i < MAX_FAILED_LOGINS + 5; i++) await login(email, `nope-${i}`, "203.0.113.66");
    expect((await login(email, PASSWORD, "203.0.113.66")).status).toBe(429);
    const owner = await login(email, PASSWORD, "192.0.2.40");
    expect(owner.status).toBe(302);
    expect(owner.cookie).toBeTruthy();
  });

  it("forgets an address's failures on that account once it signs in", async () => {
    const { email } = await register("192.0.2.50");
    for (let i = 0; i < MAX_FAILED_LOGINS - 1; i++) expect((await login(email, `typo-${i}`, "192.0.2.50")).status).toBe(401);
    expect((await login(email, PASSWORD, "192.0.2.50")).status).toBe(302);
    for (let i = 0; i < MAX_FAILED_LOGINS - 1; i++) expect((await login(email, `typo-again-${i}`, "192.0.2.50")).status).toBe(401);
    expect((await login(email, PASSWORD, "192.0.2.50")).status).toBe(302);
  });
});

describe("the registration limit (issue 26)", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ trustProxy: ["127.0.0.1"], limits: { registrationsPerIpPerHour: 2 } });
  });
  afterAll(() => limited.stop());

  async function registerAt(from: string, username: string, email: string) {
    const response = await fetch(`${limited.url}/auth`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": from },
      body: new URLSearchParams({ intent: "register", username, email, password: PASSWORD, confirmPassword: PASSWORD }),
      redirect: "manual",
    });
    const html = (await response.text()).replaceAll("&#x27;", "'");
    // What the form says: its one message, and whether a field (the email, the username) is marked wrong.
    const formError = /class="form-error" role="alert">([^<]*)</.exec(html)?.[1] ?? null;
    return { status: response.status, formError, fieldMarked: html.includes('aria-invalid="true"') };
  }

  it("past its limit says 'too many' whatever the email, so it cannot be used to learn which emails have accounts", async () => {
    expect((await registerAt("198.51.100.70", "known70", "known70@example.com")).status).toBe(302);
    expect((await registerAt("198.51.100.70", "other70", "other70@example.com")).status).toBe(302);
    for (const [username, email] of [
      ["fresh70", "fresh70@example.com"],
      ["fresh71", "known70@example.com"],
      ["known70", "fresh72@example.com"],
    ]) {
      const refused = await registerAt("198.51.100.70", username, email);
      expect(refused).toEqual({ status: 429, formError: expect.stringMatching(/^Too many accounts were registered from your network\./), fieldMarked: false });
    }
  });

  it("counts an attempt that finds the email taken, so asking about emails spends the limit too", async () => {
    const taken = await registerAt("198.51.100.71", "probe71", "known70@example.com");
    expect(taken).toMatchObject({ status: 409, fieldMarked: true });
    expect((await registerAt("198.51.100.71", "probe72", "known70@example.com")).status).toBe(409);
    const refused = await registerAt("198.51.100.71", "probe73", "known70@example.com");
    expect(refused).toEqual({ status: 429, formError: expect.stringMatching(/^Too many accounts/), fieldMarked: false });
  });
});
