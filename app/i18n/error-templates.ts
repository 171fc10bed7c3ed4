/**
 * Error messages with values in them ("Question 3 is empty.", "Please try again in 5 minutes."),
 * which the server and the shared schemas build in English. An English text of the `errors`
 * catalog with `{{placeholders}}` reads as a pattern, so such a message is still found by its
 * words and shown in the page's language with its values (docs/decisions/0029-languages.md).
 * A value that is itself a known message ("Row 3: {{message}}") is translated too, and a wait
 * ("5 minutes") or a size ("5 MB") is written the reader's way; any other value stays as sent.
 */
import { useCallback } from "react";
import { errorCodesOf, errorKeyOfValues, type ErrorValues } from "./error-text";
import type { Translator } from "./translator";
import { useTranslator } from "./use-translation";

interface ErrorTemplate {
  code: string;
  pattern: RegExp;
  names: string[];
  /** The plural form the English text is (`one`, `other`), when the code has several. */
  plural: string | null;
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const PLACEHOLDER = /\{\{\s*(\w+)(?:\s*,[^}]*)?\}\}/g;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The English texts with placeholders, as patterns that capture each placeholder's value. */
export function errorTemplatesOf(englishErrors: unknown): ErrorTemplate[] {
  const templates: ErrorTemplate[] = [];
  for (const [key, text] of Object.entries((englishErrors ?? {}) as Record<string, unknown>)) {
    if (typeof text !== "string" || !text.includes("{{")) continue;
    const names: string[] = [];
    let source = "";
    let last = 0;
    for (const match of text.matchAll(PLACEHOLDER)) {
      source += `${escapeRegExp(text.slice(last, match.index))}(.+?)`;
      names.push(match[1]);
      last = match.index + match[0].length;
    }
    source += escapeRegExp(text.slice(last));
    const plural = PLURAL_SUFFIX.exec(key)?.[1] ?? null;
    templates.push({ code: key.replace(PLURAL_SUFFIX, ""), pattern: new RegExp(`^${source}$`, "s"), names, plural });
  }
  return templates;
}

interface Lookup {
  codes: Map<string, string>;
  templates: ErrorTemplate[];
}

const lookups = new WeakMap<Translator, Lookup>();

function lookupOf(translator: Translator): Lookup {
  let lookup = lookups.get(translator);
  if (!lookup) {
    const english = translator.catalog("en", "errors");
    lookup = { codes: errorCodesOf(english), templates: errorTemplatesOf(english) };
    lookups.set(translator, lookup);
  }
  return lookup;
}

const WAIT = /^(\d+) (second|minute|hour)s?$/;
const SIZE = /^(\d+(?:\.\d+)?) (bytes|KB|MB|GB)$/;
const SIZE_UNITS = { bytes: "byte", KB: "kilobyte", MB: "megabyte", GB: "gigabyte" } as const;

/** A captured value in the reader's language: a number as a number (the catalog formats it), a wait or a size in its words, a message translated. */
function localValue(translator: Translator, value: string, depth: number): string | number {
  if (/^-?\d+(?:\.\d+)?$/.test(value)) return Number(value);
  const wait = WAIT.exec(value);
  if (wait) return new Intl.NumberFormat(translator.language, { style: "unit", unit: wait[2], unitDisplay: "long" }).format(Number(wait[1]));
  const size = SIZE.exec(value);
  if (size) {
    const unit = SIZE_UNITS[size[2] as keyof typeof SIZE_UNITS];
    return new Intl.NumberFormat(translator.language, { style: "unit", unit, unitDisplay: unit === "byte" ? "long" : "short" }).format(Number(size[1]));
  }
  return depth < 3 ? (translated(translator, value, undefined, depth + 1) ?? value) : value;
}

/** Values as they were sent, each in the reader's language (`localValue`); numbers stay numbers. */
function localValues(translator: Translator, values: ErrorValues, depth: number): ErrorValues {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, typeof value === "number" ? value : localValue(translator, value, depth)]));
}

/** The message in the translator's language, or null when the catalog does not know it. */
function translated(translator: Translator, message: string, code: string | null | undefined, depth = 0, values?: ErrorValues | null): string | null {
  const t = translator.fixedT("errors");
  const { codes, templates } = lookupOf(translator);
  const exact = codes.get(message) ?? (code && translator.resource("en", "errors", code) === message ? code : undefined);
  if (exact) return t(exact);
  // Values sent beside the message say which text it is without reading them out of it.
  const withValues = values ? errorKeyOfValues(translator, message, code, values) : undefined;
  if (withValues) return t(withValues, localValues(translator, values!, depth));
  for (const template of templates) {
    const match = template.pattern.exec(message);
    if (!match) continue;
    const values: Record<string, string | number> = {};
    template.names.forEach((name, i) => (values[name] = localValue(translator, match[i + 1], depth)));
    if (template.plural && values.count === undefined) {
      // A form without the number in its words ("Its open game ...") is the one form.
      if (template.plural !== "one") continue;
      values.count = 1;
    }
    return t(template.code, values);
  }
  return null;
}

/**
 * The message in `translator`'s language when the `errors` catalog knows it, by its code, its
 * words, its code and the values sent with it, or its words around values; the message as it came otherwise.
 */
export function errorTextIn(translator: Translator, message: string | null | undefined, code?: string | null, values?: ErrorValues | null): string {
  if (!message) return "";
  // The catalog's English is the message word for word.
  if (translator.language === "en") return message;
  return translated(translator, message, code, 0, values) ?? message;
}

/** Like `useErrorText`, and for messages with values too (`errorTextIn`). */
export function useErrorTextWithValues(): (message: string | null | undefined, code?: string | null, values?: ErrorValues | null) => string {
  const translator = useTranslator();
  // The language is the page's for its whole life: a new one reloads the document.
  return useCallback((message, code, values) => errorTextIn(translator, message, code, values), [translator]);
}

/** A toast's English title and description (docs/product.md#messages pairs them), in the page's language. */
export function useToastText(): <T extends { title: string; description: string }>(message: T) => T {
  const errorText = useErrorTextWithValues();
  return useCallback((message) => ({ ...message, title: errorText(message.title), description: errorText(message.description) }), [errorText]);
}
