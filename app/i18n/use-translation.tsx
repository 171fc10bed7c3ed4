/**
 * The page's words in React: the entries provide the page's translator (i18next's on the server,
 * the catalog translator in the browser; app/i18n/translator.ts), and every component reads it
 * through `useTranslation` and `Trans`.
 */
import { cloneElement, createContext, Fragment, isValidElement, useContext, useMemo, type ReactElement, type ReactNode } from "react";
import type { Language, Namespace } from "./languages";
import type { Translate, TranslateOptions, Translator } from "./translator";

const TranslatorContext = createContext<Translator | null>(null);

export function TranslatorProvider({ translator, children }: { translator: Translator; children?: ReactNode }) {
  return <TranslatorContext.Provider value={translator}>{children}</TranslatorContext.Provider>;
}

export function useTranslator(): Translator {
  const translator = useContext(TranslatorContext);
  if (!translator) throw new Error("useTranslation outside TranslatorProvider: the entry modules provide the page's translator");
  return translator;
}

/** `t` over `namespace` (common by default), and the page's language (a new one reloads the page). */
export function useTranslation(namespace?: Namespace): { t: Translate; language: Language } {
  const translator = useTranslator();
  return useMemo(() => ({ t: translator.fixedT(namespace), language: translator.language }), [translator, namespace]);
}

/** `<name>words</name>` (the component with the catalog's words in it) or `<name/>` (the component as given). */
const TAG = /<(\w+)\s*\/>|<(\w+)>([\s\S]*?)<\/\2>/g;

function withComponents(text: string, components: Record<string, ReactElement>): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(TAG)) {
    const [whole, selfClosing, name, inner] = match;
    const component = components[selfClosing ?? name];
    // A tag the caller did not name (a value that looks like one) stays as text.
    if (!isValidElement(component)) continue;
    if (match.index > last) nodes.push(text.slice(last, match.index));
    const key = nodes.length;
    nodes.push(selfClosing ? cloneElement(component, { key }) : cloneElement(component, { key }, ...withComponents(inner, components)));
    last = match.index + whole.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

interface TransProps {
  i18nKey: string;
  /** `t` over the namespace of the key; the page's common one otherwise. */
  t?: Translate;
  values?: TranslateOptions;
  count?: number;
  /** The elements the text's tags stand for, by tag name. */
  components: Record<string, ReactElement>;
}

/** A text with elements in it (a link, a bold word): the words from the catalog, the elements from the caller. */
export function Trans({ i18nKey, t, values, count, components }: TransProps) {
  const { t: common } = useTranslation();
  const text = (t ?? common)(i18nKey, count === undefined ? values : { ...values, count });
  return <Fragment>{withComponents(text, components)}</Fragment>;
}
