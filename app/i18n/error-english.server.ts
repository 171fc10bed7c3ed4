/**
 * An error's English words, made from the English `errors` catalog and the error's values: for the
 * two places English is still the contract, the API's `error` field (its callers read English)
 * and the logs (docs/decisions/0047-errors-as-codes.md). The interface never shows these words; it
 * translates the code.
 */
import { flatValues, type AppError } from "./app-error";
import { serverTranslator } from "./server-i18n.server";

/** The English text of `error`: the catalog's text for its code, its values filled in (a nested message in its English too). */
export function englishErrorText(error: AppError): string {
  return serverTranslator("en").fixedT("errors")(error.code, flatValues(error.values, englishErrorText));
}
