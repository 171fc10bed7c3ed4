import { MAX_OPTIONS, type QuestionKind, parseTypedNumber, TYPED_NUMBER_MAX_LENGTH } from "#app/game/question-kinds";
import { appError, type AppError } from "#app/i18n/app-error";
import type { RowReading as KindRowReading } from "#app/game/kinds/spreadsheet-part";
import { guessKindOf, kindSpreadsheetOf } from "#app/game/kinds/spreadsheets.server";
import type { SheetRow } from "./quiz-spreadsheet-reading.server";
import { aliasKey, KIND_ALIASES, KIND_ERROR, type Columns } from "./quiz-spreadsheet-layout.server";

const cellAt = (row: SheetRow, column: number | undefined) => (column === undefined ? "" : (row.cells[column] ?? "").trim());

export function isBlank(row: SheetRow, columns: Columns): boolean {
  // Kahoot's template numbers 100 rows in its first column whether they hold a question or not:
  // only the columns that make a question count.
  const used = [columns.question, columns.kind, ...columns.answers.values(), columns.correct, columns.timeLimit, columns.points];
  return used.every((column) => cellAt(row, column) === "");
}

/** A question's fields read from one row, before the shared rules; or the row's own problem. */
type RowReading = KindRowReading;

/** Answer numbers in Correct: "1,3", "1; 3", "1 3", "2|4", or "1.3" (a decimal-comma locale's "1,3" typed into a number cell). */
function answerNumbers(cell: string): number[] | null {
  const parts = cell.split(/[\s,;|.&/+]+|\band\b/i).filter(Boolean);
  if (parts.length === 0 || !parts.every((part) => /^\d+$/.test(part))) return null;
  return parts.map(Number);
}

function readPoints(cell: string): unknown {
  const key = cell.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (key === "") return undefined;
  if (["standard", "normal", "single", "1", "x1", "1x"].includes(key)) return "standard";
  if (["double", "doublepoints", "2", "x2", "2x"].includes(key)) return "double";
  if (["none", "nopoints", "no", "0", "x0", "0x", "zero"].includes(key)) return "none";
  // Anything else meets the shared rule and its message.
  return cell;
}

/**
 * A unit after the number: found from the end, each place tried once with a pattern of bounded
 * length, so the work is linear in the cell (the former `^(.+?)\s*(s|sec...)?$` was quadratic).
 */
const SECONDS_UNIT = /(?:s|secs?|seconds?)$/i;

export function readTimeLimit(cell: string): unknown {
  if (cell === "") return undefined;
  // parseTypedNumber reads no text this long; neither does the unit's pattern.
  if (cell.length > TYPED_NUMBER_MAX_LENGTH) return Number.NaN;
  const unit = SECONDS_UNIT.exec(cell);
  const seconds = unit && unit.index > 0 ? cell.slice(0, unit.index).trimEnd() : cell;
  const value = parseTypedNumber(seconds);
  // NaN meets the shared rule, which says a time limit must be a number of seconds.
  return value ?? Number.NaN;
}

export function readRow(row: SheetRow, columns: Columns): RowReading {
  const text = cellAt(row, columns.question);
  const correct = cellAt(row, columns.correct);
  // Answers by their column's number; empty ones are dropped, so "Answer 3" may be left out and
  // "Correct" still names answers by the column they are in.
  const answerColumns = [...columns.answers.entries()].sort(([a], [b]) => a - b);
  const filled = answerColumns.map(([n, column]) => ({ n, text: cellAt(row, column) })).filter((answer) => answer.text !== "");
  const answers = filled.map((answer) => answer.text);
  const indexOfAnswer = (n: number) => filled.findIndex((answer) => answer.n === n);

  const kindCell = cellAt(row, columns.kind);
  let kind: QuestionKind | undefined;
  if (kindCell !== "") {
    kind = KIND_ALIASES.get(aliasKey(kindCell));
    if (!kind) return { status: "invalid", error: KIND_ERROR };
  } else {
    kind = guessKindOf({ answers, correctNumbers: answerNumbers(correct) });
  }

  const common = { kind, text, timeLimit: readTimeLimit(cellAt(row, columns.timeLimit)), points: readPoints(cellAt(row, columns.points)) };
  const toIndexes = (numbers: number[]): number[] | AppError => {
    const indexes: number[] = [];
    for (const n of numbers) {
      if (n < 1 || n > MAX_OPTIONS) return appError("IMPORT_CORRECT_OUT_OF_RANGE", { n, max: MAX_OPTIONS });
      const index = indexOfAnswer(n);
      if (index < 0) return appError("IMPORT_CORRECT_EMPTY_ANSWER", { n });
      indexes.push(index);
    }
    return indexes;
  };

  return kindSpreadsheetOf(kind).read({ common, answers, correct, answerNumbers, toIndexes });
}
