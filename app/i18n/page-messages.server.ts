import { CATALOGS } from "./catalogs.server";
import type { PageMessages } from "./i18n";
import type { Language } from "./languages";

/**
 * The catalogs a page of `language` hands to the browser: all of its namespaces (about NN KB
 * compressed; a client navigation then never waits for words). Errors are said from their codes in
 * the page's language (docs/decisions/0047-errors-as-codes.md), so no other language's catalog comes along.
 */
export function pageMessages(language: Language): PageMessages {
  return { language, resources: { [language]: CATALOGS[language] } };
}

/** The JSON for an inline `<script type="application/json">`: `<` escaped so no text can close the tag. */
export function serializeMessages(messages: PageMessages): string {
  return JSON.stringify(messages).replace(/</g, "\\u003c");
}
