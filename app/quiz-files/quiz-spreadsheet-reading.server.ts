/**
 * Quizzes as spreadsheets (CSV and XLSX), in two layouts found by their header row: ours (the
 * template `/create` offers) and Kahoot's "quiz spreadsheet template", so hosts can bring the
 * quizzes they already have. Every row goes through `QuestionInputSchema`, the rule every way in
 * shares; a file is accepted whole or not at all, with each bad row named by its number as the
 * spreadsheet shows it. Pictures travel only in the JSON quiz file.
 *
 * Reading only, with no writers and no catalog but the English errors its refusals are worded from
 * (each raised with its code, docs/decisions/0047-errors-as-codes.md), so a worker thread loads
 * little (server/heavy-worker.ts); quiz-spreadsheet.server.ts writes, and re-exports this.
 */
import { Readable } from "node:stream";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import type { QuestionContent } from "#app/game/question-kinds";
import { QuestionInputSchema } from "#app/game/question-input";
import { MAX_QUESTIONS } from "#app/schemas/form-schemas";
import { MAX_SPREADSHEET_BYTES } from "#app/quiz-files/quiz-file";
import { appError, isAppError, type AppError } from "#app/i18n/app-error";
import { englishOf, issueError } from "#app/i18n/coded";
import { DEFAULT_SPREADSHEET_LIMITS, type SpreadsheetLimits } from "#app/limits/heavy-limits";
import { describeBytes } from "#app/pictures/storage-limits";
import { checkArchive, workbookPartsArchive } from "#app/quiz-files/xlsx-archive.server";
import { type SpreadsheetLayout, type Header, findHeader } from "./quiz-spreadsheet-layout.server";
import { isBlank, readRow } from "./quiz-spreadsheet-row.server";

/** One row as the spreadsheet numbers it (1-based, the header included), each cell as text. */
export interface SheetRow {
  number: number;
  cells: string[];
}

/**
 * One problem of a spreadsheet, raised with its code (docs/decisions/0047-errors-as-codes.md): a
 * row's is `IMPORT_ROW_PROBLEM` with the row's own problem nested in it; `message` is its English.
 */
export interface RowError {
  /** The row as the spreadsheet shows it, header counted; 0 for the file as a whole. */
  row: number;
  message: string;
  error: AppError;
}

export type SpreadsheetResult = { status: "ok"; layout: SpreadsheetLayout; questions: QuestionContent[] } | { status: "invalid"; errors: RowError[] };

const fileError = (error: AppError): SpreadsheetResult => ({ status: "invalid", errors: [{ row: 0, message: englishOf(error), error }] });

/** A row's own problem (a zod issue's code, or its words when its rule gave none), as "Row 3: ...". */
function rowError(row: number, problem: AppError | string): RowError {
  const error = appError("IMPORT_ROW_PROBLEM", { row, message: problem });
  return { row, message: englishOf(error), error };
}

/** Columns read from each row: ours are ten, Kahoot's eight; any past these are ignored. */
export const MAX_SPREADSHEET_COLUMNS = 50;

/** A row of our layout at its longest is about 3,000 characters. */
export const MAX_ROW_CHARACTERS = 16 * 1024;

/** Longer than any field a question has (500 characters); the shared rules refuse what is past theirs. */
const MAX_CELL_CHARACTERS = 2_000;

// A file's problems, raised with their codes; their words are the errors catalog's.
const tooManyRows = (max: number) => appError("IMPORT_TOO_MANY_ROWS", { max });

const unpacksTooLarge = (maxBytes: number) => appError("IMPORT_SPREADSHEET_UNPACKS_TOO_LARGE", { size: describeBytes(maxBytes) });

const rowTooLong = (max: number) => appError("IMPORT_ROW_TOO_LONG", { max });

const spreadsheetTooLarge = () => appError("IMPORT_SPREADSHEET_TOO_LARGE", { size: describeBytes(MAX_SPREADSHEET_BYTES) });

const NOT_A_SPREADSHEET = appError("IMPORT_NOT_A_SPREADSHEET");

const NO_HEADER = appError("IMPORT_NO_HEADER");

const NO_QUESTIONS = appError("IMPORT_NO_QUESTIONS");

const UNREADABLE_XLSX = appError("IMPORT_XLSX_UNREADABLE");

const UNREADABLE_CSV = appError("IMPORT_CSV_UNREADABLE");

const unclosedQuote = (line: number) => appError("IMPORT_CSV_QUOTE_NOT_CLOSED", { line });

const isZip = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** The old binary Excel format (an OLE compound file). */
const isXls = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0;

/** The rows of each sheet, in order; the problem when the file is not a readable spreadsheet. */
async function readSheets(bytes: Uint8Array, fileName: string, limits: SpreadsheetLimits): Promise<SheetRow[][] | AppError> {
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

function readCsv(bytes: Uint8Array, limits: SpreadsheetLimits): SheetRow[][] | AppError {
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
    if (code === "CSV_QUOTE_NOT_CLOSED" && typeof lines === "number") return unclosedQuote(lines);
    if (code === "CSV_MAX_RECORD_SIZE") return rowTooLong(MAX_ROW_CHARACTERS);
    return UNREADABLE_CSV;
  }
  if (records.length > limits.maxRows) return tooManyRows(limits.maxRows);
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
async function readXlsx(bytes: Uint8Array, limits: SpreadsheetLimits): Promise<SheetRow[][] | AppError> {
  const checked = checkArchive(bytes, limits);
  if (!checked.ok) return checked.reason === "too-large" ? unpacksTooLarge(limits.maxUnpackedBytes) : UNREADABLE_XLSX;
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
        if (++read > limits.maxRows) return tooManyRows(limits.maxRows);
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

/**
 * A spreadsheet refused from what costs nothing to look at (its size, an .xlsx's index), or null
 * when it must be read: for a caller that would start a worker thread to read it.
 */
export function precheckSpreadsheet(bytes: Uint8Array, limits: SpreadsheetLimits = DEFAULT_SPREADSHEET_LIMITS): SpreadsheetResult | null {
  if (bytes.byteLength > MAX_SPREADSHEET_BYTES) return fileError(spreadsheetTooLarge());
  if (!isZip(bytes)) return null;
  const checked = checkArchive(bytes, limits);
  return !checked.ok && checked.reason === "too-large" ? fileError(unpacksTooLarge(limits.maxUnpackedBytes)) : null;
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
  if (bytes.byteLength > MAX_SPREADSHEET_BYTES) return fileError(spreadsheetTooLarge());
  if (bytes.byteLength === 0) return fileError(NO_QUESTIONS);
  const sheets = await readSheets(bytes, fileName, limits);
  if (isAppError(sheets)) return fileError(sheets);

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
  if (dataRows.length > MAX_QUESTIONS) return fileError(appError("IMPORT_TOO_MANY_QUESTIONS", { max: MAX_QUESTIONS, count: dataRows.length }));

  const questions: QuestionContent[] = [];
  const errors: RowError[] = [];
  for (const row of dataRows) {
    const reading = readRow(row, columns);
    if (reading.status === "invalid") {
      errors.push(rowError(row.number, reading.error));
      continue;
    }
    const parsed = QuestionInputSchema.safeParse(reading.input);
    if (parsed.success) {
      questions.push(parsed.data);
      continue;
    }
    // Each problem once, though several fields may meet the same rule.
    const said = new Set<string>();
    for (const issue of parsed.error.issues) {
      if (said.has(issue.message)) continue;
      said.add(issue.message);
      errors.push(rowError(row.number, issueError(issue) ?? issue.message));
    }
  }
  return errors.length > 0 ? { status: "invalid", errors } : { status: "ok", layout, questions };
}

export { DEFAULT_SPREADSHEET_LIMITS, type SpreadsheetLimits };
