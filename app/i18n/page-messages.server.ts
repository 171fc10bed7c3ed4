import { CATALOGS } from "./catalogs.server";
import type { PageMessages } from "./i18n";
import type { Language } from "./languages";

/**
 * The catalogs a page of `language` hands to the browser: all of its namespaces (about NN KB
 * compressed; a client navigation then never waits for words), and English's error texts, which
 * `useErrorText` needs to find a message's code.
 */
export function pageMessages(language: Language): PageMessages {
  const resources = language === "en" ? { en: CATALOGS.en } : { [language]: CATALOGS[language], en: { errors: CATALOGS.en.errors } };
  return { language, resources };
}

/** The JSON for an inline `<script type="application/json">`: `<` escaped so no text can close the tag. */
export function serializeMessages(messages: PageMessages): string {
  return JSON.stringify(messages).replace(/</g, "\\u003c");
}
