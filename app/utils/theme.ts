/**
 * The colour theme: the system's (prefers-color-scheme) unless this browser chose light or dark
 * with the footer's switch, remembered in a cookie so the server renders the right one (no flash).
 */
import { z } from "zod";

export const THEME_COOKIE = "qn_theme";
export const THEME_CHOICES = ["system", "light", "dark"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export const ThemeFormSchema = z.object({
  theme: z.enum(THEME_CHOICES, { error: "Choose system, light or dark." }),
  redirectTo: z.string().optional(),
});
