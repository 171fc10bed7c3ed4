import { createInstance, type i18n } from "i18next";
import { CATALOGS } from "./catalogs.server";
import { DEFAULT_LANGUAGE, LANGUAGES, NAMESPACES, type Language, type Namespace } from "./languages";
import type { Catalog, Translate, Translator } from "./translator";

/** An i18next instance for `language` with every catalog already in it, so it is ready at once. */
export function createI18n(language: Language, resources: typeof CATALOGS = CATALOGS): i18n {
  const instance = createInstance();
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
    // i18next prints an advertisement to the console on init otherwise; our logs are pino's alone.
    showSupportNotice: false,
  });
  return instance;
}

/** The `Translator` the interface asks for, answered by an i18next instance. */
export function i18nextTranslator(instance: i18n, language: Language): Translator {
  const fixed = new Map<Namespace, Translate>();
  return {
    language,
    fixedT(namespace = "common") {
      let translate = fixed.get(namespace);
      if (!translate) {
        const t = instance.getFixedT(language, namespace);
        translate = (key, options) => t(key, options) as string;
        fixed.set(namespace, translate);
      }
      return translate;
    },
    resource: (lng, namespace, key) => instance.getResource(lng, namespace, key),
    catalog: (lng, namespace) => instance.getResourceBundle(lng, namespace) as Catalog | undefined,
  };
}

const translators = new Map<Language, Translator>();

/** The server's translator for `language`: one per language, shared by every request (they only read). */
export function serverTranslator(language: Language): Translator {
  let translator = translators.get(language);
  if (!translator) {
    translator = i18nextTranslator(createI18n(language), language);
    translators.set(language, translator);
  }
  return translator;
}

/** `t` for a server-side text (an email subject, a CSV header) in `language`. */
export function translator(language: Language, namespace?: Namespace): Translate {
  return serverTranslator(language).fixedT(namespace);
}
