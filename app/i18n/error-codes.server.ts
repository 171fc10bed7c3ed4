import { CATALOGS } from "./catalogs.server";
import { errorCodesOf, type ErrorValues } from "./error-text";
import { errorTemplatesOf } from "./error-templates";

const codes = errorCodesOf(CATALOGS.en.errors);
const templates = errorTemplatesOf(CATALOGS.en.errors);

/** An English error message's code in the `errors` catalog, and the values in it when its text has placeholders. */
export interface ErrorText {
  code: string;
  values?: ErrorValues;
}

/**
 * The code of an English error message, and for one built with values ("Please try again in 5
 * minutes.", "Row 4: ...") those values, read at the catalog's placeholders, so any client can say
 * it in its language: the code's English text, given them, is the message word for word. Numbers
 * come as numbers; a wait or a size as its English words ("5 minutes", "20 MB"). Undefined when the
 * catalog does not know the message.
 */
export function errorTextOf(message: string): ErrorText | undefined {
  const code = codes.get(message);
  if (code) return { code };
  for (const template of templates) {
    const match = template.pattern.exec(message);
    if (!match) continue;
    const values: ErrorValues = {};
    template.names.forEach((name, i) => (values[name] = /^-?\d+(?:\.\d+)?$/.test(match[i + 1]) ? Number(match[i + 1]) : match[i + 1]));
    if (template.plural && values.count === undefined) {
      // A form without the number in its words is the one form.
      if (template.plural !== "one") continue;
      values.count = 1;
    }
    return { code: template.code, values };
  }
  return undefined;
}
