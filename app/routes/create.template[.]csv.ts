import { CSV_CONTENT_TYPE, quizTemplateCsv } from "#app/utils/quiz-spreadsheet.server";

/** GET /create/template.csv: the spreadsheet template, one example question of each kind. */
export function loader() {
  return new Response(quizTemplateCsv(), {
    headers: {
      "Content-Type": CSV_CONTENT_TYPE,
      "Content-Disposition": 'attachment; filename="quiz-template.csv"',
      "Cache-Control": "public, max-age=3600",
    },
  });
}
