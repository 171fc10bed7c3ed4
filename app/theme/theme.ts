/**
 * The colour theme: the system's (prefers-color-scheme) unless this browser chose light or dark
 * with the footer's switch, remembered in a cookie so the server renders the right one (no flash).
 * Every page's footer uses this, so it stays free of zod (the form's schema is in routes/theme.ts).
 */
export const THEME_COOKIE = "qn_theme";
export const THEME_CHOICES = ["system", "light", "dark"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
