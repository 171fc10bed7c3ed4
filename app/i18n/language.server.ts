/**
 * Which language a page is rendered in: the footer switcher's choice for this browser (a cookie),
 * else the signed-in account's, else the browser's `Accept-Language`, else English
 * (docs/decisions/0029-languages.md).
 */
import { createCookie } from "@remix-run/node";
import Negotiator from "negotiator";
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE, LANGUAGES, type Language } from "./languages";

const languageCookie = createCookie(LANGUAGE_COOKIE, { path: "/", sameSite: "lax", maxAge: 365 * 24 * 60 * 60 });

export async function chosenLanguage(request: Request): Promise<Language | null> {
  const value: unknown = await languageCookie.parse(request.headers.get("cookie"));
  return isLanguage(value) ? value : null;
}

/** The best of our languages for the browser's `Accept-Language` ("de-AT, en;q=0.5" is German). */
export function acceptedLanguage(request: Request): Language | null {
  const header = request.headers.get("accept-language");
  if (!header) return null;
  const negotiator = new Negotiator({ headers: { "accept-language": header } });
  // Negotiator matches "de-AT" to "de" only when asked for the bare tags, best first.
  const best = negotiator.languages([...LANGUAGES])[0];
  return isLanguage(best) ? best : null;
}

export async function languageOf(request: Request, account?: { language: Language | null } | null): Promise<Language> {
  return (await chosenLanguage(request)) ?? account?.language ?? acceptedLanguage(request) ?? DEFAULT_LANGUAGE;
}

/** The Set-Cookie header that remembers `language` for this browser. */
export function rememberLanguage(language: Language): Promise<string> {
  return languageCookie.serialize(language);
}
