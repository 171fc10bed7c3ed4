/**
 * The languages the interface speaks (issue 16). A quiz's own content is never translated: these
 * are the words around it. docs/decisions/0029-languages.md explains how a page's language is
 * chosen and how its messages reach the browser. Every page's footer uses this module, so it
 * stays free of zod (the schemas are in language-schema.ts).
 */
export const LANGUAGES = ["en", "de", "es", "fr"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** Each language in its own words, for the switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: "English", de: "Deutsch", es: "Español", fr: "Français" };

/** In English, for the AI generator's prompt ("Write the quiz in Spanish"). */
export const LANGUAGE_ENGLISH_NAMES: Record<Language, string> = { en: "English", de: "German", es: "Spanish", fr: "French" };

/** The switcher's choice for this browser: a preference, not a secret. */
export const LANGUAGE_COOKIE = "qn_lang";

/** The message namespaces, one catalog file each per language (app/locales/LANG/NS.json). */
export const NAMESPACES = ["common", "game", "quiz", "account", "errors", "reports"] as const;
export type Namespace = (typeof NAMESPACES)[number];

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}
