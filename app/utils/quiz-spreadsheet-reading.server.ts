/**
 * Quizzes as spreadsheets (CSV and XLSX), in two layouts found by their header row: ours (the
 * template `/create` offers) and Kahoot's "quiz spreadsheet template", so hosts can bring the
 * quizzes they already have. Every row goes through `QuestionInputSchema`, the rule every way in
 * shares; a file is accepted whole or not at all, with each bad row named by its number as the
 * spreadsheet shows it. Pictures travel only in the JSON quiz file.
 *
 * Reading only, with no translations or writers, so a worker thread loads little
 * (server/heavy-worker.ts); quiz-spreadsheet.server.ts writes, and re-exports this.
 */
import { Readable } from "node:stream";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { MAX_OPTIONS, TRUE_FALSE_ANSWERS, type QuestionContent, type QuestionKind, parseTypedNumber, TYPED_NUMBER_MAX_LENGTH } from "#app/game/question-kinds";
import { KIND_LABELS, QUESTION_KINDS } from "#app/game/kinds";
import { QuestionInputSchema } from "#app/game/question-input";
import type { RowReading as KindRowReading } from "#app/game/kinds/spreadsheet-part";
import { kindSpreadsheetOf } from "#app/game/kinds/spreadsheets.server";
import { MAX_QUESTIONS, tooManyQuestionsMessage } from "#app/utils/form-schemas";
import { MAX_SPREADSHEET_BYTES, spreadsheetTooLargeMessage } from "#app/utils/quiz-file";
import { DEFAULT_SPREADSHEET_LIMITS, type SpreadsheetLimits } from "#app/utils/heavy-limits";
import { describeBytes } from "#app/utils/storage-limits";
import { checkArchive, workbookPartsArchive } from "#app/utils/xlsx-archive.server";

// ------------------------------------------------------------------------------ the layout

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
const aliasKey = (name: string) => name.toLowerCase().replace(/[^a-z]/g, "");

const KIND_ALIASES: ReadonlyMap<string, QuestionKind> = new Map([
  ...QUESTION_KINDS.map((kind) => [aliasKey(kind), kind] as const),
  ...QUESTION_KINDS.map((kind) => [aliasKey(KIND_LABELS[kind]), kind] as const),
  ...QUESTION_KINDS.map((kind) => [aliasKey(SPREADSHEET_KIND_NAMES[kind]), kind] as const),
  // Kahoot's and other apps' names for the same kinds.
  ...QUESTION_KINDS.flatMap((kind) => kindSpreadsheetOf(kind).aliases.map((alias) => [alias, kind] as const)),
]);

const KIND_MESSAGE = `Kind must be one of ${Object.values(SPREADSHEET_KIND_NAMES).join(", ")} (or empty for choice).`;

export type SpreadsheetLayout = "quiz-night" | "kahoot";

/** Where each field is in the sheet: 0-based column indexes, answers by their number (1-6). */
interface Columns {
  question: number;
  kind?: number;
  answers: Map<number, number>;
  correct?: number;
  timeLimit?: number;
  points?: number;
}

interface Header {
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
function findHeader(rows: SheetRow[]): Header | null {
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

// ------------------------------------------------------------------------------ reading cells

/** One row as the spreadsheet numbers it (1-based, the header included), each cell as text. */
interface SheetRow {
  number: number;
  cells: string[];
}

export interface RowError {
  /** The row as the spreadsheet shows it, header counted; 0 for the file as a whole. */
  row: number;
  message: string;
}

export type SpreadsheetResult = { status: "ok"; layout: SpreadsheetLayout; questions: QuestionContent[] } | { status: "invalid"; errors: RowError[] };

const fileError = (message: string): SpreadsheetResult => ({ status: "invalid", errors: [{ row: 0, message }] });

/** Columns read from each row: ours are ten, Kahoot's eight; any past these are ignored. */
export const MAX_SPREADSHEET_COLUMNS = 50;
/** A row of our layout at its longest is about 3,000 characters. */
export const MAX_ROW_CHARACTERS = 16 * 1024;
/** Longer than any field a question has (500 characters); the shared rules refuse what is past theirs. */
const MAX_CELL_CHARACTERS = 2_000;

export const tooManyRowsMessage = (max: number) => `A spreadsheet can have at most ${max} rows.`;
export const unpacksTooLargeMessage = (maxBytes: number) => `This spreadsheet unpacks to more than ${describeBytes(maxBytes)}; it cannot be read.`;
export const rowTooLongMessage = (max: number) => `A row of this spreadsheet is longer than ${max} characters.`;

const NOT_A_SPREADSHEET = "Upload the quiz as a .csv or .xlsx file (an older .xls can be saved as .xlsx first).";
const NO_HEADER =
  "No header row found. Start from the template on the create page (columns Question, Kind, Answer 1 to 6, Correct, Time limit, Points), or Kahoot's quiz spreadsheet template.";
const NO_QUESTIONS = "The spreadsheet has no questions below its header row.";
const UNREADABLE_XLSX = "This .xlsx file could not be read. Save it again from your spreadsheet program and retry.";
const UNREADABLE_CSV = "This CSV file could not be read. Save it again from your spreadsheet program as CSV and retry.";
const unclosedQuoteMessage = (line: number) =>
  `This CSV file could not be read: a quotation mark is opened and never closed (the file ends inside it, at line ${line}).`;

const isZip = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
/** The old binary Excel format (an OLE compound file). */
const isXls = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0;

/** The rows of each sheet, in order; an error message when the file is not a readable spreadsheet. */
async function readSheets(bytes: Uint8Array, fileName: string, limits: SpreadsheetLimits): Promise<SheetRow[][] | string> {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (isXls(bytes)) return NOT_A_SPREADSHEET;
  // The content decides: a browser or a script may name a file anything.
  if (isZip(bytes)) return readXlsx(bytes, limits);
  if (extension === "xlsx" || extension === "xls") return extension === "xls" ? NOT_A_SPREADSHEET : UNREADABLE_XLSX;
  if (bytes.includes(0) && !hasUtf16Bom(bytes)) return NOT_A_SPREADSHEET;
  return readCsv(bytes, limits);
}

const hasUtf16Bom = (bytes: Uint8Array) => bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));

/**
 * CSV text as spreadsheet programs write it: UTF-8 (with or without a byte-order mark), UTF-16
 * ("Unicode text"), or, failing UTF-8, Windows-1252 (Excel's plain "CSV" on Western systems).
 */
function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

/**
 * The separator of the first line, outside quotes: a comma, or the semicolon that spreadsheet
 * programs write where a comma is the decimal mark, or a tab.
 */
function detectDelimiter(text: string): string {
  const counts = new Map([
    [",", 0],
    [";", 0],
    ["\t", 0],
  ]);
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "\n" || char === "\r")) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  return [...counts.entries()].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

/**
 * A cell our CSV export guarded against being run as a formula (a leading apostrophe before `=`,
 * `+`, `-`, `@`, a tab or a carriage return) reads as what was written.
 */
const unguard = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

/** A cell as read: at most MAX_CELL_CHARACTERS, so no rule or pattern after this sees a longer text. */
const boundedCell = (text: string) => (text.length > MAX_CELL_CHARACTERS ? text.slice(0, MAX_CELL_CHARACTERS) : text);

function readCsv(bytes: Uint8Array, limits: SpreadsheetLimits): SheetRow[][] | string {
  const text = decodeText(bytes).replace(/^\uFEFF/, "");
  let records: string[][];
  try {
    // Empty lines are kept as records, so a record's place is its row number in a spreadsheet.
    // One record more than the limit is read, to know the file has more.
    records = parse(text, {
      delimiter: detectDelimiter(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      max_record_size: MAX_ROW_CHARACTERS,
      to: limits.maxRows + 1,
    });
  } catch (error) {
    // csv-parse's own words are English and name its internals: the one problem a relaxed parse
    // still meets is an unclosed quote, said with the line the file ended on.
    const { code, lines } = error as { code?: unknown; lines?: unknown };
    if (code === "CSV_QUOTE_NOT_CLOSED" && typeof lines === "number") return unclosedQuoteMessage(lines);
    if (code === "CSV_MAX_RECORD_SIZE") return rowTooLongMessage(MAX_ROW_CHARACTERS);
    return UNREADABLE_CSV;
  }
  if (records.length > limits.maxRows) return tooManyRowsMessage(limits.maxRows);
  return [
    records.map((cells, i) => ({
      number: i + 1,
      cells: cells.slice(0, MAX_SPREADSHEET_COLUMNS).map((cell) => unguard(boundedCell(cell.replace(/\r$/, "")))),
    })),
  ];
}

/**
 * An .xlsx read as a stream: its index checked and its parts inflated within the limits first
 * (xlsx-archive.server.ts), then exceljs's WorkbookReader, one row at a time, stopping at the row
 * limit; the whole workbook is never built in memory.
 */
async function readXlsx(bytes: Uint8Array, limits: SpreadsheetLimits): Promise<SheetRow[][] | string> {
  const checked = checkArchive(bytes, limits);
  if (!checked.ok) return checked.reason === "too-large" ? unpacksTooLargeMessage(limits.maxUnpackedBytes) : UNREADABLE_XLSX;
  const archive = workbookPartsArchive(bytes, checked);
  if (!Buffer.isBuffer(archive)) return UNREADABLE_XLSX;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([archive]), {
    worksheets: "emit",
    sharedStrings: "cache",
    // Styles tell a date from a number.
    styles: "cache",
    hyperlinks: "ignore",
    entries: "ignore",
  });
  const sheets: SheetRow[][] = [];
  let read = 0;
  try {
    for await (const worksheet of reader) {
      const rows: SheetRow[] = [];
      for await (const row of worksheet) {
        if (++read > limits.maxRows) return tooManyRowsMessage(limits.maxRows);
        const cells: string[] = [];
        row.eachCell({ includeEmpty: false }, (cell, column) => {
          if (column <= MAX_SPREADSHEET_COLUMNS) cells[column - 1] = boundedCell(cellText(cell.value));
        });
        if (cells.length > 0) rows.push({ number: row.number, cells: Array.from(cells, (cell) => cell ?? "") });
      }
      sheets.push(rows);
    }
  } catch {
    return UNREADABLE_XLSX;
  }
  return sheets;
}

/** A cell's value as the text a person sees in it. */
function cellText(value: ExcelJS.CellValue | unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === "object") {
    if ("richText" in value && Array.isArray(value.richText)) return value.richText.map((part: { text?: string }) => part.text ?? "").join("");
    if ("result" in value) return cellText(value.result);
    if ("formula" in value || "sharedFormula" in value || "error" in value) return "";
    if ("text" in value) return cellText(value.text);
  }
  return "";
}

// ------------------------------------------------------------------------------ rows into questions

const cellAt = (row: SheetRow, column: number | undefined) => (column === undefined ? "" : (row.cells[column] ?? "").trim());

function isBlank(row: SheetRow, columns: Columns): boolean {
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

function readRow(row: SheetRow, columns: Columns): RowReading {
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
    if (!kind) return { status: "invalid", message: KIND_MESSAGE };
  } else {
    const numbers = answerNumbers(correct);
    const trueFalse = answers.length === 2 && answers.every((answer, i) => answer.toLowerCase() === TRUE_FALSE_ANSWERS[i].toLowerCase());
    kind = numbers && numbers.length > 1 ? "multiSelect" : trueFalse ? "trueFalse" : "choice";
  }

  const common = { kind, text, timeLimit: readTimeLimit(cellAt(row, columns.timeLimit)), points: readPoints(cellAt(row, columns.points)) };
  const toIndexes = (numbers: number[]): number[] | string => {
    const indexes: number[] = [];
    for (const n of numbers) {
      if (n < 1 || n > MAX_OPTIONS) return `Correct names answer ${n}; answers are numbered 1 to ${MAX_OPTIONS}.`;
      const index = indexOfAnswer(n);
      if (index < 0) return `Correct names answer ${n}, which is empty.`;
      indexes.push(index);
    }
    return indexes;
  };

  return kindSpreadsheetOf(kind).read({ common, answers, correct, answerNumbers, toIndexes });
}

/**
 * A spreadsheet refused from what costs nothing to look at (its size, an .xlsx's index), or null
 * when it must be read: for a caller that would start a worker thread to read it.
 */
export function precheckSpreadsheet(bytes: Uint8Array, limits: SpreadsheetLimits = DEFAULT_SPREADSHEET_LIMITS): SpreadsheetResult | null {
  if (bytes.byteLength > MAX_SPREADSHEET_BYTES) return fileError(spreadsheetTooLargeMessage());
  if (!isZip(bytes)) return null;
  const checked = checkArchive(bytes, limits);
  return !checked.ok && checked.reason === "too-large" ? fileError(unpacksTooLargeMessage(limits.maxUnpackedBytes)) : null;
}

/**
 * A spreadsheet's questions, in order, or every problem by row. Blank rows are skipped; the first
 * sheet with a header row is read.
 */
export async function parseQuizSpreadsheet(
  bytes: Uint8Array,
  fileName: string,
  limits: SpreadsheetLimits = DEFAULT_SPREADSHEET_LIMITS,
): Promise<SpreadsheetResult> {
  if (bytes.byteLength > MAX_SPREADSHEET_BYTES) return fileError(spreadsheetTooLargeMessage());
  if (bytes.byteLength === 0) return fileError(NO_QUESTIONS);
  const sheets = await readSheets(bytes, fileName, limits);
  if (typeof sheets === "string") return fileError(sheets);

  let found: { rows: SheetRow[]; header: Header } | undefined;
  for (const rows of sheets) {
    const header = findHeader(rows);
    if (header) {
      found = { rows, header };
      break;
    }
  }
  if (!found) return fileError(NO_HEADER);
  const { columns, layout } = found.header;
  const dataRows = found.rows.slice(found.header.index + 1).filter((row) => !isBlank(row, columns));
  if (dataRows.length === 0) return fileError(NO_QUESTIONS);
  if (dataRows.length > MAX_QUESTIONS) return fileError(`${tooManyQuestionsMessage(MAX_QUESTIONS)} This file has ${dataRows.length}.`);

  const questions: QuestionContent[] = [];
  const errors: RowError[] = [];
  for (const row of dataRows) {
    const reading = readRow(row, columns);
    if (reading.status === "invalid") {
      errors.push({ row: row.number, message: `Row ${row.number}: ${reading.message}` });
      continue;
    }
    const parsed = QuestionInputSchema.safeParse(reading.input);
    if (parsed.success) {
      questions.push(parsed.data);
      continue;
    }
    for (const message of new Set(parsed.error.issues.map((issue) => issue.message))) {
      errors.push({ row: row.number, message: `Row ${row.number}: ${message}` });
    }
  }
  return errors.length > 0 ? { status: "invalid", errors } : { status: "ok", layout, questions };
}

export { DEFAULT_SPREADSHEET_LIMITS, type SpreadsheetLimits };
