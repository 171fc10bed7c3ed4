/**
 * Form and protocol validation raised with codes (docs/decisions/0047-errors-as-codes.md). A zod
 * schema gives each message as `coded(code, values)`: zod calls the returned error function
 * when the rule fails, which stamps `params: { code, values }` on the issue (zod copies the issue's
 * own keys after calling it) and returns the English, made from the English catalog. The issue's
 * `message` stays the English that the API's callers, the protocol and the unit tests read; the
 * interface translates the stamped code (`issueError`).
 *
 * Shared by the browser, the server and the protocol: it carries the English `errors` catalog,
 * which the schemas need to say their English; the join page, which loads no zod, loads none of it.
 */
import English from "#app/locales/en/errors.json";
import { flatValues, type AppError, type ErrorCode, type ErrorValues } from "./app-error";
import { createCatalogTranslator } from "./translator";

const english = createCatalogTranslator("en", { en: { errors: English } }).fixedT("errors");

/** `error`'s English words: the English catalog's text for its code, its values filled in. */
export function englishOf(error: AppError): string {
  return english(error.code, flatValues(error.values, englishOf));
}

/** What `coded` stamps on an issue's `params`. */
interface CodedParams {
  code: ErrorCode;
  values?: ErrorValues;
}

/**
 * A zod message raised with its code: `z.string().max(200, coded("QUIZ_TITLE_TOO_LONG", { max: 200 }))`.
 * Takes the place of a message string anywhere zod takes one (`{ error }`, a check's or a refine's params).
 */
export function coded(code: ErrorCode, values?: ErrorValues): { error: (issue: object) => string } {
  const message = englishOf({ code, values });
  const params: CodedParams = values ? { code, values } : { code };
  return {
    error: (issue) => {
      const raw = issue as { params?: Record<string, unknown> };
      raw.params = { ...raw.params, ...params };
      return message;
    },
  };
}

/** The params for an issue added by hand (`ctx.addIssue`): its English message and its code stamped as `coded` does. */
export function codedIssue(code: ErrorCode, values?: ErrorValues): { message: string; params: CodedParams } {
  return { message: englishOf({ code, values }), params: values ? { code, values } : { code } };
}

/** The code and values a zod issue was raised with (`coded`), or undefined for an issue raised without one. */
export function issueError(issue: object): AppError | undefined {
  const params = (issue as { params?: unknown }).params as Partial<CodedParams> | undefined;
  if (!params || typeof params.code !== "string") return undefined;
  return params.values ? { code: params.code, values: params.values } : { code: params.code };
}

/** An issue raised again elsewhere (a nested schema's first issue) keeps its code: its message and params. */
export function carriedIssue(issue: { message: string }): { message: string; params?: Record<string, unknown> } {
  const error = issueError(issue);
  return error ? { message: issue.message, params: { ...error } } : { message: issue.message };
}
