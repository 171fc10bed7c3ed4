/**
 * The browser's half of Google sign-in after the popup: trading the ID token for our own session
 * (GET /api/auth/me, then POST /api/auth/register on 404), and the message each failure shows.
 * The real server's answers are exercised in tests/integration/google.test.ts.
 */
import { describe, expect, it } from "vitest";
import { exchangeGoogleToken, GOOGLE_LOGIN_FALLBACK, welcomeAfterGoogle } from "#app/auth/google-session";
import { WELCOME_TOASTS } from "#app/components/flash-toasts";
import englishCommon from "#app/locales/en/common.json";

/** The toast `?welcome=PARAM` shows, in English, from the common catalog. */
function englishWelcome(param: string): { title: string; description: string } {
  const key = WELCOME_TOASTS[param as keyof typeof WELCOME_TOASTS];
  const words = (englishCommon.flash as Record<string, { title: string; text: string }>)[key];
  return { title: words.title, description: words.text };
}

const PROFILE = { displayName: "Ada Lovelace", email: "ada@example.com" };
const USER = { id: 7, username: "Ada Lovelace", displayName: "Ada Lovelace", isGuest: false, remainingQuizzes: 10 };

type Answer = Response | Error;

/** A fetch that answers each call with the next of `answers`, recording what was asked. */
function fakeFetch(...answers: Answer[]) {
  const calls: { url: string; method: string; authorization: string | null }[] = [];
  const request = async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    calls.push({ url: String(input), method: init?.method ?? "GET", authorization: headers.get("authorization") });
    const next = answers.shift();
    if (!next) throw new Error("unexpected call");
    if (next instanceof Error) throw next;
    return next;
  };
  return { request, calls };
}

const json = (status: number, body: unknown) => Response.json(body, { status });
const html = (status: number) => new Response("<html><body>Bad Gateway</body></html>", { status, headers: { "content-type": "text/html" } });

describe("exchangeGoogleToken", () => {
  it("signs a registered Google user back in", async () => {
    const { request, calls } = fakeFetch(json(200, USER));
    await expect(exchangeGoogleToken("token-1", PROFILE, request)).resolves.toBe("returning");
    expect(calls).toEqual([{ url: "/api/auth/me", method: "GET", authorization: "Bearer token-1" }]);
  });

  it("registers a Google user the server does not know", async () => {
    const { request, calls } = fakeFetch(json(404, { error: "Not registered" }), json(201, USER));
    await expect(exchangeGoogleToken("token-2", PROFILE, request)).resolves.toBe("new");
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(["GET /api/auth/me", "POST /api/auth/register"]);
  });

  it.each([
    [
      "a 409 from register",
      [json(404, { error: "Not registered" }), json(409, { error: "This Google account is already registered." })],
      "This Google account is already registered.",
    ],
    ["a 401 from me", [json(401, { error: "Failed to authenticate" })], "Failed to authenticate"],
    ["a 503 when Firebase is not set up", [json(503, { error: "Authentication system unavailable" })], "Authentication system unavailable"],
    [
      "a 429 from register",
      [json(404, { error: "Not registered" }), json(429, { error: "Too many accounts. Try again in 5 minutes." })],
      "Too many accounts. Try again in 5 minutes.",
    ],
  ])("keeps the server's own message for %s", async (_label, answers, message) => {
    const { request } = fakeFetch(...answers);
    await expect(exchangeGoogleToken("t", PROFILE, request)).rejects.toThrow(message);
  });

  it.each([
    ["a 500 from me", [json(500, { error: "Something went wrong on the server. Please try again." })]],
    ["a 502 page from a proxy", [html(502)]],
    ["a 200 that is not a user", [html(200)]],
    ["a 200 with another JSON body", [json(200, { ok: true })]],
    ["a 500 from register", [json(404, { error: "Not registered" }), json(500, { error: "Something went wrong on the server. Please try again." })]],
    ["a 201 from register that is not a user", [json(404, { error: "Not registered" }), html(201)]],
    ["a 404 from me that is not ours", [html(404)]],
  ])("says 'Failed to login with Google' for %s", async (_label, answers) => {
    const { request } = fakeFetch(...answers);
    await expect(exchangeGoogleToken("t", PROFILE, request)).rejects.toThrow(GOOGLE_LOGIN_FALLBACK);
  });

  it("keeps the code and values the server raised its refusal with, and the fallback's own", async () => {
    const limited = {
      error: "Too many accounts were registered from your network. Please try again in 5 minutes.",
      code: "LIMIT_REGISTRATIONS",
      values: { wait: "5 minutes" },
    };
    const { request } = fakeFetch(json(404, { error: "Not registered" }), json(429, limited));
    await expect(exchangeGoogleToken("t", PROFILE, request)).rejects.toMatchObject({
      message: limited.error,
      error: { code: "LIMIT_REGISTRATIONS", values: { wait: "5 minutes" } },
    });
    const { request: failing } = fakeFetch(html(502));
    await expect(exchangeGoogleToken("t", PROFILE, failing)).rejects.toMatchObject({
      message: GOOGLE_LOGIN_FALLBACK,
      error: { code: "GOOGLE_LOGIN_FALLBACK" },
    });
    const { request: bare } = fakeFetch(json(401, { error: "Failed to authenticate" }));
    await expect(exchangeGoogleToken("t", PROFILE, bare)).rejects.toMatchObject({ message: "Failed to authenticate", error: null });
  });

  it("lets a request that never reached the server fail as a network error", async () => {
    const { request } = fakeFetch(new TypeError("Failed to fetch"));
    await expect(exchangeGoogleToken("t", PROFILE, request)).rejects.toBeInstanceOf(TypeError);
  });
});

describe("welcomeAfterGoogle (docs/product.md#messages)", () => {
  it("welcomes a returning Google user back, and a first one without the 'back'", () => {
    const back = new URL(welcomeAfterGoogle("returning"), "http://x").searchParams.get("welcome")!;
    const first = new URL(welcomeAfterGoogle("new"), "http://x").searchParams.get("welcome")!;
    expect(englishWelcome(back)).toEqual({ title: "Login successful", description: "Welcome back!" });
    expect(englishWelcome(first)).toEqual({ title: "Login successful", description: "Welcome!" });
  });
});
