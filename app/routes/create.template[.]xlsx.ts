import type { LoaderFunctionArgs } from "@remix-run/node";
import { languageOf } from "#app/i18n/language.server";
import { attachmentResponse } from "#app/http/api.server";
import { quizTemplateXlsx, XLSX_CONTENT_TYPE } from "#app/quiz-files/quiz-spreadsheet.server";
import { getUser } from "#app/sessions/session.server";

/**
 * GET /create/template.xlsx: the spreadsheet template, with a sheet explaining each column in the
 * reader's language (the columns keep their English names: they are the file's format, as in the
 * CSV template, which has no prose to translate).
 */
export async function loader({ request, context }: Partial<LoaderFunctionArgs> = {}) {
  const user = request && context ? await getUser(context, request) : null;
  const language = request ? await languageOf(request, user) : undefined;
  const file = { body: new Uint8Array(await quizTemplateXlsx(language)), contentType: XLSX_CONTENT_TYPE, fileName: "quiz-template.xlsx" };
  // The help sheet's language comes from the Vary headers.
  return attachmentResponse(file, { "Cache-Control": "public, max-age=3600", Vary: "Accept-Language, Cookie" });
}
