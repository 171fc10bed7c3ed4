/**
 * Errors as codes where they are raised (docs/decisions/0047-errors-as-codes.md). A refusal names
 * its `errors` catalog key and the values of its text; the words are made from the catalog once,
 * at the edge: in the reader's language in the browser and on server-rendered pages, in English
 * only where English is the contract (the API's `error` field, logs). `ErrorCode` is the English
 * catalog's keys, so a code the catalog lacks (a typo) does not compile, and
 * tests/unit/error-codes-raised.test.ts holds every code raised to a text in every language.
 *
 * This module is shared by the browser and the server and loads no catalog: the JSON is imported
 * for its type alone.
 */
import type English from "#app/locales/en/errors.json";

type PluralSuffix = "zero" | "one" | "two" | "few" | "many" | "other";
type WithoutPlural<Key> = Key extends `${infer Code}_${PluralSuffix}` ? Code : Key;

/** A key of the English `errors` catalog, a plural family (`AI_REASON_TOO_FEW_one`, `_other`) named once. */
export type ErrorCode = WithoutPlural<keyof typeof English>;

/**
 * The values of a text's `{{placeholders}}`; numbers stay numbers, for the catalog to format and
 * pick plurals by; a value that is itself a message (an import row's problem, an AI reply's
 * reason) is that message's `AppError`, said in the same language.
 */
export type ErrorValues = { [name: string]: string | number | AppError };

/** An error as it is raised: its code, and the values its text needs. */
export interface AppError {
  readonly code: ErrorCode;
  readonly values?: ErrorValues;
}

/** The one way to raise an error the interface shows: `appError("LIMIT_QUIZZES", { wait: "5 minutes" })`. */
export function appError(code: ErrorCode, values?: ErrorValues): AppError {
  return values ? { code, values } : { code };
}

/** Whether `value` is an `AppError` (a refusal raised with its code), not a bare English message. */
export function isAppError(value: unknown): value is AppError {
  return typeof value === "object" && value !== null && typeof (value as AppError).code === "string";
}

/** Values with each nested message said by `say` (its English, or the reader's language): what a text's placeholders take. */
export function flatValues(values: ErrorValues | undefined, say: (error: AppError) => string): Record<string, string | number> | undefined {
  if (!values) return undefined;
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, isAppError(value) ? say(value) : value]));
}

/**
 * An error as the API sends it (`{ code, values, valueErrors }`, app/http/api.server.ts's
 * `errorBody`): `values` with a nested message in English, as the API's callers read it, and
 * `valueErrors` with that message's own code; back to the `AppError` it was raised as.
 * Null for a refusal with no code (a message the interface never shows).
 */
export function appErrorOf(body: { code?: unknown; values?: unknown; valueErrors?: unknown } | null | undefined): AppError | null {
  if (!body || typeof body.code !== "string") return null;
  const values = { ...(body.values as ErrorValues | undefined), ...(body.valueErrors as ErrorValues | undefined) };
  return Object.keys(values).length ? { code: body.code as ErrorCode, values } : { code: body.code as ErrorCode };
}
