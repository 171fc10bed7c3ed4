import { quizTemplateXlsx, XLSX_CONTENT_TYPE } from "#app/utils/quiz-spreadsheet.server";

/** GET /create/template.xlsx: the spreadsheet template, with a sheet explaining each column. */
export async function loader() {
  return new Response(new Uint8Array(await quizTemplateXlsx()), {
    headers: {
      "Content-Type": XLSX_CONTENT_TYPE,
      "Content-Disposition": 'attachment; filename="quiz-template.xlsx"',
      "Cache-Control": "public, max-age=3600",
    },
  });
}
