import type { LoaderFunctionArgs } from "@remix-run/node";
import { languageOf } from "#app/i18n/language.server";
import { quizTemplateXlsx, XLSX_CONTENT_TYPE } from "#app/utils/quiz-spreadsheet.server";
import { getUser } from "#app/utils/session.server";

/**
 * GET /create/template.xlsx: the spreadsheet template, with a sheet explaining each column in the
 * reader's language (the columns keep their English names: they are the file's format, as in the
 * CSV template, which has no prose to translate).
 */
export async function loader({ request, context }: Partial<LoaderFunctionArgs> = {}) {
  const user = request && context ? await getUser(context, request) : null;
  const language = request ? await languageOf(request, user) : undefined;
  return new Response(new Uint8Array(await quizTemplateXlsx(language)), {
    headers: {
      "Content-Type": XLSX_CONTENT_TYPE,
      "Content-Disposition": 'attachment; filename="quiz-template.xlsx"',
      "Cache-Control": "public, max-age=3600",
      // The help sheet's language comes from these.
      Vary: "Accept-Language, Cookie",
    },
  });
}
