/**
 * Error messages in the reader's language. The server and the shared zod schemas speak English,
 * as the API's callers expect; every message the interface may show has a code in the `errors`
 * catalog, whose English text is that message word for word. The server sends the code beside
 * the message (API errors, the game's ERROR), and the browser translates by the code or, for the
 * messages its own form checks produce, by finding the code of the English words.
 */
import { useCallback } from "react";
import type { Translator } from "./translator";
import { useTranslator } from "./use-translation";

/** English text to code, from the English `errors` catalog (flat: code to text). */
export function errorCodesOf(englishErrors: unknown): Map<string, string> {
  const codes = new Map<string, string>();
  for (const [code, text] of Object.entries((englishErrors ?? {}) as Record<string, unknown>)) if (typeof text === "string") codes.set(text, code);
  return codes;
}

const codesByTranslator = new WeakMap<Translator, Map<string, string>>();

function codesOf(translator: Translator): Map<string, string> {
  let codes = codesByTranslator.get(translator);
  if (!codes) {
    codes = errorCodesOf(translator.catalog("en", "errors"));
    codesByTranslator.set(translator, codes);
  }
  return codes;
}

/**
 * `errorText(message, code?)`: the message in the page's language when its code (given, or found
 * from its English words) has a translation; the message as it came otherwise. A code whose English
 * text differs from the message (a message with numbers in it) is not used, so the reader never
 * sees a different message than the one sent.
 */
export function useErrorText(): (message: string | null | undefined, code?: string | null) => string {
  const translator = useTranslator();
  return useCallback(
    (message, code) => {
      if (!message) return "";
      const known = codesOf(translator).get(message) ?? (code && translator.resource("en", "errors", code) === message ? code : undefined);
      return known ? translator.fixedT("errors")(known) : message;
    },
    [translator],
  );
}
