/**
 * The service worker's offline page (public/offline.html) in the reader's language: the page is
 * English as written, and /offline.js (written at build time from the `common` catalogs' `offlinePage`
 * words) puts it into the language the app last spoke in this browser, else the switcher's cookie,
 * else the browser's languages, else English.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGS } from "#app/i18n/catalogs.server";
import { LANGUAGES } from "#app/i18n/languages";
import { OFFLINE_LANGUAGE_KEY, OFFLINE_WORDS, offlinePageScript } from "#app/pwa/offline-page";

const html = fs.readFileSync(path.resolve(import.meta.dirname, "../../public/offline.html"), "utf8");
const script = offlinePageScript(CATALOGS);

/** Runs /offline.js over a page as a browser would hand it over, and gives back the page. */
function run(options: { saved?: string | null; cookie?: string; languages?: string[]; storage?: "blocked" }) {
  const elements = OFFLINE_WORDS.map((key) => ({ dataset: { offline: key }, textContent: "English" }));
  const document = { cookie: options.cookie ?? "", documentElement: { lang: "en" }, querySelectorAll: () => elements };
  const localStorage = {
    getItem(key: string) {
      if (options.storage === "blocked") throw new Error("blocked");
      return key === OFFLINE_LANGUAGE_KEY ? (options.saved ?? null) : null;
    },
  };
  new Function("document", "navigator", "localStorage", script)(document, { languages: options.languages ?? [] }, localStorage);
  return { lang: document.documentElement.lang, texts: elements.map((element) => element.textContent) };
}

/** The cookie Remix writes for the footer's choice (createCookie: JSON, base64, URI-encoded). */
const remixCookie = (value: string) => `qn_lang=${encodeURIComponent(btoa(JSON.stringify(value)))}`;

describe("the offline page's language", () => {
  it("is the language the app last spoke here, then the switcher's cookie, then the browser's, then English", () => {
    expect(run({ saved: "de", cookie: remixCookie("fr"), languages: ["es"] }).lang).toBe("de");
    expect(run({ cookie: `theme=dark; ${remixCookie("fr")}`, languages: ["es"] }).lang).toBe("fr");
    expect(run({ saved: "klingon", cookie: "qn_lang=es", languages: ["de"] }).lang).toBe("es");
    expect(run({ cookie: "qn_lang=%%%", languages: ["de-AT", "en"] }).lang).toBe("de");
    expect(run({ languages: ["it-IT", "FR-ca"] }).lang).toBe("fr");
    expect(run({ languages: ["it", "pt"] }).lang).toBe("en");
    // A browser that keeps nothing (storage blocked) still gets a language.
    expect(run({ storage: "blocked", cookie: remixCookie("es") }).lang).toBe("es");
  });

  it("has the page's words in every language, from the catalogs, and the page as written is the English ones", () => {
    for (const language of LANGUAGES) {
      const words = (CATALOGS[language].common as { offlinePage: Record<string, string> }).offlinePage;
      expect(Object.keys(words).sort()).toEqual([...OFFLINE_WORDS].sort());
    }
    const english = (CATALOGS.en.common as { offlinePage: Record<string, string> }).offlinePage;
    const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
    expect(html).toContain(`<title data-offline="title">${escape(english.title)}</title>`);
    for (const key of OFFLINE_WORDS.filter((one) => one !== "title"))
      expect(html).toMatch(new RegExp(`data-offline="${key}"[^>]*>${escape(english[key]).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}<`));
    expect(html).toContain('<script src="/offline.js"></script>');
  });

  it("turns every word of the page into the chosen language", () => {
    const spanish = (CATALOGS.es.common as { offlinePage: Record<string, string> }).offlinePage;
    expect(run({ cookie: remixCookie("es") }).texts).toEqual(OFFLINE_WORDS.map((key) => spanish[key]));
    const english = (CATALOGS.en.common as { offlinePage: Record<string, string> }).offlinePage;
    expect(run({}).texts).toEqual(OFFLINE_WORDS.map((key) => english[key]));
  });
});
