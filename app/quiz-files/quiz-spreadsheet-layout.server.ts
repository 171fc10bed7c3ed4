import { MAX_OPTIONS, type QuestionKind } from "#app/game/question-kinds";
import { appError } from "#app/i18n/app-error";
import { KIND_LABELS, QUESTION_KINDS } from "#app/game/kinds";
import { kindSpreadsheetOf } from "#app/game/kinds/spreadsheets.server";
import type { SheetRow } from "./quiz-spreadsheet-reading.server";

/** Our columns, in the order the template and export write them. */
export const QUIZ_SPREADSHEET_COLUMNS = [
  "Question",
  "Kind",
  ...Array.from({ length: MAX_OPTIONS }, (_, i) => `Answer ${i + 1}`),
  "Correct",
  "Time limit",
  "Points",
] as const;

/** The names our layout writes in the Kind column; any of `KIND_ALIASES` is read. */
export const SPREADSHEET_KIND_NAMES = Object.fromEntries(QUESTION_KINDS.map((kind) => [kind, kindSpreadsheetOf(kind).spreadsheetName])) as Record<
  QuestionKind,
  string
>;

/** Letters only, lower-case: "True / False", "true-false" and "trueFalse" all read the same. */
export const aliasKey = (name: string) => name.toLowerCase().replace(/[^a-z]/g, "");

export const KIND_ALIASES: ReadonlyMap<string, QuestionKind> = new Map([
  ...QUESTION_KINDS.map((kind) => [aliasKey(kind), kind] as const),
  ...QUESTION_KINDS.map((kind) => [aliasKey(KIND_LABELS[kind]), kind] as const),
  ...QUESTION_KINDS.map((kind) => [aliasKey(SPREADSHEET_KIND_NAMES[kind]), kind] as const),
  // Kahoot's and other apps' names for the same kinds.
  ...QUESTION_KINDS.flatMap((kind) => kindSpreadsheetOf(kind).aliases.map((alias) => [alias, kind] as const)),
]);

/** A Kind cell no kind answers to, raised with its code (docs/decisions/0047-errors-as-codes.md). */
export const KIND_ERROR = appError("IMPORT_KIND_CHOICE", { kinds: Object.values(SPREADSHEET_KIND_NAMES).join(", ") });

export type SpreadsheetLayout = "quiz-night" | "kahoot";

/** Where each field is in the sheet: 0-based column indexes, answers by their number (1-6). */
export interface Columns {
  question: number;
  kind?: number;
  answers: Map<number, number>;
  correct?: number;
  timeLimit?: number;
  points?: number;
}

export interface Header {
  /** Its place in the rows read, not its row number. */
  index: number;
  layout: SpreadsheetLayout;
  columns: Columns;
}

/** The header must come early: Kahoot's has a title block above it, ours none. */
const HEADER_SEARCH_ROWS = 30;

const headerText = (cell: string) => cell.toLowerCase().replace(/[–—]/g, "-").replace(/\s+/g, " ").trim();

/**
 * The header row: the first with a question column and an "Answer 1" or "Correct" column. Columns
 * are found by their names (Kahoot's carry hints such as "- max 120 characters"), so their order
 * and any extra columns do not matter.
 */
export function findHeader(rows: SheetRow[]): Header | null {
  for (const [index, row] of rows.slice(0, HEADER_SEARCH_ROWS).entries()) {
    const columns: Partial<Columns> & { answers: Map<number, number> } = { answers: new Map() };
    let kahoot = false;
    for (const [column, cell] of row.cells.entries()) {
      const text = headerText(cell);
      if (!text) continue;
      if (/max \d+ characters|choose at least one|5, 10, 20/.test(text)) kahoot = true;
      const answer = /^answer\s*(\d+)\b/.exec(text);
      if (/^(question )?(kind|type)$/.test(text)) columns.kind ??= column;
      else if (/^question\b/.test(text)) columns.question ??= column;
      else if (answer) {
        const n = Number(answer[1]);
        if (n >= 1 && n <= MAX_OPTIONS && !columns.answers.has(n)) columns.answers.set(n, column);
      } else if (/^correct\b/.test(text)) columns.correct ??= column;
      else if (/^time( limit)?\b/.test(text)) columns.timeLimit ??= column;
      else if (/^points?\b/.test(text)) columns.points ??= column;
    }
    if (columns.question !== undefined && (columns.answers.has(1) || columns.correct !== undefined)) {
      return { index, layout: kahoot ? "kahoot" : "quiz-night", columns: columns as Columns };
    }
  }
  return null;
}
