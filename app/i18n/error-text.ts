/**
 * Error messages in the reader's language, said once, at the edge, from the code and values they
 * were raised with (docs/decisions/0047-errors-as-codes.md): an API error's `code`, a game ERROR's
 * `key`, a zod issue's stamped code. Nothing is read back out of English words; a message that
 * comes with no code (a refusal the interface never expected) is shown as it came.
 */
import { useCallback } from "react";
import type { AppError } from "./app-error";
import type { Translator } from "./translator";
import { useTranslator } from "./use-translation";

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
