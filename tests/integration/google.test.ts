/**
 * Google sign-in against the real server: GET /api/auth/me and POST /api/auth/register with
 * Firebase ID tokens. Nothing contacts Google: with FIREBASE_AUTH_EMULATOR_HOST set, firebase-admin
 * accepts unsigned Auth Emulator tokens, then asks the emulator whether the user is disabled or its
 * tokens revoked (accounts:lookup). A tiny stand-in for the emulator on 127.0.0.1 answers that.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, createGuest } from "#app/models/user.server";
import { startSession } from "#app/sessions/session.server";
import { exchangeGoogleToken, welcomeAfterGoogle } from "#app/auth/google-session";
import { WELCOME_TOASTS } from "#app/components/flash-toasts";
import { startTestServer, type TestServer } from "./harness";
import englishCommon from "#app/locales/en/common.json";

/** The toast `?welcome=PARAM` shows, in English, from the common catalog. */
function englishWelcome(param: string): { title: string; description: string } {
  const key = WELCOME_TOASTS[param as keyof typeof WELCOME_TOASTS];
  const words = (englishCommon.flash as Record<string, { title: string; text: string }>)[key];
  return { title: words.title, description: words.text };
}

const PROJECT_ID = "demo-quiz-night";
const SESSION_SECRET = "integration-test-session-secret-0123456789"; // the harness's
const NOT_CONFIGURED = "Google login requires Firebase configuration. Please use email/password login or contact support.";
const DISABLED_UID = "google-disabled-user";

const ENV_KEYS = ["FIREBASE_PROJECT_ID", "FIREBASE_AUTH_EMULATOR_HOST", "NODE_ENV"] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
function restoreEnv(): void {
  const env = process.env as Record<string, string | undefined>;
  for (const key of ENV_KEYS) {
    if (savedEnv[key] === undefined) delete env[key];
    else env[key] = savedEnv[key];
  }
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

interface TokenClaims {
  uid: string;
  email?: string;
  name?: string;
  emailVerified?: boolean;
  projectId?: string;
  expiresInSeconds?: number;
}

/** An unsigned ID token shaped like the Firebase Auth Emulator's (firebase-admin token-verifier.js). */
function emulatorToken({ uid, email, name, emailVerified = true, projectId = PROJECT_ID, expiresInSeconds = 3600 }: TokenClaims): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: `https://securetoken.google.com/${projectId}`,
    aud: projectId,
    auth_time: now - 5,
    iat: now - 5,
    exp: now + expiresInSeconds,
    sub: uid,
    user_id: uid,
    ...(email ? { email, email_verified: emailVerified } : {}),
    ...(name ? { name } : {}),
    firebase: {
      sign_in_provider: "google.com",
      identities: { "google.com": [`g-${uid}`], ...(email ? { email: [email] } : {}) },
    },
  };
  return `${base64url({ alg: "none", typ: "JWT" })}.${base64url(payload)}.`;
}

/** Stands in for the Auth Emulator's accounts:lookup, the only call firebase-admin makes here. */
async function startFakeEmulator(): Promise<{ host: string; lookups: string[]; close(): Promise<void> }> {
  const lookups: string[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const expected = `/identitytoolkit.googleapis.com/v1/projects/${PROJECT_ID}/accounts:lookup`;
      if (req.method !== "POST" || req.url !== expected) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "NOT_FOUND" } }));
        return;
      }
      const uid = (JSON.parse(raw) as { localId?: string[] }).localId?.[0] ?? "";
      lookups.push(uid);
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ kind: "identitytoolkit#GetAccountInfoResponse", users: [{ localId: uid, disabled: uid === DISABLED_UID }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    lookups,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface CallResult {
  status: number;
  body: any;
  setCookie: string | null;
}

async function call(server: TestServer, path: string, init: { token?: string; body?: unknown; cookie?: string } = {}): Promise<CallResult> {
  const headers: Record<string, string> = {};
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  if (init.cookie) headers.cookie = init.cookie;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(server.url + path, {
    method: init.body === undefined ? "GET" : "POST",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: await response.json(), setCookie: response.headers.get("set-cookie") };
}

function welcomeParam(path: string): string {
  return new URL(path, "http://x").searchParams.get("welcome") ?? "";
}

/** `qn_session=<value>` from a Set-Cookie header, for sending back. */
function sessionCookie(setCookie: string | null): string {
  const match = /(?:^|,\s*)(qn_session=[^;]+)/.exec(setCookie ?? "");
  expect(match, `expected a qn_session cookie in ${setCookie}`).not.toBeNull();
  return match![1];
}

describe("Google sign-in with Firebase configured", () => {
  let server: TestServer;
  let emulator: Awaited<ReturnType<typeof startFakeEmulator>>;

  beforeAll(async () => {
    emulator = await startFakeEmulator();
    process.env.FIREBASE_PROJECT_ID = PROJECT_ID;
    process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
    server = await startTestServer();
  });

  afterAll(async () => {
    await server?.stop();
    await emulator?.close();
    restoreEnv();
  });

  const ada = { uid: "google-ada", email: "ada@example.com", name: "Ada Lovelace" };

  it("answers 401 'Failed to authenticate' without a bearer token", async () => {
    for (const path of ["/api/auth/me", "/api/auth/register"]) {
      const response = await server.api(path, path.endsWith("register") ? { body: { username: "Ada", email: "a@example.com" } } : {});
      expect(response).toEqual({ status: 401, body: { error: "Failed to authenticate" } });
    }
    const notBearer = await server.api("/api/auth/me", { headers: { authorization: "Basic YWRhOnB3" } });
    expect(notBearer.status).toBe(401);
  });

  it.each([
    ["garbage", "not-a-token"],
    ["a token with a forged signature", `${emulatorToken(ada)}c2lnbmF0dXJl`],
    ["a token for another project", emulatorToken({ ...ada, projectId: "someone-elses-project" })],
    ["an expired token", emulatorToken({ ...ada, expiresInSeconds: -60 })],
    ["a token of a disabled user", emulatorToken({ uid: DISABLED_UID, email: "off@example.com", name: "Off" })],
  ])("answers 401 for %s", async (_label, token) => {
    const me = await server.api("/api/auth/me", { headers: { authorization: `Bearer ${token}` } });
    expect(me).toEqual({ status: 401, body: { error: "Failed to authenticate" } });
    const register = await server.api("/api/auth/register", {
      headers: { authorization: `Bearer ${token}` },
      body: { username: "Someone", email: "someone@example.com" },
    });
    expect(register).toEqual({ status: 401, body: { error: "Failed to authenticate" } });
  });

  it("registers a new Google user, signs them in, and finds them again", async () => {
    const token = emulatorToken(ada);
    const before = await server.api("/api/auth/me", { headers: { authorization: `Bearer ${token}` } });
    expect(before).toEqual({ status: 404, body: { error: "Not registered" } });

    const registered = await call(server, "/api/auth/register", { token, body: { username: "Ada Lovelace", email: "ignored@example.com" } });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({
      id: expect.any(Number),
      username: "Ada Lovelace",
      displayName: "Ada Lovelace",
      email: "ada@example.com", // from the token, not the body
      subscriptionTier: "free",
      isGuest: false,
      hasPassword: false,
      remainingQuizzes: expect.any(Number),
    });
    expect(registered.setCookie).toMatch(/qn_session=.+; .*HttpOnly/i);

    // The cookie is a live session.
    const limit = await call(server, "/api/auth/quiz-limit", { cookie: sessionCookie(registered.setCookie) });
    expect(limit.status).toBe(200);

    const me = await call(server, "/api/auth/me", { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: registered.body.id, username: "Ada Lovelace", email: "ada@example.com" });
    expect(sessionCookie(me.setCookie)).not.toBe(sessionCookie(registered.setCookie));
    const limitAgain = await call(server, "/api/auth/quiz-limit", { cookie: sessionCookie(me.setCookie) });
    expect(limitAgain.status).toBe(200);

    // firebase-admin checked the emulator (revocation / disabled) and nothing else.
    expect(emulator.lookups).toContain(ada.uid);
  });

  it("is welcomed on a first sign-in and welcomed back on the next, as the browser's exchange sees it", async () => {
    // The browser's own code (app/auth/google-session.ts), with its relative URLs sent to this server.
    const request = (path: string, init?: RequestInit) => fetch(server.url + path, init);
    const token = emulatorToken({ uid: "google-welcome", email: "welcome@example.com", name: "Wendy Welcome" });
    const profile = { displayName: "Wendy Welcome", email: "welcome@example.com" };
    const first = await exchangeGoogleToken(token, profile, request);
    expect(first).toBe("new");
    expect(englishWelcome(welcomeParam(welcomeAfterGoogle(first))).description).toBe("Welcome!");
    const next = await exchangeGoogleToken(token, profile, request);
    expect(next).toBe("returning");
    expect(englishWelcome(welcomeParam(welcomeAfterGoogle(next)))).toEqual({ title: "Login successful", description: "Welcome back!" });
  });

  it("refuses to register the same Google account twice with 409", async () => {
    const again = await server.api("/api/auth/register", {
      headers: { authorization: `Bearer ${emulatorToken(ada)}` },
      body: { username: "Ada Lovelace", email: "ada@example.com" },
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already registered/);
  });

  it("gives a second user whose display name is taken a unique username", async () => {
    const second = await server.api("/api/auth/register", {
      headers: { authorization: `Bearer ${emulatorToken({ uid: "google-ada-2", email: "ada2@example.com", name: "Ada Lovelace" })}` },
      body: { username: "Ada Lovelace", email: "ada2@example.com" },
    });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ username: "Ada Lovelace2", email: "ada2@example.com", displayName: "Ada Lovelace" });

    const third = await server.api("/api/auth/register", {
      headers: { authorization: `Bearer ${emulatorToken({ uid: "google-ada-3", email: "ada3@example.com", name: "ADA LOVELACE" })}` },
      body: { username: "ADA LOVELACE", email: "ada3@example.com" },
    });
    expect(third.status).toBe(201);
    expect(third.body.username).toBe("ADA LOVELACE3");
  });

  it("cleans the username and falls back to the token's name, then the email", async () => {
    const messy = await server.api("/api/auth/register", {
      headers: { authorization: `Bearer ${emulatorToken({ uid: "google-sean", email: "sean@example.com", name: "Seán O'Brien" })}` },
      body: { username: "Seán O'Brien 🎉", email: "sean@example.com" },
    });
    expect(messy.status).toBe(201);
    expect(messy.body.username).toBe("Seán OBrien");

    const noName = await server.api("/api/auth/register", {
      headers: { authorization: `Bearer ${emulatorToken({ uid: "google-grace", email: "grace.h@example.com" })}` },
      body: { email: "grace.h@example.com" },
    });
    expect(noName.status).toBe(201);
    expect(noName.body).toMatchObject({ username: "grace.h", displayName: null });
  });

  it("refuses a Google email that a password account already uses, and an unverified one", async () => {
    await createAccount(server.db, { username: "turing", email: "alan@example.com", password: "secret-password" });
    const taken = await server.api("/api/auth/register", {
      headers: { authorization: `Bearer ${emulatorToken({ uid: "google-alan", email: "Alan@Example.com", name: "Alan Turing" })}` },
      body: { username: "Alan Turing", email: "alan@example.com" },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatch(/An account with this email already exists/);

    const unverified = await server.api("/api/auth/register", {
      headers: { authorization: `Bearer ${emulatorToken({ uid: "google-unverified", email: "new@example.com", name: "New", emailVerified: false })}` },
      body: { username: "New person", email: "new@example.com" },
    });
    expect(unverified.status).toBe(400);
    expect(unverified.body.error).toMatch(/not verified/);
  });

  it("answers 400 for a body of the wrong shape", async () => {
    const response = await server.api("/api/auth/register", {
      headers: { authorization: `Bearer ${emulatorToken({ uid: "google-bad-body", email: "bad@example.com", name: "Bad Body" })}` },
      body: { username: 42 },
    });
    expect(response.status).toBe(400);
    expect(response.body.fieldErrors.username).toBeDefined();
  });

  it("turns the current guest into the Google account, keeping its id", async () => {
    const guest = await createGuest(server.db);
    const fakeRequest = new Request(server.url);
    const guestCookie = sessionCookie(await startSession({ db: server.db, sessionSecret: SESSION_SECRET }, fakeRequest, guest.id));
    const registered = await call(server, "/api/auth/register", {
      token: emulatorToken({ uid: "google-guest", email: "guest@example.com", name: "Former Guest" }),
      body: { username: "Former Guest", email: "guest@example.com" },
      cookie: guestCookie,
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ id: guest.id, username: "Former Guest", isGuest: false, email: "guest@example.com" });
  });

  it("refuses emulator tokens when NODE_ENV is production", async () => {
    (process.env as Record<string, string>).NODE_ENV = "production";
    try {
      const response = await server.api("/api/auth/me", { headers: { authorization: `Bearer ${emulatorToken(ada)}` } });
      expect(response).toEqual({ status: 503, body: { error: "Authentication system unavailable" } });
    } finally {
      restoreEnv();
      process.env.FIREBASE_PROJECT_ID = PROJECT_ID;
      process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
    }
  });

  it("answers 405 for the wrong method", async () => {
    expect((await server.api("/api/auth/register")).status).toBe(405);
    expect((await server.api("/api/auth/me", { body: {} })).status).toBe(405);
  });
});

describe("Google registration past its limit (issue 26)", () => {
  let server: TestServer;
  let emulator: Awaited<ReturnType<typeof startFakeEmulator>>;

  beforeAll(async () => {
    emulator = await startFakeEmulator();
    process.env.FIREBASE_PROJECT_ID = PROJECT_ID;
    process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
    server = await startTestServer({ limits: { registrationsPerIpPerHour: 1 } });
  });

  afterAll(async () => {
    await server?.stop();
    await emulator?.close();
    restoreEnv();
  });

  const registerAs = (claims: TokenClaims) =>
    server.api("/api/auth/register", { headers: { authorization: `Bearer ${emulatorToken(claims)}` }, body: { username: claims.name ?? "Someone" } });

  it("says 'too many' whatever the email: taken by a password account, registered with Google already, or new", async () => {
    await createAccount(server.db, { username: "hopper", email: "grace@example.com", password: "secret-password" });
    const first = await registerAs({ uid: "google-first", email: "first@example.com", name: "First" });
    expect(first.status).toBe(201);
    for (const claims of [
      { uid: "google-grace", email: "grace@example.com", name: "Grace" },
      { uid: "google-first", email: "first@example.com", name: "First" },
      { uid: "google-new", email: "new-one@example.com", name: "New One" },
    ]) {
      const refused = await registerAs(claims);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatch(/^Too many accounts were registered from your network\./);
    }
  });
});

describe("Google sign-in without Firebase configuration", () => {
  let server: TestServer;

  beforeAll(async () => {
    delete process.env.FIREBASE_PROJECT_ID;
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    server = await startTestServer();
  });

  afterAll(async () => {
    await server?.stop();
    restoreEnv();
  });

  it("answers 503 with the configuration message on both endpoints", async () => {
    const token = emulatorToken({ uid: "google-ada", email: "ada@example.com", name: "Ada Lovelace" });
    const me = await server.api("/api/auth/me", { headers: { authorization: `Bearer ${token}` } });
    expect(me).toEqual({ status: 503, body: { error: NOT_CONFIGURED } });
    const register = await server.api("/api/auth/register", {
      headers: { authorization: `Bearer ${token}` },
      body: { username: "Ada Lovelace", email: "ada@example.com" },
    });
    expect(register).toEqual({ status: 503, body: { error: NOT_CONFIGURED } });
    const noToken = await server.api("/api/auth/me");
    expect(noToken.status).toBe(503);
  });
});
