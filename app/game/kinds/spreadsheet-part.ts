/**
 * A kind's columns in a quiz spreadsheet (app/quiz-files/quiz-spreadsheet*.server.ts): what it writes in
 * the answer and Correct columns, and how it reads them back. Server-only parts live in
 * `<kind>/spreadsheet.server.ts`, listed in `spreadsheets.server.ts`.
 */
import type { AppError } from "#app/i18n/app-error";
import type { QuestionContent, QuestionKind } from "../question-kinds";

/**
 * A question's fields read from one row, before the shared rules; or the row's own problem, raised
 * with its code (docs/decisions/0047-errors-as-codes.md).
 */
export type RowReading = { status: "ok"; input: Record<string, unknown> } | { status: "invalid"; error: AppError };

/** One row as the reader found it, with the reader's helpers. */
export interface SheetQuestionRow {
  /** kind, text, time limit and points, read the same for every kind. */
  common: Record<string, unknown>;
  /** The filled answer cells, in column order. */
  answers: string[];
  /** The Correct cell, as text. */
  correct: string;
  /** Answer numbers in Correct ("1,3", "2|4", ...), or null when it is not a list of numbers. */
  answerNumbers(cell: string): number[] | null;
  /** Answer numbers as indexes among the filled answers, or what is wrong with one. */
  toIndexes(numbers: number[]): number[] | AppError;
}

/** A row without a Kind cell (Kahoot's layout has no such column), as far as guessing its kind needs. */
export interface UnnamedRow {
  /** The filled answer cells, in column order. */
  answers: string[];
  /** The answer numbers in Correct, or null when it is not a list of numbers. */
  correctNumbers: number[] | null;
}

/** An example question of a kind, as a spreadsheet row holds it: what it leaves out is empty or the default. */
export type KindExample = Partial<Omit<QuestionContent, "kind">> & Pick<QuestionContent, "text">;

export interface KindSpreadsheetPart<Name extends QuestionKind = QuestionKind> {
  readonly name: Name;
  /** How our layout's Kind column writes it. */
  readonly spreadsheetName: string;
  /** Other apps' names for it (Kahoot's, ...), read as it; letters only, lower-case. */
  readonly aliases: readonly string[];
  /**
   * Two example questions, the second with more options or another answer: the template `/create`
   * offers writes the first (app/quiz-files/quiz-spreadsheet.server.ts), and the capacity bench's
   * mixed quiz asks both (bench/questions.ts).
   */
  readonly examples: readonly [KindExample, KindExample];
  /** Fills the answer cells (MAX_OPTIONS of them) and returns the Correct cell. */
  write(question: QuestionContent, answerCells: string[]): string | number;
  /**
   * Whether a row without a Kind cell is of this kind (Kahoot's layout); the kinds' guesses exclude
   * each other, and a row no kind claims is the default kind (app/game/kinds/spreadsheets.server.ts).
   */
  kahootGuess?(row: UnnamedRow): boolean;
  read(row: SheetQuestionRow): RowReading;
}
