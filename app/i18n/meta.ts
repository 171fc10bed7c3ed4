/**
 * Words for route `meta` functions, which run outside React (no hooks): each side registers how to
 * get an instance for a language once, at start (`provideTranslators`); the page's language is the
 * root loader's.
 */
import type { i18n, TFunction } from "i18next";
import { DEFAULT_LANGUAGE, isLanguage, type Language } from "./languages";

let instanceFor: ((language: Language) => i18n) | null = null;

export function provideTranslators(resolve: (language: Language) => i18n): void {
  instanceFor = resolve;
}

interface MatchWithData {
  id: string;
  data?: unknown;
}

export function metaT(matches: readonly MatchWithData[], namespace = "common"): TFunction {
  const language = (matches.find((match) => match.id === "root")?.data as { language?: unknown } | undefined)?.language;
  if (!instanceFor) throw new Error("metaT before provideTranslators: the entry modules register it at start");
  return instanceFor(isLanguage(language) ? language : DEFAULT_LANGUAGE).getFixedT(null, namespace);
}
