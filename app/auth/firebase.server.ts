/**
 * Google sign-in, server side: checks the Firebase ID token the browser got from the Google popup.
 *
 * One named firebase-admin app per project id, created on first use with only `projectId`: checking
 * an ID token needs no service account (firebase-admin fetches Google's public signing keys). With
 * FIREBASE_AUTH_EMULATOR_HOST set (tests, local development) firebase-admin accepts the Auth
 * Emulator's unsigned tokens and looks the user up in that emulator instead; that is refused when
 * NODE_ENV is production, where it would let anyone forge a token.
 */
import { getApps, initializeApp, type App } from "firebase-admin/app";
import { getAuth } from "firebase-admin/auth";
import type { Logger } from "#server/logger";
import { AUTH_UNAVAILABLE, FAILED_TO_AUTHENTICATE, GOOGLE_NOT_CONFIGURED } from "./google-errors";

export { AUTH_UNAVAILABLE, FAILED_TO_AUTHENTICATE };

/**
 * Why no identity: Google sign-in is off here, Google (or the emulator) could not be asked, or the
 * token is missing, malformed, expired, revoked or foreign. api.server gives each its status.
 */
export type GoogleTokenFailure = "not-configured" | "unavailable" | "invalid-token";

export type GoogleTokenResult = { ok: true; identity: GoogleIdentity } | { ok: false; reason: GoogleTokenFailure; message: string };

export interface GoogleIdentity {
  uid: string;
  /** From the token: the address Google vouches for, or null when the account shares none. */
  email: string | null;
  emailVerified: boolean;
  /** The Google display name, if any. */
  name: string | null;
}

/** Read at call time (not at import), so configuration changes need no rebuild. */
function setting(name: string): string | undefined {
  const value = process.env[name]?.trim();
  return value ? value : undefined;
}

/** Whether the server can check Google tokens at all (FIREBASE_PROJECT_ID is set). */
export function firebaseProjectId(): string | undefined {
  return setting("FIREBASE_PROJECT_ID");
}

let warnedEmulatorInProduction = false;

/** null while the emulator is set in production. */
function adminApp(projectId: string, log: Logger): App | null {
  const emulator = setting("FIREBASE_AUTH_EMULATOR_HOST");
  if (emulator && setting("NODE_ENV") === "production") {
    if (!warnedEmulatorInProduction) {
      warnedEmulatorInProduction = true;
      log.warn(
        { event: "google_emulator_in_production" },
        "FIREBASE_AUTH_EMULATOR_HOST is set while NODE_ENV=production; Google sign-in is refused until it is removed.",
      );
    }
    return null;
  }
  // The emulator host is part of the name: firebase-admin fixes its endpoints when the app's Auth is created.
  const name = `quiz-night:${projectId}:${emulator ?? "google"}`;
  return getApps().find((app) => app.name === name) ?? initializeApp({ projectId }, name);
}

function bearerToken(request: Request): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return match ? match[1] : null;
}

/** An error from reaching Google (or the emulator) rather than from the token itself. */
function isOutage(error: unknown): boolean {
  const code = typeof error === "object" && error && "code" in error ? String((error as { code: unknown }).code) : "";
  return code === "auth/internal-error" || code.startsWith("app/");
}

const INVALID_TOKEN = { ok: false, reason: "invalid-token", message: FAILED_TO_AUTHENTICATE } as const;
const UNAVAILABLE = { ok: false, reason: "unavailable", message: AUTH_UNAVAILABLE } as const;

/** The Google identity behind the request's `Authorization: Bearer <Firebase ID token>`. */
export async function verifyGoogleToken(request: Request, log: Logger): Promise<GoogleTokenResult> {
  const projectId = firebaseProjectId();
  if (!projectId) return { ok: false, reason: "not-configured", message: GOOGLE_NOT_CONFIGURED };
  const token = bearerToken(request);
  if (!token || token.length > 8192) return INVALID_TOKEN;
  const app = adminApp(projectId, log);
  if (!app) return UNAVAILABLE;
  let decoded: Awaited<ReturnType<ReturnType<typeof getAuth>["verifyIdToken"]>>;
  try {
    decoded = await getAuth(app).verifyIdToken(token);
  } catch (error) {
    if (isOutage(error)) {
      log.warn({ event: "google_unavailable", reason: error instanceof Error ? error.message : String(error) }, "could not check a Google token");
      return UNAVAILABLE;
    }
    return INVALID_TOKEN;
  }
  const name = typeof decoded.name === "string" && decoded.name.trim() ? decoded.name.trim() : null;
  return {
    ok: true,
    identity: {
      uid: decoded.uid,
      email: decoded.email ? decoded.email.trim().toLowerCase() : null,
      emailVerified: decoded.email_verified === true,
      name,
    },
  };
}
