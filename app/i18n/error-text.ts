/**
 * Error messages in the reader's language. The server and the shared zod schemas speak English,
 * as the API's callers expect; every message the interface may show has a code in the `errors`
 * catalog, whose English text is that message word for word. The server sends the code beside
 * the message (API errors, the game's ERROR), and the browser translates by the code or, for the
 * messages its own form checks produce, by finding the code of the English words.
 */
import type { i18n } from "i18next";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";

/** English text to code, from the English `errors` catalog (flat: code to text). */
export function errorCodesOf(englishErrors: unknown): Map<string, string> {
  const codes = new Map<string, string>();
  for (const [code, text] of Object.entries((englishErrors ?? {}) as Record<string, unknown>)) if (typeof text === "string") codes.set(text, code);
  return codes;
}

const codesByInstance = new WeakMap<i18n, Map<string, string>>();

function codesOf(instance: i18n): Map<string, string> {
  let codes = codesByInstance.get(instance);
  if (!codes) {
    codes = errorCodesOf(instance.getResourceBundle("en", "errors"));
    codesByInstance.set(instance, codes);
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
  const { t, i18n: instance } = useTranslation("errors");
  return useCallback(
    (message, code) => {
      if (!message) return "";
      const codes = codesOf(instance);
      const known = codes.get(message) ?? (code && instance.getResource("en", "errors", code) === message ? code : undefined);
      return known ? t(known) : message;
    },
    [t, instance],
  );
}
