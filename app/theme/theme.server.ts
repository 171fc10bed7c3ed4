import { createCookie } from "@remix-run/node";
import { THEME_CHOICES, THEME_COOKIE, type ThemeChoice } from "./theme";

/** A preference, not a secret: unsigned, readable by scripts, kept for a year. */
const themeCookie = createCookie(THEME_COOKIE, { path: "/", sameSite: "lax", maxAge: 365 * 24 * 60 * 60 });

export async function themeOf(request: Request): Promise<ThemeChoice> {
  const value: unknown = await themeCookie.parse(request.headers.get("cookie"));
  return THEME_CHOICES.find((choice) => choice === value) ?? "system";
}

/** The Set-Cookie header that remembers `theme` (and forgets it for "system"). */
export function rememberTheme(theme: ThemeChoice): Promise<string> {
  return theme === "system" ? themeCookie.serialize("", { maxAge: 0 }) : themeCookie.serialize(theme);
}
