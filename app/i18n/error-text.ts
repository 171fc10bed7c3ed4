/**
 * Error messages in the reader's language. The server and the shared zod schemas speak English,
 * as the API's callers expect; every message the interface may show has a code in the `errors`
 * catalog, whose English text is that message word for word. The server sends the code beside
 * the message (API errors, the game's ERROR), and the browser translates by the code or, for the
 * messages its own form checks produce, by finding the code of the English words.
 */
import { useCallback } from "react";
import type { AppError } from "./app-error";
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

const WAIT = /^(\d+) (second|minute|hour)s?$/;
const SIZE = /^(\d+(?:\.\d+)?) (bytes|KB|MB|GB)$/;
const SIZE_UNITS = { bytes: "byte", KB: "kilobyte", MB: "megabyte", GB: "gigabyte" } as const;

/**
 * A value in the reader's language. A wait or a size travels in its English words ("5 minutes",
 * "20 MB"), as the API has always sent it; this reads that value, never a message, and writes it
 * the reader's way. A nested message is said in the reader's language; anything else stays as sent.
 */
function localValue(translator: Translator, value: string | number | AppError): string | number {
  if (typeof value === "number") return value;
  if (typeof value !== "string") return translateError(translator, value);
  const wait = WAIT.exec(value);
  if (wait) return new Intl.NumberFormat(translator.language, { style: "unit", unit: wait[2], unitDisplay: "long" }).format(Number(wait[1]));
  const size = SIZE.exec(value);
  if (size) {
    const unit = SIZE_UNITS[size[2] as keyof typeof SIZE_UNITS];
    return new Intl.NumberFormat(translator.language, { style: "unit", unit, unitDisplay: unit === "byte" ? "long" : "short" }).format(Number(size[1]));
  }
  return value;
}

/**
 * `error` in `translator`'s language, from its code and values alone
 * (docs/decisions/0047-errors-as-codes.md); `english`, the words it came with, when there is no
 * code or the catalog has no text for it (a refusal the interface never expected).
 */
export function translateError(translator: Translator, error: AppError | null | undefined, english?: string | null): string {
  if (!error) return english ?? "";
  const known = translator.resource(translator.language, "errors", error.code) ?? translator.resource(translator.language, "errors", `${error.code}_other`);
  if (known === undefined) return english ?? error.code;
  const values = error.values ? Object.fromEntries(Object.entries(error.values).map(([name, value]) => [name, localValue(translator, value)])) : undefined;
  return translator.fixedT("errors")(error.code, values);
}

/** A toast's English title and description (docs/product.md#messages pairs them), with the codes each is said by. */
export interface CodedToast {
  title: string;
  description: string;
  codes?: { title?: AppError; description?: AppError };
}

/** A toast's title and description in the page's language, each from its code (its English when it has none). */
export function useSayToast(): <T extends CodedToast>(message: T) => T {
  const sayError = useSayError();
  return useCallback(
    (message) => ({ ...message, title: sayError(message.codes?.title, message.title), description: sayError(message.codes?.description, message.description) }),
    [sayError],
  );
}

/** `translateError` in the page's language: `sayError(error, english?)`. */
export function useSayError(): (error: AppError | null | undefined, english?: string | null) => string {
  const translator = useTranslator();
  // The language is the page's for its whole life: a new one reloads the document.
  return useCallback((error, english) => translateError(translator, error, english), [translator]);
}
