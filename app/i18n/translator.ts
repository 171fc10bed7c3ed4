/**
 * What the interface asks of its words: `t` over a namespace, and the raw catalog texts the error
 * lookups read. The server answers with i18next (server-i18n.server.ts); the browser with
 * `createCatalogTranslator` below, which reads the same catalogs the same way for the part of
 * i18next's format they use, in a tenth of its weight (docs/decisions/0030-browser-translator.md).
 * tests/unit/catalog-translator.test.ts holds the two to the same output for every text of every
 * catalog, so a page hydrates with the server's words.
 */
import { DEFAULT_LANGUAGE, type Language, type Namespace } from "./languages";

export interface TranslateOptions {
  /** Picks the plural form (`_one`, `_other`, ... by `Intl.PluralRules`) and fills `{{count}}`. */
  count?: number;
  /** Another namespace than the translator's. */
  ns?: Namespace;
  /** The text when the catalog has none for the key. */
  defaultValue?: string;
  /** The values of the text's `{{placeholders}}`. */
  [value: string]: unknown;
}

export type Translate = (key: string, options?: TranslateOptions) => string;

/** A namespace's catalog as it is stored: texts, and groups of texts by key. */
export type Catalog = { [key: string]: string | Catalog };
export type Resources = Partial<Record<Language, Partial<Record<Namespace, Catalog>>>>;

export interface Translator {
  readonly language: Language;
  /** `t` over `namespace` (common by default); the same function for the same namespace. */
  fixedT(namespace?: Namespace): Translate;
  /** The text stored under `key`, as written (placeholders and all), or undefined. */
  resource(language: Language, namespace: Namespace, key: string): unknown;
  /** A namespace's whole catalog in `language`, or undefined. */
  catalog(language: Language, namespace: Namespace): Catalog | undefined;
}

const NAMESPACE_SEPARATOR = ":";
const KEY_SEPARATOR = ".";
const PLACEHOLDER = /\{\{(.+?)\}\}/g;

/** A key's text: a key with dots in it, or a path through groups (i18next's lookup). */
function lookUp(catalog: Catalog | undefined, key: string): unknown {
  if (!catalog) return undefined;
  if (Object.prototype.hasOwnProperty.call(catalog, key)) return catalog[key];
  let current: unknown = catalog;
  for (const part of key.split(KEY_SEPARATOR)) {
    if (!current || typeof current !== "object") return undefined;
    current = (current as Catalog)[part];
  }
  return current;
}

function formatter<T>(make: (language: Language) => T): (language: Language) => T {
  const made = new Map<Language, T>();
  return (language) => {
    let value = made.get(language);
    if (value === undefined) {
      value = make(language);
      made.set(language, value);
    }
    return value;
  };
}

const pluralRules = formatter((language) => new Intl.PluralRules(language));
const numberFormat = formatter((language) => new Intl.NumberFormat(language));

/** `{{name}}` and `{{name, number}}`; a value not given stays as written, one given as undefined is empty (as i18next does). */
function interpolate(text: string, values: TranslateOptions, language: Language): string {
  return text.replace(PLACEHOLDER, (placeholder, inner: string) => {
    const [name, format] = inner.split(",").map((part) => part.trim());
    const value = values[name];
    if (format === "number") return numberFormat(language).format(value as number);
    if (value === undefined) return Object.prototype.hasOwnProperty.call(values, name) ? "" : placeholder;
    return value === null ? "" : String(value);
  });
}

/** The browser's translator over the catalogs the page carries: its language's, and English's where they fall back. */
export function createCatalogTranslator(language: Language, resources: Resources): Translator {
  const order = language === DEFAULT_LANGUAGE ? [language] : [language, DEFAULT_LANGUAGE];
  const catalog = (lng: Language, namespace: Namespace) => resources[lng]?.[namespace];

  function find(namespace: Namespace, key: string, count: unknown): string | undefined {
    for (const lng of order) {
      const keys = [key];
      if (typeof count === "number") {
        keys.unshift(`${key}_${pluralRules(lng).select(count)}`);
        if (count === 0) keys.unshift(`${key}_zero`);
      }
      for (const candidate of keys) {
        const text = lookUp(catalog(lng, namespace), candidate);
        if (typeof text === "string") return text;
      }
    }
    return undefined;
  }

  const fixed = new Map<Namespace, Translate>();
  function fixedT(namespace: Namespace = "common"): Translate {
    let translate = fixed.get(namespace);
    if (!translate) {
      translate = (fullKey, options = {}) => {
        let key = fullKey;
        let ns = options.ns ?? namespace;
        const separator = fullKey.indexOf(NAMESPACE_SEPARATOR);
        if (separator > 0) {
          ns = fullKey.slice(0, separator) as Namespace;
          key = fullKey.slice(separator + 1);
        }
        const text = find(ns, key, options.count) ?? options.defaultValue;
        return text === undefined ? key : interpolate(text, options, language);
      };
      fixed.set(namespace, translate);
    }
    return translate;
  }

  return {
    language,
    fixedT,
    resource: (lng, namespace, key) => lookUp(catalog(lng, namespace), key),
    catalog,
  };
}
