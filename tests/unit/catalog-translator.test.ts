/**
 * The browser's translator (app/i18n/translator.ts) against i18next, which renders the same page on
 * the server: every text of every catalog, in every language, with every plural form's counts and
 * values in its placeholders, must come out the same, or a page would hydrate with other words
 * (docs/decisions/0030-browser-translator.md). And `Trans` puts the caller's elements where the
 * text's tags are.
 */
import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CATALOGS } from "#app/i18n/catalogs.server";
import { LANGUAGES, NAMESPACES, type Language } from "#app/i18n/languages";
import { pageMessages } from "#app/i18n/page-messages.server";
import { createI18n, i18nextTranslator } from "#app/i18n/server-i18n.server";
import { createCatalogTranslator, type Resources, type TranslateOptions, type Translator } from "#app/i18n/translator";
import { Trans, TranslatorProvider } from "#app/i18n/use-translation";

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const PLACEHOLDER = /\{\{\s*(\w+)\s*(?:,\s*(\w+))?\s*\}\}/g;
const COUNTS = [0, 1, 2, 3, 5, 11, 21, 101, 1000, 1234567, 1.5, -1];

function leaves(value: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof child === "string") out.set(path, child);
    else for (const [inner, text] of leaves(child, path)) out.set(inner, text);
  }
  return out;
}

/** Every base key of a namespace (plural forms folded), with the placeholders its texts use in any language and whether any is a number. */
function keysOf(namespace: (typeof NAMESPACES)[number]) {
  const keys = new Map<string, { plural: boolean; placeholders: Map<string, boolean> }>();
  for (const language of LANGUAGES) {
    for (const [path, text] of leaves(CATALOGS[language][namespace])) {
      const base = path.replace(PLURAL_SUFFIX, "");
      const entry = keys.get(base) ?? { plural: false, placeholders: new Map<string, boolean>() };
      if (PLURAL_SUFFIX.test(path)) entry.plural = true;
      for (const [, name, format] of text.matchAll(PLACEHOLDER)) entry.placeholders.set(name, (entry.placeholders.get(name) ?? false) || format === "number");
      keys.set(base, entry);
    }
  }
  return keys;
}

/** Values for every placeholder: numbers where a text formats one, words (with a tag-like one) otherwise. */
function valuesFor(placeholders: Map<string, boolean>, count?: number): TranslateOptions {
  const values: TranslateOptions = {};
  for (const [name, numeric] of placeholders) if (name !== "count") values[name] = numeric ? 98765.4321 : `«${name} <b>&</b>»`;
  if (count !== undefined) values.count = count;
  else if (placeholders.has("count")) values.count = 7;
  return values;
}

const reference = (language: Language) => i18nextTranslator(createI18n(language), language);
const browser = (language: Language) => createCatalogTranslator(language, pageMessages(language).resources);

describe("the browser's translator says what i18next says", () => {
  for (const language of LANGUAGES) {
    for (const namespace of NAMESPACES) {
      it(`for every text of ${language}/${namespace}, every count and value`, () => {
        const expected = reference(language).fixedT(namespace);
        const actual = browser(language).fixedT(namespace);
        let compared = 0;
        for (const [key, { plural, placeholders }] of keysOf(namespace)) {
          for (const count of plural ? COUNTS : [undefined]) {
            const values = valuesFor(placeholders, count);
            expect(actual(key, values), `${language}/${namespace}:${key} with ${JSON.stringify(values)}`).toBe(expected(key, values));
            compared++;
          }
          expect(actual(key), `${language}/${namespace}:${key} without values`).toBe(expected(key));
        }
        expect(compared).toBeGreaterThan(10);
      });
    }
  }

  /** A small catalog with what the real ones may grow into: a zero form, a key with a dot in its name, a missing translation. */
  const resources = {
    en: {
      common: {
        items_zero: "nothing",
        items_one: "{{count}} item",
        items_other: "{{count, number}} items",
        "a.b": "flat",
        group: { leaf: "deep" },
        onlyEnglish: "English",
      },
      errors: { BUSY: "Busy for {{wait}}." },
    },
    de: { common: { items_one: "{{count}} Ding", items_other: "{{count, number}} Dinge", group: { leaf: "tief" } }, errors: { BUSY: "Belegt für {{wait}}." } },
  } satisfies Resources;

  const cases: [string, TranslateOptions | undefined][] = [
    ["items", { count: 0 }],
    ["items", { count: 1 }],
    ["items", { count: 2500 }],
    ["a.b", undefined],
    ["group.leaf", undefined],
    ["onlyEnglish", undefined],
    ["missing.key", undefined],
    ["missing", { defaultValue: "fallback {{x}}", x: 1 }],
    ["errors:BUSY", { wait: "5 min" }],
    ["BUSY", { ns: "errors", wait: "5 min" }],
    ["BUSY", { ns: "errors" }],
    ["BUSY", { ns: "errors", wait: undefined }],
    ["BUSY", { ns: "errors", wait: null }],
    ["BUSY", { ns: "errors", wait: 0 }],
  ];
  for (const language of ["en", "de"] as const) {
    it(`in the corners of i18next's format (${language})`, () => {
      const expected = i18nextTranslator(createI18n(language, resources as never), language).fixedT();
      const actual = createCatalogTranslator(language, resources).fixedT();
      for (const [key, options] of cases) expect(actual(key, options), `${key} ${JSON.stringify(options)}`).toBe(expected(key, options));
    });
  }
});

describe("Trans", () => {
  const resources = {
    en: {
      common: {
        share: "Tap the <strong>Share</strong> button <icon/>",
        signedIn: "Signed in as <who/>",
        nested: "<link>Go <strong>now</strong></link>!",
        count_one: "<strong>{{count, number}}</strong> quiz",
        count_other: "<strong>{{count, number}}</strong> quizzes",
        named: "Hello {{name}}",
      },
    },
  } satisfies Resources;
  const translator: Translator = createCatalogTranslator("en", resources);
  const render = (element: ReactElement) => renderToStaticMarkup(createElement(TranslatorProvider, { translator }, element));

  it("wraps the text's words in the elements its tags name, and puts a self-closing tag's element as given", () => {
    expect(render(createElement(Trans, { i18nKey: "share", components: { strong: createElement("strong"), icon: createElement("span", null, "⎋") } }))).toBe(
      "Tap the <strong>Share</strong> button <span>⎋</span>",
    );
    expect(render(createElement(Trans, { i18nKey: "signedIn", components: { who: createElement("b", null, "Kim") } }))).toBe("Signed in as <b>Kim</b>");
    expect(render(createElement(Trans, { i18nKey: "nested", components: { link: createElement("a", { href: "/x" }), strong: createElement("strong") } }))).toBe(
      '<a href="/x">Go <strong>now</strong></a>!',
    );
  });

  it("picks the plural form by count and fills the values", () => {
    expect(render(createElement(Trans, { i18nKey: "count", count: 1200, components: { strong: createElement("strong") } }))).toBe(
      "<strong>1,200</strong> quizzes",
    );
  });

  it("leaves a value that looks like a tag as text", () => {
    expect(render(createElement(Trans, { i18nKey: "named", values: { name: "<strong>Eve</strong>" }, components: {} }))).toBe(
      "Hello &lt;strong&gt;Eve&lt;/strong&gt;",
    );
  });
});
