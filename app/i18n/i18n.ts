/**
 * One i18next instance per rendered page: on the server with every catalog, in the browser with
 * the page's language only (read from the page itself, see `MessagesScript`).
 */
import { createInstance, type i18n, type Resource } from "i18next";
import { DEFAULT_LANGUAGE, LANGUAGES, NAMESPACES, type Language } from "./languages";

export function createI18n(language: Language, resources: Resource): i18n {
  const instance = createInstance();
  // Every catalog is already in `resources`, so init runs synchronously and the first render has its words.
  void instance.init({
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    ns: [...NAMESPACES],
    defaultNS: "common",
    resources,
    initAsync: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
    // i18next prints an advertisement to the console on init otherwise; our logs are pino's alone.
    showSupportNotice: false,
  });
  return instance;
}

/** The id of the page's inline JSON that carries its messages to the browser. */
export const MESSAGES_SCRIPT_ID = "qn-messages";

/** What the page carries: its language and that language's catalogs (plus English's error texts, to recognise a message by its English words). */
export interface PageMessages {
  language: Language;
  resources: Resource;
}
