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

/** The values of a message that has them, sent beside it (a game's ERROR, an API error): `{ type: "FOO" }`. */
export type ErrorValues = Record<string, string | number>;

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const PLACEHOLDER = /\{\{\s*(\w+)(?:\s*,[^}]*)?\}\}/g;

/**
 * The `errors` key whose English text, given `values`, is `message` word for word: `code` when it
 * is, else the one of its family that is (BAD_MESSAGE, NOT_HOST cover several); undefined when none is.
 */
export function errorKeyOfValues(translator: Translator, message: string, code: string | null | undefined, values: ErrorValues): string | undefined {
  const english = Object.entries((translator.catalog("en", "errors") ?? {}) as Record<string, unknown>);
  const own = english.filter(([key]) => key.replace(PLURAL_SUFFIX, "") === code);
  for (const [key, text] of [...own, ...english]) {
    if (typeof text !== "string" || !text.includes("{{")) continue;
    const filled = text.replace(PLACEHOLDER, (placeholder, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : placeholder));
    if (filled === message) return key.replace(PLURAL_SUFFIX, "");
  }
  return undefined;
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
 * `errorText(message, code?, values?)`: the message in the page's language when its code (given, or
 * found from its English words, or from the values sent with it) has a translation; the message as
 * it came otherwise. A code whose English text differs from the message (a message with numbers in
 * it) is not used, so the reader never sees a different message than the one sent.
 */
export function useErrorText(): (message: string | null | undefined, code?: string | null, values?: ErrorValues | null) => string {
  const translator = useTranslator();
  return useCallback(
    (message, code, values) => {
      if (!message) return "";
      const known = codesOf(translator).get(message) ?? (code && translator.resource("en", "errors", code) === message ? code : undefined);
      if (known) return translator.fixedT("errors")(known);
      const withValues = values ? errorKeyOfValues(translator, message, code, values) : undefined;
      return withValues ? translator.fixedT("errors")(withValues, values!) : message;
    },
    [translator],
  );
}
