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
import { ApiError } from "./api.server";
import { GOOGLE_NOT_CONFIGURED } from "./google-errors";

export const FAILED_TO_AUTHENTICATE = "Failed to authenticate";
export const AUTH_UNAVAILABLE = "Authentication system unavailable";

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

function adminApp(projectId: string): App {
  const emulator = setting("FIREBASE_AUTH_EMULATOR_HOST");
  if (emulator && setting("NODE_ENV") === "production") {
    if (!warnedEmulatorInProduction) {
      warnedEmulatorInProduction = true;
      console.warn("[auth] FIREBASE_AUTH_EMULATOR_HOST is set while NODE_ENV=production; Google sign-in is refused until it is removed.");
    }
    throw new ApiError(503, AUTH_UNAVAILABLE);
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

/**
 * The Google identity behind the request's `Authorization: Bearer <Firebase ID token>`.
 * Throws ApiError 503 when Firebase is not configured, 401 'Failed to authenticate' for a missing,
 * malformed, expired, revoked or foreign token.
 */
export async function verifyGoogleToken(request: Request): Promise<GoogleIdentity> {
  const projectId = firebaseProjectId();
  if (!projectId) throw new ApiError(503, GOOGLE_NOT_CONFIGURED);
  const token = bearerToken(request);
  if (!token || token.length > 8192) throw new ApiError(401, FAILED_TO_AUTHENTICATE);
  const app = adminApp(projectId);
  let decoded: Awaited<ReturnType<ReturnType<typeof getAuth>["verifyIdToken"]>>;
  try {
    decoded = await getAuth(app).verifyIdToken(token);
  } catch (error) {
    if (isOutage(error)) {
      console.warn("[auth] could not check a Google token:", error instanceof Error ? error.message : error);
      throw new ApiError(503, AUTH_UNAVAILABLE);
    }
    throw new ApiError(401, FAILED_TO_AUTHENTICATE);
  }
  const name = typeof decoded.name === "string" && decoded.name.trim() ? decoded.name.trim() : null;
  return {
    uid: decoded.uid,
    email: decoded.email ? decoded.email.trim().toLowerCase() : null,
    emailVerified: decoded.email_verified === true,
    name,
  };
}
