import { randomUUID } from "node:crypto";
import { CLIENT_ID_COOKIE } from "#app/game/client/storage";
import { ClientIdSchema } from "#app/schemas/validation";

function fromCookie(request: Request): string | null {
  const header = request.headers.get("cookie") ?? "";
  const match = header.match(new RegExp(`(?:^|;\\s*)${CLIENT_ID_COOKIE}=([^;]+)`));
  if (!match) return null;
  const parsed = ClientIdSchema.safeParse(decodeURIComponent(match[1]));
  return parsed.success ? parsed.data : null;
}

/** The browser's persisted client id: the X-Client-Id header (fetch from JavaScript) or its cookie. */
export function clientIdOf(request: Request): string | null {
  const header = request.headers.get("x-client-id")?.trim();
  if (header) {
    const parsed = ClientIdSchema.safeParse(header);
    return parsed.success ? parsed.data : null;
  }
  return fromCookie(request);
}

/**
 * The client id for a form post or an API call that creates something, minting one (with the
 * cookie to keep it, and the same id in X-Client-Id for a script) for a caller that has none yet,
 * such as a browser without JavaScript.
 */
export function ensureClientId(request: Request): { clientId: string; headers: HeadersInit } {
  const existing = clientIdOf(request);
  if (existing) return { clientId: existing, headers: {} };
  const clientId = randomUUID();
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return {
    clientId,
    headers: { "Set-Cookie": `${CLIENT_ID_COOKIE}=${clientId}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`, "X-Client-Id": clientId },
  };
}
