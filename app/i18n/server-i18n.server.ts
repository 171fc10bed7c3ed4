import type { i18n } from "i18next";
import { CATALOGS } from "./catalogs.server";
import { createI18n } from "./i18n";
import type { Language } from "./languages";

const instances = new Map<Language, i18n>();

/** The server's instance for `language`: one per language, shared by every request (they only read). */
export function serverI18n(language: Language): i18n {
  let instance = instances.get(language);
  if (!instance) {
    instance = createI18n(language, CATALOGS);
    instances.set(language, instance);
  }
  return instance;
}

/** `t` for a server-side text (an email subject, a CSV header) in `language`. */
export function translator(language: Language) {
  return serverI18n(language).t;
}
