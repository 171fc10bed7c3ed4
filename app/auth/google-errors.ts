/**
 * Pure helpers for Google sign-in, shared by the browser button and the server (no Firebase
 * import here, so the unit tests and the initial bundle stay free of the SDK).
 */
import { appError, type AppError, type ErrorCode } from "#app/i18n/app-error";

export const GOOGLE_NOT_CONFIGURED = "Google login requires Firebase configuration. Please use email/password login or contact support.";
/** The server's refusals of a Google ID token (app/auth/firebase.server.ts); also what a failed guest session says (app/routes/auth.tsx). */
export const FAILED_TO_AUTHENTICATE = "Failed to authenticate";
export const AUTH_UNAVAILABLE = "Authentication system unavailable";
export const GOOGLE_UNAUTHORIZED_DOMAIN = "This domain is not authorized for Google login. Please use email/password login instead.";
export const GOOGLE_POPUP_BLOCKED = "Popup was blocked. Please allow popups and try again.";
export const GOOGLE_CANCELLED = "Login was cancelled. Please try again.";
export const GOOGLE_NETWORK_ERROR = "Network error. Please check your connection and try again.";
export const GOOGLE_FALLBACK = "Google login failed. Please try email/password login.";
/** Toast description when an error carries no message at all (docs/product.md#messages). */
export const SOMETHING_WENT_WRONG = "Something went wrong";

const MESSAGES: Record<string, string> = {
  "auth/unauthorized-domain": GOOGLE_UNAUTHORIZED_DOMAIN,
  "auth/popup-blocked": GOOGLE_POPUP_BLOCKED,
  "auth/popup-closed-by-user": GOOGLE_CANCELLED,
  "auth/cancelled-popup-request": GOOGLE_CANCELLED,
  "auth/user-cancelled": GOOGLE_CANCELLED,
  "auth/network-request-failed": GOOGLE_NETWORK_ERROR,
  "auth/invalid-api-key": GOOGLE_NOT_CONFIGURED,
  "auth/configuration-not-found": GOOGLE_NOT_CONFIGURED,
};

/** Each message's code in the errors catalog; a missing configuration is the account catalog's to word (`google.notConfigured`). */
const CODES = {
  [GOOGLE_UNAUTHORIZED_DOMAIN]: "GOOGLE_UNAUTHORIZED_DOMAIN",
  [GOOGLE_POPUP_BLOCKED]: "GOOGLE_POPUP_BLOCKED",
  [GOOGLE_CANCELLED]: "GOOGLE_CANCELLED",
  [GOOGLE_NETWORK_ERROR]: "GOOGLE_NETWORK_ERROR",
  [GOOGLE_FALLBACK]: "GOOGLE_LOGIN_FAILED",
} as const satisfies Record<string, ErrorCode>;

/**
 * The refusal for a Firebase Auth error code from the Google popup, raised with its code
 * (docs/decisions/0047-errors-as-codes.md): its English and `error`, which is null for a missing
 * configuration (the account catalog words it).
 */
export function googleError(code: string | undefined): { english: string; error: AppError | null } {
  const english = googleErrorMessage(code);
  return { english, error: Object.hasOwn(CODES, english) ? appError(CODES[english as keyof typeof CODES]) : null };
}

/** The message to show for a Firebase Auth error code from the Google popup (docs/product.md#messages). */
export function googleErrorMessage(code: string | undefined): string {
  return (code && Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : undefined) ?? GOOGLE_FALLBACK;
}

const USERNAME_MAX = 30;
const USERNAME_MIN = 3;

/** Display names may hold anything; keep what a username allows (see UsernameSchema), at most 30 long. */
function cleanUsername(raw: string | null | undefined): string {
  const kept = (raw ?? "")
    .normalize("NFKC")
    .replace(/\s+/gu, " ")
    .replace(/[^\p{L}\p{N}_.\- ]+/gu, "")
    .replace(/ {2,}/g, " ")
    .trim();
  let result = "";
  for (const char of kept) {
    if (result.length + char.length > USERNAME_MAX) break;
    result += char;
  }
  return result.trim();
}

/** The first candidate that is still a valid username (3+ characters) once cleaned, else 'user'. */
export function pickUsername(candidates: readonly (string | null | undefined)[]): string {
  for (const candidate of candidates) {
    const cleaned = cleanUsername(candidate);
    if (cleaned.length >= USERNAME_MIN) return cleaned;
  }
  return "user";
}

/**
 * The username a Google user registers with (docs/product.md#http-api): the display name, else the part of
 * the email before the @, else 'user'. Each candidate is cleaned to what a username may contain;
 * one shorter than 3 characters after cleaning falls through to the next.
 */
export function googleUsername(displayName: string | null | undefined, email: string | null | undefined): string {
  return pickUsername([displayName, email?.split("@")[0]]);
}
