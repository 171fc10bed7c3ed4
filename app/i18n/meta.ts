/**
 * Words for route `meta` functions, which run outside React (no hooks): each side registers how to
 * get the translator for a language once, at start (`provideTranslators`); the page's language is
 * the root loader's.
 */
import { DEFAULT_LANGUAGE, isLanguage, type Language, type Namespace } from "./languages";
import type { Translate, Translator } from "./translator";

let translatorFor: ((language: Language) => Translator) | null = null;

export function provideTranslators(resolve: (language: Language) => Translator): void {
  translatorFor = resolve;
}

interface MatchWithData {
  id: string;
  data?: unknown;
}

export function metaT(matches: readonly MatchWithData[], namespace: Namespace = "common"): Translate {
  const language = (matches.find((match) => match.id === "root")?.data as { language?: unknown } | undefined)?.language;
  if (!translatorFor) throw new Error("metaT before provideTranslators: the entry modules register it at start");
  return translatorFor(isLanguage(language) ? language : DEFAULT_LANGUAGE).fixedT(namespace);
}
