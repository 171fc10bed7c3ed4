import { CATALOGS } from "./catalogs.server";
import { errorCodesOf } from "./error-text";

const codes = errorCodesOf(CATALOGS.en.errors);

/** The code of an English error message the server sends (API errors, form replies), for the browser to translate; undefined when it has none. */
export function errorCodeOf(message: string): string | undefined {
  return codes.get(message);
}
