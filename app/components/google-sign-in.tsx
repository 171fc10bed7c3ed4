/**
 * 'Continue with Google' (docs/product.md#accounts). The Firebase web SDK is loaded only when the
 * button is approached or clicked, so it stays out of the initial bundle. The popup's ID token is
 * traded for our own session (app/auth/google-session.ts).
 * Firebase keeps nothing on the device (in-memory persistence) and is signed out afterwards; the
 * app's own session cookie is what keeps the user signed in.
 */
import { useNavigate, useRouteLoaderData } from "@remix-run/react";
import { useCallback, useRef, useState } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import type { Auth } from "firebase/auth";
import { useToast } from "#app/components/toaster";
import { useSayError } from "#app/i18n/error-text";
import { appError, type AppError } from "#app/i18n/app-error";
import type { loader as rootLoader } from "#app/root";
import type { PublicFirebaseConfig } from "#app/env/env.server";
import { AUTH_UNAVAILABLE, FAILED_TO_AUTHENTICATE, GOOGLE_NOT_CONFIGURED, SOMETHING_WENT_WRONG, googleError } from "#app/auth/google-errors";
import { exchangeGoogleToken, GOOGLE_LOGIN_FALLBACK, SignInError, welcomeAfterGoogle, type GoogleAccount } from "#app/auth/google-session";

/**
 * The API's refusals of a Google token, which it sends with no code (its callers read them word for
 * word), and where their words are in the `account` catalog.
 */
const GOOGLE_REFUSAL_KEYS: Record<string, string> = {
  [GOOGLE_NOT_CONFIGURED]: "google.notConfigured",
  [FAILED_TO_AUTHENTICATE]: "fallback.authenticate",
  [AUTH_UNAVAILABLE]: "google.unavailable",
};

type FirebaseAuthModule = typeof import("firebase/auth");
interface FirebaseClient {
  auth: Auth;
  sdk: FirebaseAuthModule;
}

let client: Promise<FirebaseClient> | null = null;

/** Loads the SDK once and sets up Auth for the public config (reusing an app that already exists). */
function loadFirebase(config: PublicFirebaseConfig): Promise<FirebaseClient> {
  client ??= Promise.all([import("firebase/app"), import("firebase/auth")]).then(([appSdk, sdk]) => {
    const app = appSdk.getApps().length > 0 ? appSdk.getApp() : appSdk.initializeApp(config);
    let auth: Auth;
    try {
      auth = sdk.initializeAuth(app, { persistence: sdk.inMemoryPersistence, popupRedirectResolver: sdk.browserPopupRedirectResolver });
    } catch {
      auth = sdk.getAuth(app); // already initialised (e.g. after a hot reload)
    }
    return { auth, sdk };
  });
  client.catch(() => {
    client = null; // a failed chunk load may succeed on the next click
  });
  return client;
}

/** Google popup, then our session (app/auth/google-session.ts). */
async function signInWithGoogle(config: PublicFirebaseConfig): Promise<GoogleAccount> {
  const { auth, sdk } = await loadFirebase(config);
  const provider = new sdk.GoogleAuthProvider();
  provider.setCustomParameters({ prompt: "select_account" });
  const credential = await sdk.signInWithPopup(auth, provider);
  try {
    return await exchangeGoogleToken(await credential.user.getIdToken(), credential.user);
  } finally {
    await sdk.signOut(auth).catch(() => {});
  }
}

/** Why a sign-in failed: its English, and the code it is said by (null: the server's refusal sent without one). */
function refusalOf(error: unknown): { english: string; error: AppError | null } {
  if (error instanceof SignInError)
    return error.message ? { english: error.message, error: error.error } : { english: SOMETHING_WENT_WRONG, error: appError("SOMETHING_WENT_WRONG") };
  const code = typeof error === "object" && error && "code" in error && typeof error.code === "string" ? error.code : undefined;
  if (code?.startsWith("auth/")) return googleError(code);
  if (error instanceof TypeError) return googleError("auth/network-request-failed"); // fetch could not reach the server
  return { english: GOOGLE_LOGIN_FALLBACK, error: appError("GOOGLE_LOGIN_FALLBACK") };
}

function GoogleLogo() {
  return (
    <svg aria-hidden="true" width="18" height="18" viewBox="0 0 48 48" style={{ verticalAlign: "middle", marginRight: "0.5rem" }}>
      <path
        fill="#EA4335"
        d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"
      />
      <path fill="#4285F4" d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z" />
      <path
        fill="#FBBC05"
        d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"
      />
    </svg>
  );
}

/** The 'Continue with Google' button with its notice; reads the public Firebase config from the root loader. */
export function GoogleSignInButton() {
  const config = useRouteLoaderData<typeof rootLoader>("root")?.firebase ?? null;
  const toast = useToast();
  const navigate = useNavigate();
  const { t } = useTranslation("account");
  const sayError = useSayError();
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);

  // Warm the SDK when the pointer or focus gets near, so the popup opens straight from the click.
  const preload = useCallback(() => {
    if (config) loadFirebase(config).catch(() => {});
  }, [config]);

  const onClick = useCallback(async () => {
    if (!config) {
      toast({ title: t("google.failed"), description: t("google.notConfigured"), variant: "destructive" });
      return;
    }
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    try {
      navigate(welcomeAfterGoogle(await signInWithGoogle(config)));
    } catch (error) {
      const refusal = refusalOf(error);
      const description = Object.hasOwn(GOOGLE_REFUSAL_KEYS, refusal.english)
        ? t(GOOGLE_REFUSAL_KEYS[refusal.english])
        : sayError(refusal.error, refusal.english);
      toast({ title: t("google.failed"), description, variant: "destructive" });
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }, [config, navigate, toast, t, sayError]);

  return (
    <div className="google-sign-in">
      <button
        type="button"
        className="button button-secondary"
        style={{ width: "100%" }}
        onClick={onClick}
        onPointerEnter={preload}
        onFocus={preload}
        disabled={busy}
        aria-busy={busy}
      >
        <GoogleLogo />
        {t("google.continue")}
      </button>
      <p className="hint">{t("google.notice")}</p>
      {config ? null : <p className="hint">{t("google.notConfigured")}</p>}
    </div>
  );
}
