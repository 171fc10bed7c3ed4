import { z } from "zod";
import { LANGUAGES } from "./languages";

export const LanguageSchema = z.enum(LANGUAGES, { error: "Choose English, Deutsch, Español or Français." });

/** The footer switcher's post (routes/language.ts). */
export const LanguageFormSchema = z.object({ language: LanguageSchema, redirectTo: z.string().optional() });
