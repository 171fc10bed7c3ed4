import { attachmentResponse } from "#app/http/api.server";
import { CSV_CONTENT_TYPE, quizTemplateCsv } from "#app/quiz-files/quiz-spreadsheet.server";

/**
 * GET /create/template.csv: the spreadsheet template, one example question of each kind. The same
 * file in every language: its header row is the format's column names, and the examples are a
 * quiz's content (the XLSX template's help sheet is the prose that is translated).
 */
export function loader() {
  return attachmentResponse(
    { body: quizTemplateCsv(), contentType: CSV_CONTENT_TYPE, fileName: "quiz-template.csv" },
    { "Cache-Control": "public, max-age=3600" },
  );
}
