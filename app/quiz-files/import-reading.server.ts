/**
 * Reading and checking an imported quiz file or spreadsheet, whole, touching nothing: no database,
 * no sharp. What a worker thread runs for an import request (server/heavy-worker.ts), and what
 * `importQuiz` runs itself when called with a file in hand.
 */
import { getHeapStatistics } from "node:v8";
import type { QuestionContent } from "#app/game/question-kinds";
import type { NewQuiz } from "#app/models/quiz.server";
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from "#app/limits/heavy-limits";
import { sniffPictureFormat } from "#app/pictures/picture-format";
import { QuizFileSchema, type ParsedQuizFile } from "#app/quiz-files/quiz-file";
import {
  DEFAULT_SPREADSHEET_LIMITS,
  parseQuizSpreadsheet,
  precheckSpreadsheet,
  type RowError,
  type SpreadsheetLimits,
  type SpreadsheetResult,
} from "#app/quiz-files/quiz-spreadsheet-reading.server";
import { MAX_UPLOAD_BYTES, pictureTooLargeError } from "#app/pictures/storage-limits";
import { appError, type AppError } from "#app/i18n/app-error";
import { codedIssue, englishOf, issueError } from "#app/i18n/coded";

/** What to import: a quiz file (any JSON value; it is checked here), or a spreadsheet with the quiz's details. */
export type ImportInput = { file: unknown; isPublic?: boolean } | ({ spreadsheet: { bytes: Uint8Array; fileName: string } } & NewQuiz);

/** A file that passed every check: the quiz, its questions (no pictures yet), and each question's picture bytes. */
export interface PreparedImport {
  quiz: NewQuiz;
  questions: QuestionContent[];
  pictures: (Uint8Array | null)[];
}

/**
 * What is wrong with a file: `message` is the first problem, for a one-line answer, and `error` its
 * code and values (docs/decisions/0047-errors-as-codes.md; absent only for a problem zod words
 * itself, which the catalog does not hold); a quiz file's problems are in `fieldErrors` by path
 * (`questions.2.answers`), a spreadsheet's in `rows`.
 */
export interface ImportInvalid {
  status: "invalid";
  message: string;
  error?: AppError;
  fieldErrors: Record<string, string[]>;
  rows?: RowError[];
}

export type PrepareImportResult = { status: "ok"; value: PreparedImport } | ImportInvalid;

/** A problem of the file at its path: a zod issue, or one made as `coded` makes it (`codedIssue`). */
export type FileIssue = { path: PropertyKey[]; message: string; params?: unknown };

/**
 * The first problem as a person reads it, with its code: "Question 3: ..." (`IMPORT_QUESTION_PROBLEM`,
 * the question's own problem nested) for a problem inside the third question, as a person counts them.
 */
function located(issue: FileIssue): { message: string; error?: AppError } {
  const own = issueError(issue);
  if (issue.path[0] !== "questions" || typeof issue.path[1] !== "number") return own ? { message: issue.message, error: own } : { message: issue.message };
  const error = appError("IMPORT_QUESTION_PROBLEM", { n: issue.path[1] + 1, message: own ?? issue.message });
  return { message: englishOf(error), error };
}

export function invalidFile(issues: FileIssue[]): ImportInvalid {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "_form";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return { status: "invalid", ...located(issues[0]), fieldErrors };
}

/** A picture embedded in the file, decoded and checked as an upload is, before anything is stored. */
function decodePicture(data: string): Uint8Array | AppError {
  const bytes = Buffer.from(data, "base64");
  if (bytes.byteLength > MAX_UPLOAD_BYTES) return pictureTooLargeError(MAX_UPLOAD_BYTES);
  if (!sniffPictureFormat(bytes)) return appError("PICTURE_UNSUPPORTED");
  return bytes;
}

function prepareFile(file: unknown, isPublic: boolean): PrepareImportResult {
  const parsed = QuizFileSchema.safeParse(file);
  if (!parsed.success) return invalidFile(parsed.error.issues);
  const { title, description, timeLimit, questions }: ParsedQuizFile = parsed.data;
  const problems: FileIssue[] = [];
  const pictures = questions.map(({ image }, index) => {
    if (!image) return null;
    const picture = decodePicture(image.data);
    if (picture instanceof Uint8Array) return picture;
    problems.push({ path: ["questions", index, "image"], ...codedIssue(picture.code, picture.values) });
    return null;
  });
  if (problems.length > 0) return invalidFile(problems);
  return {
    status: "ok",
    value: { quiz: { title, description, timeLimit, isPublic }, questions: questions.map(({ content }) => content), pictures },
  };
}

function spreadsheetInvalid(parsed: Extract<SpreadsheetResult, { status: "invalid" }>): ImportInvalid {
  const messages = parsed.errors.map((error) => error.message);
  return { status: "invalid", message: messages[0], error: parsed.errors[0].error, fieldErrors: { file: messages }, rows: parsed.errors };
}

/** Checks a file whole, touching nothing: what `importQuiz` would create, or every problem. */
export async function prepareImport(input: ImportInput, limits: SpreadsheetLimits = DEFAULT_SPREADSHEET_LIMITS): Promise<PrepareImportResult> {
  if ("file" in input) return prepareFile(input.file, input.isPublic ?? false);
  const { spreadsheet, title, description, timeLimit, isPublic } = input;
  const parsed = await parseQuizSpreadsheet(spreadsheet.bytes, spreadsheet.fileName, limits);
  if (parsed.status === "invalid") return spreadsheetInvalid(parsed);
  return {
    status: "ok",
    value: { quiz: { title, description, timeLimit, isPublic }, questions: parsed.questions, pictures: parsed.questions.map(() => null) },
  };
}

/**
 * An import as it arrives: a quiz file's bytes (JSON, not yet decoded) in the chunks the body came
 * in (joined in the worker, not on the game's thread), or a spreadsheet's with the quiz's details
 * from the form.
 */
export type ImportSource = { quizFile: Uint8Array[]; isPublic: boolean } | ({ spreadsheet: { bytes: Uint8Array; fileName: string } } & NewQuiz);

export type ReadImportResult = PrepareImportResult | { status: "not-json" } | { status: "too-complex" };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/**
 * Whether JSON text stays within MAX_JSON_VALUES values and MAX_JSON_DEPTH levels, read byte by
 * byte outside strings, in one pass and no memory: the bound JSON.parse itself does not have.
 * Malformed text is left for JSON.parse to refuse.
 */
export function jsonWithinShape(chunks: Uint8Array[]): boolean {
  let inString = false;
  let escaped = false;
  let depth = 0;
  let values = 0;
  for (const bytes of chunks) {
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
        continue;
      }
      if (byte === QUOTE) inString = true;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        if (++depth > MAX_JSON_DEPTH || ++values > MAX_JSON_VALUES) return false;
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth--;
      else if (byte === COMMA && ++values > MAX_JSON_VALUES) return false;
    }
  }
  return true;
}

/**
 * Whether decoding and parsing these bytes fits the heap this thread has: the text (up to twice the
 * bytes, for characters past Latin-1), its parsed strings as much again, and room to spare. A single
 * allocation near a worker's heap limit ends the whole process, not the worker (V8 gives up
 * before Node's near-limit handler can end the worker), so a file too large for the heap is
 * refused before any of it is decoded.
 */
function fitsHeap(chunks: Uint8Array[]): boolean {
  const bytes = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  return bytes * 5 <= getHeapStatistics().heap_size_limit;
}

/** A source decoded and checked whole: the work of an import that grows with its file. */
export async function readImportSource(source: ImportSource, limits: SpreadsheetLimits = DEFAULT_SPREADSHEET_LIMITS): Promise<ReadImportResult> {
  if ("spreadsheet" in source) return prepareImport(source, limits);
  if (!fitsHeap(source.quizFile) || !jsonWithinShape(source.quizFile)) return { status: "too-complex" };
  let file: unknown;
  try {
    file = JSON.parse(new TextDecoder().decode(Buffer.concat(source.quizFile)).replace(/^\uFEFF/, ""));
  } catch {
    return { status: "not-json" };
  }
  return prepareImport({ file, isPublic: source.isPublic }, limits);
}

/** A spreadsheet refused from its size or its archive's index alone, without reading it; null otherwise. */
export function precheckImportSource(source: ImportSource, limits: SpreadsheetLimits = DEFAULT_SPREADSHEET_LIMITS): ImportInvalid | null {
  if (!("spreadsheet" in source)) return null;
  const refused = precheckSpreadsheet(source.spreadsheet.bytes, limits);
  return refused?.status === "invalid" ? spreadsheetInvalid(refused) : null;
}
