/**
 * HTTP hardening in front of Remix: security headers with a per-request CSP nonce, an Origin check
 * on every state-changing request, a cap on request bodies, and no caching of a signed-in
 * browser's pages.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import helmet from "helmet";

/** Origins allowed besides the server's own; a request without Origin (a script, a webhook) is allowed. */
export function isAllowedOrigin(request: IncomingMessage, allowedOrigins: string[]): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  if (allowedOrigins.includes(origin)) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

export interface SecurityHeaderOptions {
  /** Google sign-in's auth domain, when Firebase is configured. */
  firebaseAuthDomain: string | null;
  /** Where a form post may be redirected (Stripe's pages, when billing is on). */
  formActionOrigins: string[];
}

/** A Host header as browsers send it (name or address, and port); anything else could reach into the policy's text. */
const PLAIN_HOST = /^[A-Za-z0-9.-]{1,253}(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](?::\d{1,5})?$/;

/** The page's own socket origins, for browsers where 'self' does not cover ws: and wss: (an empty source for an odd Host). */
export function ownSocketSources(host: string | undefined): string {
  return host && PLAIN_HOST.test(host) ? `ws://${host} wss://${host}` : "";
}

/** helmet's headers; scripts need the request's nonce (res.locals.cspNonce) or to come from this origin. */
export function securityHeaders({ firebaseAuthDomain, formActionOrigins }: SecurityHeaderOptions): RequestHandler[] {
  const setNonce: RequestHandler = (_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  };
  const headers = helmet({
    contentSecurityPolicy: {
      directives: {
        "script-src": [
          "'self'",
          (_req, res) => `'nonce-${(res as unknown as { locals: { cspNonce: string } }).locals.cspNonce}'`,
          ...(firebaseAuthDomain ? ["https://apis.google.com"] : []),
        ],
        // The game socket (and Vite's HMR socket in development, on the same server), and no other
        // host: 'self' covers ws:// and wss:// to this very host and port in current browsers (CSP
        // Level 3); Safari before 16 needs them named, from the Host the browser asked for
        // (docs/decisions/0044-shared-browsers.md).
        "connect-src": [
          "'self'",
          (req) => ownSocketSources(req.headers.host),
          ...(firebaseAuthDomain ? ["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"] : []),
        ],
        // Question pictures come from /images; the editor previews a chosen file through a blob: URL.
        "img-src": ["'self'", "blob:", "data:"],
        "frame-src": firebaseAuthDomain ? [`https://${firebaseAuthDomain}`] : ["'none'"],
        "form-action": ["'self'", ...formActionOrigins],
        "worker-src": ["'self'"],
        "manifest-src": ["'self'"],
        "upgrade-insecure-requests": null,
      },
    },
    // Served over plain http on a LAN as often as behind TLS.
    strictTransportSecurity: false,
    // "no-referrer" would make browsers send `Origin: null` on form posts, which the Origin check refuses.
    referrerPolicy: { policy: "same-origin" },
    // Google sign-in opens a Firebase popup that must be able to report back to this page.
    crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
  });
  return [setNonce, headers];
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
export const CROSS_SITE_REFUSED = "Cross-site requests are not allowed.";

/** Refuses a state-changing request that a browser sent from another site. */
export function requireAllowedOrigin(allowedOrigins: string[]): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method) || isAllowedOrigin(req, allowedOrigins)) return next();
    res.status(403).json({ error: CROSS_SITE_REFUSED, code: "CROSS_SITE_REFUSED" });
  };
}

/**
 * Bodies beyond their route's cap are refused before anything reads them (413), as are bodies of
 * unknown length (411); each refusal has its code in the errors catalog, as the app's own do.
 * `capOf` gives a path's cap, for its content type (app/limits/body-limits.ts: `bodyCapOf`); the
 * app then reads the body within the same limits, as a stream.
 */
export function limitRequestBodies(capOf: (path: string, contentType: string | undefined) => number): RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const declared = req.headers["content-length"];
    if (declared === undefined && req.headers["transfer-encoding"]) {
      res.status(411).json({ error: "Send the request with a Content-Length.", code: "CONTENT_LENGTH_REQUIRED" });
      return;
    }
    if (Number(declared ?? 0) > capOf(req.path, req.headers["content-type"])) {
      res.status(413).json({ error: "Request body is too large.", code: "BODY_TOO_LARGE" });
      return;
    }
    next();
  };
}

/**
 * A browser with a session gets its own pages: no cache, the service worker's included, keeps them.
 * Paths under `publicPrefixes` are the same for everyone (content-addressed pictures) and set their
 * own caching: a second Cache-Control here would make browsers fetch them again on every page.
 */
export function privatePagesNoStore(sessionCookie: string, publicPrefixes: string[] = []): RequestHandler {
  return (req, res, next) => {
    if (publicPrefixes.some((prefix) => req.path.startsWith(prefix))) return next();
    if (req.headers.cookie?.includes(`${sessionCookie}=`)) res.setHeader("Cache-Control", "private, no-store");
    next();
  };
}

/**
 * A request answered before its body was read (a route that refuses first: no session, a limit)
 * has the rest of its body read and dropped once the answer is out, as Node does for a request no
 * one read. Remix's reader holds the stream paused otherwise, and the next request on the same
 * kept-alive connection would wait behind the unread bytes. The body is capped in front of this
 * (limitRequestBodies), so the bytes dropped are bounded too.
 */
export function drainUnreadBodies(): RequestHandler {
  return (req, res, next) => {
    res.once("finish", () => {
      if (req.complete || req.readableEnded) return;
      req.removeAllListeners("data");
      req.resume();
    });
    next();
  };
}
