/**
 * The catalogs (app/locales/LANG/NS.json): every language has every message English has, in each
 * plural form its grammar needs, with the same placeholders and tags, so no reader ever meets an
 * English word or a raw key in a translated page.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES, NAMESPACES } from "#app/i18n/languages";

const root = path.resolve(import.meta.dirname, "../../app/locales");
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

function flatten(value: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof child === "string") out.set(name, child);
    else if (child && typeof child === "object") for (const [k, v] of flatten(child, name)) out.set(k, v);
    else throw new Error(`${name} is neither text nor a group`);
  }
  return out;
}

function catalog(language: string, namespace: string): Map<string, string> {
  return flatten(JSON.parse(fs.readFileSync(path.join(root, language, `${namespace}.json`), "utf8")));
}

/** `{{name}}` placeholders, `$t(...)` nestings and `<tag>` names, sorted: what a translation must keep. */
function placeholders(text: string): string[] {
  const found = [...text.matchAll(/\{\{\s*([\w.]+)(?:\s*,[^}]*)?\}\}|<\/?(\w+)\s*\/?>/g)].map((m) => m[1] ?? `<${m[2]}>`);
  return [...new Set(found)].sort();
}

/** English's messages by base key (plural forms folded into one). */
function baseKeys(messages: Map<string, string>): Map<string, { plural: boolean; sample: string }> {
  const out = new Map<string, { plural: boolean; sample: string }>();
  for (const [key, text] of messages) {
    const base = key.replace(PLURAL_SUFFIX, "");
    out.set(base, { plural: base !== key, sample: out.get(base)?.sample ?? text });
  }
  return out;
}

describe("message catalogs", () => {
  it("has a file for every language and namespace", () => {
    for (const language of LANGUAGES)
      for (const namespace of NAMESPACES) expect(fs.existsSync(path.join(root, language, `${namespace}.json`)), `${language}/${namespace}.json`).toBe(true);
  });

  for (const namespace of NAMESPACES) {
    const english = catalog("en", namespace);
    for (const language of LANGUAGES.filter((l) => l !== "en")) {
      it(`${language}/${namespace}.json has every message of en/${namespace}.json, in every plural form, with the same placeholders`, () => {
        const translated = catalog(language, namespace);
        const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
        const missing: string[] = [];
        const wrong: string[] = [];
        for (const [base, { plural, sample }] of baseKeys(english)) {
          const keys = plural ? categories.map((category) => `${base}_${category}`) : [base];
          for (const key of keys) {
            const text = translated.get(key);
            if (text === undefined || text.trim() === "") missing.push(key);
            else if (JSON.stringify(placeholders(text)) !== JSON.stringify(placeholders(plural ? (english.get(`${base}_other`) ?? sample) : sample)))
              wrong.push(key);
          }
        }
        expect(missing, `missing in ${language}/${namespace}.json`).toEqual([]);
        expect(wrong, `placeholders differ from English in ${language}/${namespace}.json`).toEqual([]);
      });

      it(`${language}/${namespace}.json has nothing English lacks`, () => {
        const englishBases = new Set(baseKeys(english).keys());
        const extra = [...catalog(language, namespace).keys()].filter((key) => !englishBases.has(key.replace(PLURAL_SUFFIX, "")));
        expect(extra).toEqual([]);
      });
    }
  }

  it("has no empty English message", () => {
    for (const namespace of NAMESPACES) for (const [key, text] of catalog("en", namespace)) expect(text.trim(), `en/${namespace}:${key}`).not.toBe("");
  });

  it("gives each English error text one code, so the browser can find a message's code from its words", () => {
    const texts = [...catalog("en", "errors").values()];
    expect(texts.length).toBeGreaterThan(0);
    expect(new Set(texts).size).toBe(texts.length);
  });
});
