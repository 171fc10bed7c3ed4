/**
 * The cookies the server sets each benchmark "browser" (by client id), sent back with its later
 * requests and its socket's upgrade, as a browser does: a game made signed out is its browser's by
 * the host secret in one of them (docs/decisions/0044-shared-browsers.md).
 */
const jars = new Map<string, Map<string, string>>();

/** Keeps the `Set-Cookie` lines of a response for this client id. */
export function keepCookies(clientId: string, setCookie: string[] | undefined): void {
  for (const line of setCookie ?? []) {
    const pair = line.split(";")[0];
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const jar = jars.get(clientId) ?? new Map<string, string>();
    jars.set(clientId, jar);
    jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
}

/** The Cookie header for this client id, if the server set it any. */
export function cookieOf(clientId: string): string | undefined {
  const jar = jars.get(clientId);
  return jar && jar.size > 0 ? [...jar].map(([name, value]) => `${name}=${value}`).join("; ") : undefined;
}

/** `headers` with this client id's cookies added, when it has any. */
export function withCookies<T extends Record<string, string | number>>(clientId: string, headers: T): T & { cookie?: string } {
  const cookie = cookieOf(clientId);
  return cookie ? { ...headers, cookie } : headers;
}
