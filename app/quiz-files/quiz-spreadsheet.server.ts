/**
 * Quizzes as spreadsheets (CSV and XLSX): writing our layout, the templates `/create` offers; the
 * reading of both layouts is in quiz-spreadsheet-reading.server.ts (its layouts and rows in
 * quiz-spreadsheet-layout.server.ts and quiz-spreadsheet-row.server.ts), re-exported here.
 */
import { stringify } from "csv-stringify/sync";
import ExcelJS from "exceljs";
import { MAX_OPTIONS, type QuestionContent } from "#app/game/question-kinds";
import { DEFAULT_LANGUAGE, type Language } from "#app/i18n/languages";
import { translator } from "#app/i18n/server-i18n.server";
import { QUIZ_SPREADSHEET_COLUMNS, SPREADSHEET_KIND_NAMES } from "#app/quiz-files/quiz-spreadsheet-layout.server";
import { kindOf, QUESTION_KINDS } from "#app/game/kinds";
import { kindSpreadsheetOf } from "#app/game/kinds/spreadsheets.server";

export * from "#app/quiz-files/quiz-spreadsheet-reading.server";
export { QUIZ_SPREADSHEET_COLUMNS, SPREADSHEET_KIND_NAMES, type SpreadsheetLayout } from "#app/quiz-files/quiz-spreadsheet-layout.server";
export { readTimeLimit } from "#app/quiz-files/quiz-spreadsheet-row.server";

// ------------------------------------------------------------------------------ writing

export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8";
export const XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A question as one row of our layout; numbers stay numbers so a spreadsheet program sorts them. */
function questionRow(question: QuestionContent): (string | number)[] {
  const answerCells: string[] = Array.from({ length: MAX_OPTIONS }, () => "");
  const correct = kindSpreadsheetOf(question.kind).write(question, answerCells);
  return [
    question.text,
    SPREADSHEET_KIND_NAMES[question.kind],
    ...answerCells,
    correct,
    question.timeLimit ?? "",
    kindOf(question.kind).scored ? question.points : "",
  ];
}

/**
 * Questions as CSV in our layout. A byte-order mark makes Excel read it as UTF-8; a cell a
 * spreadsheet would run as a formula gets a leading apostrophe, which import takes off again.
 */
export function quizToCsv(questions: QuestionContent[]): string {
  return stringify(questions.map(questionRow), { header: true, columns: [...QUIZ_SPREADSHEET_COLUMNS], bom: true, escape_formulas: true });
}

/**
 * The help sheet's row for each column: the column's name as the file has it (the names, the
 * kind names and the words of Correct and Points are the file's format, in English whatever the
 * reader's language) and what to write, in the reader's language (the `quiz` catalog's `template`).
 */
const COLUMN_HELP: [column: string, key: string][] = [
  ["Question", "question"],
  ["Kind", "kind"],
  [`Answer 1-${MAX_OPTIONS}`, "answers"],
  ["Correct", "correct"],
  ["Time limit", "timeLimit"],
  ["Points", "points"],
];

async function workbookOf(questions: QuestionContent[], helpLanguage: Language | null): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "Quiz Night";
  const sheet = workbook.addWorksheet("Quiz", { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = QUIZ_SPREADSHEET_COLUMNS.map((header) => ({
    header,
    width: header === "Question" ? 50 : header.startsWith("Answer") ? 20 : header === "Kind" ? 16 : 12,
  }));
  sheet.getRow(1).font = { bold: true };
  for (const question of questions) sheet.addRow(questionRow(question));
  if (helpLanguage) {
    const t = translator(helpLanguage);
    // A sheet of its own: the first sheet stays exactly what import reads.
    const help = workbook.addWorksheet(t("quiz:template.sheet"));
    help.columns = [
      { header: t("quiz:template.column"), width: 14 },
      { header: t("quiz:template.whatToWrite"), width: 120 },
    ];
    help.getRow(1).font = { bold: true };
    for (const [column, key] of COLUMN_HELP) help.addRow([column, t(`quiz:template.help.${key}`, { max: MAX_OPTIONS })]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Questions as an XLSX workbook in our layout. */
export function quizToXlsx(questions: QuestionContent[]): Promise<Buffer> {
  return workbookOf(questions, null);
}

const example = (question: Partial<QuestionContent> & Pick<QuestionContent, "kind" | "text">): QuestionContent => ({
  answers: [],
  correctAnswerIndex: -1,
  correctAnswerIndexes: [],
  acceptedAnswers: [],
  correctNumber: null,
  timeLimit: null,
  points: "standard",
  imageId: null,
  ...question,
});

/** One example of each kind, as the template shows them: each kind's first (its spreadsheet part's `examples`), in the registry's order. */
export const TEMPLATE_QUESTIONS: readonly QuestionContent[] = QUESTION_KINDS.map((kind) => example({ kind, ...kindSpreadsheetOf(kind).examples[0] }));

/** The CSV template `/create` offers: the header row and one example of each kind. */
export function quizTemplateCsv(): string {
  return quizToCsv([...TEMPLATE_QUESTIONS]);
}

/**
 * The XLSX template: the same rows, and a second sheet explaining each column in `language`. The
 * example questions stay as they are: they are a quiz's content, like any other.
 */
export function quizTemplateXlsx(language: Language = DEFAULT_LANGUAGE): Promise<Buffer> {
  return workbookOf([...TEMPLATE_QUESTIONS], language);
}
