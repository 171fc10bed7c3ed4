/**
 * The service worker's offline page in the reader's language. public/offline.html is a static file
 * the worker keeps for when there is no network, so no server is there to choose its words: it is
 * written in English, and /offline.js, written at build time (scripts/build-sw.ts) from the
 * `offlinePage` words of every language's `common` catalog, puts it into the language the app last
 * spoke in this browser (kept by `rememberPageLanguage` on every page), else the footer switcher's
 * cookie, else the browser's languages, else English.
 *
 * The script is plain JavaScript kept here as text: it ships exactly as the tests run it, and the
 * page needs no bundle.
 */
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE, LANGUAGES, type Language, type Namespace } from "#app/i18n/languages";

/** Where the page's language is kept for the offline page (local storage, this origin). */
export const OFFLINE_LANGUAGE_KEY = "quizNightLanguage";

/** The offline page's words, each an element's `data-offline` in offline.html (`title` is the document's). */
export const OFFLINE_WORDS = ["title", "heading", "text", "tryAgain", "home", "join"] as const;

/** Keeps the page's language (the server chose it: switcher, account, Accept-Language) for the offline page. */
export function rememberPageLanguage(): void {
  try {
    const language = document.documentElement.lang;
    if ((LANGUAGES as readonly string[]).includes(language)) localStorage.setItem(OFFLINE_LANGUAGE_KEY, language);
  } catch {
    // Storage blocked: the offline page falls back to the cookie and the browser's languages.
  }
}

type OfflineWords = Record<(typeof OFFLINE_WORDS)[number], string>;

/** /offline.js: the words of every language and the choice among them; `catalogs` are the app's (app/locales). */
export function offlinePageScript(catalogs: Record<Language, Partial<Record<Namespace, unknown>>>): string {
  const words = Object.fromEntries(
    LANGUAGES.map((language) => {
      const page = (catalogs[language].common as { offlinePage?: Partial<OfflineWords> } | undefined)?.offlinePage ?? {};
      return [language, Object.fromEntries(OFFLINE_WORDS.map((key) => [key, page[key] ?? ""]))];
    }),
  );
  return `(function () {
  var WORDS = ${JSON.stringify(words).replace(/</g, "\\u003c")};
  var STORAGE_KEY = ${JSON.stringify(OFFLINE_LANGUAGE_KEY)};
  var COOKIE = ${JSON.stringify(LANGUAGE_COOKIE)};
  var DEFAULT = ${JSON.stringify(DEFAULT_LANGUAGE)};
  function known(value) {
    return typeof value === "string" && Object.prototype.hasOwnProperty.call(WORDS, value);
  }
  function saved() {
    try {
      return localStorage.getItem(STORAGE_KEY);
    } catch (error) {
      return null;
    }
  }
  // The switcher's cookie as the server writes it (JSON in base64, URI-encoded), or plain.
  function fromCookie() {
    var parts = (document.cookie || "").split(";");
    for (var i = 0; i < parts.length; i++) {
      var part = parts[i].trim();
      if (part.indexOf(COOKIE + "=") !== 0) continue;
      var raw = part.slice(COOKIE.length + 1);
      try {
        raw = decodeURIComponent(raw);
        return JSON.parse(atob(raw));
      } catch (error) {
        return raw;
      }
    }
    return null;
  }
  function fromBrowser() {
    var tags = navigator.languages || [navigator.language];
    for (var i = 0; i < tags.length; i++) {
      var primary = String(tags[i] || "").toLowerCase().split("-")[0];
      if (known(primary)) return primary;
    }
    return null;
  }
  var candidates = [saved(), fromCookie(), fromBrowser()];
  var language = DEFAULT;
  for (var i = 0; i < candidates.length; i++) {
    if (known(candidates[i])) {
      language = candidates[i];
      break;
    }
  }
  var words = WORDS[language];
  document.documentElement.lang = language;
  var elements = document.querySelectorAll("[data-offline]");
  for (var j = 0; j < elements.length; j++) {
    var text = words[elements[j].dataset.offline];
    if (text) elements[j].textContent = text;
  }
})();
`;
}
