/**
 * Reading an import request, shared by POST /api/quizzes/import and the /create/import page: a
 * quiz file as JSON, or a multipart upload of a quiz file or a spreadsheet, checked whole, then
 * stored for the caller within the creation limits and its storage. It answers with a result, never
 * an HTTP status: the routes map each reason (IMPORT_FAILURE_STATUS in api.server.ts).
 */
import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, type AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { importQuiz, type RowError } from "#app/models/quiz-transfer.server";
import type { Question, Quiz } from "#app/models/quiz.server";
import { fieldErrorsOf } from "#app/http/api.server";
import { ROUTE_BODIES } from "#app/limits/body-limits";
import { BodyRefusal, readBodyChunks, readMultipart } from "#app/http/request-body.server";
import { ensureClientId } from "#app/sessions/client-id.server";
import {
  MAX_IMPORT_REQUEST_BYTES,
  MAX_QUIZ_FILE_BYTES,
  MAX_SPREADSHEET_BYTES,
  quizFileTooLargeMessage,
  spreadsheetTooLargeMessage,
  SpreadsheetDetailsSchema,
  titleFromFileName,
} from "#app/quiz-files/quiz-file";
import { busyAnswer, FILE_TOO_COMPLEX } from "#app/limits/heavy-limits";
import { precheckImportSource, type ImportInvalid, type ImportSource, type ReadImportResult } from "#app/quiz-files/import-reading.server";
import { checkLimits, type LimitName } from "#app/limits/rate-limits.server";
import { chargeUpload, uploadAllowance } from "#app/pictures/picture-uploads.server";
import { getUser } from "#app/sessions/session.server";
import { describeBytes, overStorageError, overStorageMessage, storageLimitOfUser } from "#app/pictures/storage-limits";
import { appError, type AppError } from "#app/i18n/app-error";
import { coded, issueError } from "#app/i18n/coded";

const FORM_FIELDS = new Set(["file", "title", "description", "timeLimit", "visibility"]);

const CHOOSE_FILE = "Choose a quiz file (.json) or a spreadsheet (.csv or .xlsx) to import.";
const NOT_JSON = "This quiz file is not valid JSON.";

const SEND_A_FILE = "Send a quiz file as JSON, or a file as multipart/form-data with a field named file.";
const DEFAULT_TITLE = "Imported quiz";

const VisibilitySchema = z.enum(["private", "public"], coded("QUIZ_VISIBILITY_CHOICE")).default("private");

/**
 * Why an import was refused: "too-large" (the request, file or spreadsheet), "unsupported-type" (a
 * form encoding that cannot carry a file), "no-file", "not-json", "invalid-details" (visibility or a
 * spreadsheet's title, description, time limit), "invalid-file" (the file's content, every problem),
 * "rate-limited" (a creation limit, or a daily picture budget), "over-quota" (the pictures would
 * overfill the owner's storage), "no-session" (a file with pictures from a caller without a session),
 * "disk-low" (pictures while the disk is nearly full; app/pictures/picture-uploads.server.ts), "busy"
 * (the node is reading as many files as it takes at once; try again shortly).
 */
export type ImportFailureReason =
  | "too-large"
  | "unsupported-type"
  | "no-file"
  | "not-json"
  | "invalid-details"
  | "invalid-file"
  | "rate-limited"
  | "over-quota"
  | "no-session"
  | "disk-low"
  | "busy";

export interface ImportRefusal {
  reason: ImportFailureReason;
  /** The first problem, for a person. */
  message: string;
  /**
   * Its code and values (docs/decisions/0047-errors-as-codes.md); absent only for a refusal only
   * API callers see and for a file's problem that zod words itself (the catalog does not hold it).
   */
  error?: AppError;
  /** Each problem by field: "file", "visibility", a spreadsheet's details, or a quiz file's paths ("invalid-file"). */
  fieldErrors?: Record<string, string[]>;
  /** "invalid-file" from a spreadsheet: its problems by row. */
  rows?: RowError[];
  /** "rate-limited" and "busy": when to try again. */
  retryAfterSeconds?: number;
}

type Refused = { ok: false } & ImportRefusal;

/** A file that cannot be imported: its first problem by its code, every problem by field and by row. */
function invalidFileRefusal(invalid: ImportInvalid): Refused {
  const { message, error, fieldErrors, rows } = invalid;
  return { ok: false, reason: "invalid-file", message, ...(error ? { error } : {}), fieldErrors, ...(rows ? { rows } : {}) };
}
type Checked<T> = { ok: true; value: T } | Refused;

export type ImportFromRequestResult = { ok: true; quiz: Quiz & { questions: Question[] }; headers: HeadersInit } | Refused;

function visibilityOf(value: FormDataEntryValue | string | null): Checked<boolean> {
  const visibility = VisibilitySchema.safeParse(value === null || value === "" ? undefined : value);
  if (!visibility.success) {
    const message = visibility.error.issues[0].message;
    return { ok: false, reason: "invalid-details", message, error: issueError(visibility.error.issues[0]), fieldErrors: { visibility: [message] } };
  }
  return { ok: true, value: visibility.data === "public" };
}

/** A quiz file's bytes with the visibility it is imported with; joined, decoded and parsed later, in a worker. */
function quizFileSource(bytes: Uint8Array[], visibility: FormDataEntryValue | string | null): Checked<ImportSource> {
  const isPublic = visibilityOf(visibility);
  if (!isPublic.ok) return isPublic;
  return { ok: true, value: { quizFile: bytes, isPublic: isPublic.value } };
}

/** A multipart upload: a quiz file, or a spreadsheet with the quiz's details in the other fields. */
async function readUpload(request: Request): Promise<Checked<ImportSource>> {
  let form: FormData;
  try {
    // Its parts counted and checked as they come (body-limits.ts); the file is read here.
    form = await readMultipart(
      request,
      ROUTE_BODIES["/api/quizzes/import"].body,
      unstable_createMemoryUploadHandler({
        maxPartSize: MAX_QUIZ_FILE_BYTES,
        filter: ({ name }) => FORM_FIELDS.has(name),
      }),
    );
  } catch (error) {
    if (error instanceof BodyRefusal) return { ok: false, reason: error.status === 413 ? "too-large" : "no-file", message: error.message, error: error.error };
    if (error instanceof MaxPartSizeExceededError) return quizFileTooLarge();
    return { ok: false, reason: "no-file", message: CHOOSE_FILE, error: appError("IMPORT_CHOOSE_FILE") };
  }
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0)
    return { ok: false, reason: "no-file", message: CHOOSE_FILE, error: appError("IMPORT_CHOOSE_FILE"), fieldErrors: { file: [CHOOSE_FILE] } };
  const bytes = new Uint8Array(await file.arrayBuffer());

  // A quiz file by its name, or by its content when a script names it otherwise.
  const start = new TextDecoder()
    .decode(bytes.subarray(0, 16))
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (/\.json$/i.test(file.name) || start.startsWith("{")) return quizFileSource([bytes], form.get("visibility"));

  if (bytes.byteLength > MAX_SPREADSHEET_BYTES)
    return {
      ok: false,
      reason: "too-large",
      message: spreadsheetTooLargeMessage(),
      error: appError("IMPORT_SPREADSHEET_TOO_LARGE", { size: describeBytes(MAX_SPREADSHEET_BYTES) }),
    };
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  // A spreadsheet holds only questions: its file name is the title unless one is given.
  const details = SpreadsheetDetailsSchema.safeParse({
    title: text("title")?.trim() || titleFromFileName(file.name) || DEFAULT_TITLE,
    description: text("description"),
    timeLimit: text("timeLimit"),
    visibility: text("visibility") || undefined,
  });
  if (!details.success) {
    const fieldErrors = fieldErrorsOf(details.error);
    return { ok: false, reason: "invalid-details", message: Object.values(fieldErrors)[0][0], error: issueError(details.error.issues[0]), fieldErrors };
  }
  return { ok: true, value: { spreadsheet: { bytes, fileName: file.name }, ...details.data } };
}

/** The quiz file or spreadsheet a request carries, by its content type. */
async function readImport(request: Request, contentType: string): Promise<Checked<ImportSource>> {
  if (contentType.startsWith("multipart/form-data")) return readUpload(request);
  let chunks: Uint8Array[];
  try {
    chunks = await readBodyChunks(request, MAX_QUIZ_FILE_BYTES);
  } catch (error) {
    if (error instanceof BodyRefusal) return quizFileTooLarge();
    throw error;
  }
  return quizFileSource(chunks, new URL(request.url).searchParams.get("visibility"));
}

/** A creation limit's refusal, or null when the request is within it. */
async function overLimit(context: AppLoadContext, name: LimitName, points?: number): Promise<Refused | null> {
  const check = await checkLimits(context, [{ name, points }]);
  return check.ok ? null : { ok: false, reason: "rate-limited", message: check.message, error: check.error, retryAfterSeconds: check.retryAfterSeconds };
}

/** The file read and checked in a worker thread; a file that ran it out of memory or time is refused as too complex. */
async function readInWorker(context: AppLoadContext, source: ImportSource): Promise<ReadImportResult | Refused> {
  const outcome = await context.heavyWork.inWorker({ kind: "read-import", source, limits: context.heavyWork.options.spreadsheet });
  if (outcome.ok) return outcome.value;
  if (outcome.reason === "failed") throw new Error("Reading an import failed in its worker thread");
  return tooComplex();
}

/** A file too large or too complex to read, whichever part of the import found it. */
function tooComplex(): Refused {
  return { ok: false, reason: "too-large", message: FILE_TOO_COMPLEX, error: appError("IMPORT_FILE_TOO_COMPLEX"), fieldErrors: { file: [FILE_TOO_COMPLEX] } };
}

function quizFileTooLarge(): Refused {
  return {
    ok: false,
    reason: "too-large",
    message: quizFileTooLargeMessage(),
    error: appError("IMPORT_QUIZ_FILE_TOO_LARGE", { size: describeBytes(MAX_QUIZ_FILE_BYTES) }),
  };
}

/**
 * Imports the quiz a request carries for its caller: the quiz with its questions and the headers
 * to answer with (a minted client id), or why not (limits, size, the file's problems, storage).
 */
export async function importFromRequest(context: AppLoadContext, request: Request): Promise<ImportFromRequestResult> {
  if (Number(request.headers.get("content-length") ?? "0") > MAX_IMPORT_REQUEST_BYTES) return quizFileTooLarge();
  const contentType = (request.headers.get("content-type") ?? "").toLowerCase();
  if (contentType.startsWith("application/x-www-form-urlencoded")) return { ok: false, reason: "unsupported-type", message: SEND_A_FILE };
  const quizLimit = await overLimit(context, "quiz");
  if (quizLimit) return quizLimit;
  const user = await getUser(context, request);
  // A caller with no identity gets a client id minted (and its cookie), so the quiz is someone's.
  const { clientId, headers } = ensureClientId(request);
  const owner = { userId: user?.id ?? null, clientId };

  // A slot before the body is read: a busy node reads no more of it, and holds at most its
  // slots' and queue's files in memory.
  const slot = await context.heavyWork.acquire(context.clientIp);
  if (!slot.ok) {
    // One address waits for its own file (429, as a limit); a node busy with everyone's says so (503).
    const { status, message, error } = busyAnswer(slot);
    return { ok: false, reason: status === 429 ? "rate-limited" : "busy", message, error, retryAfterSeconds: slot.retryAfterSeconds };
  }
  let result: Awaited<ReturnType<typeof importQuiz>>;
  let pictureCount: number;
  let pictureBytes: number;
  try {
    const input = await readImport(request, contentType);
    if (!input.ok) return input;
    const { spreadsheet: limits, maxInputPixels } = context.heavyWork.options;
    // A zip bomb is refused from its index here, before a worker is started for it.
    const read = precheckImportSource(input.value, limits) ?? (await readInWorker(context, input.value));
    if ("ok" in read) return read;
    if (read.status === "not-json")
      return { ok: false, reason: "not-json", message: NOT_JSON, error: appError("IMPORT_NOT_JSON"), fieldErrors: { file: [NOT_JSON] } };
    if (read.status === "too-complex") return tooComplex();
    if (read.status === "invalid") return invalidFileRefusal(read);

    // The same costs as making the quiz by hand: one quiz, each question, each picture.
    const { questions, pictures } = read.value;
    const questionLimit = await overLimit(context, "question", questions.length);
    if (questionLimit) return questionLimit;
    pictureCount = pictures.filter(Boolean).length;
    pictureBytes = pictures.reduce((sum, picture) => sum + (picture?.byteLength ?? 0), 0);
    if (pictureCount > 0) {
      // Pictures come in as an upload does: with a session, within the day's budgets, above the disk's floor.
      const upload = await uploadAllowance(context, user);
      if (!upload.ok) {
        const { refusal } = upload;
        if (refusal.reason === "over-budget")
          return { ok: false, reason: "rate-limited", message: refusal.message, error: refusal.error, retryAfterSeconds: refusal.retryAfterSeconds };
        return { ok: false, reason: refusal.reason, message: refusal.message, error: refusal.error };
      }
      const imageLimit = await overLimit(context, "image", pictureCount);
      if (imageLimit) return imageLimit;
    }

    const limitBytes = storageLimitOfUser(user);
    // The pictures are re-encoded within this import's slot.
    result = await importQuiz(context.db, { prepared: read.value }, owner, limitBytes, Date.now(), { maxInputPixels });
  } finally {
    slot.release();
  }
  if (result.status === "invalid") return invalidFileRefusal(result);
  // As for an upload: the file is fine; the owner's storage is full.
  if (result.status === "over-quota")
    return {
      ok: false,
      reason: "over-quota",
      message: overStorageMessage(result.usedBytes, result.limitBytes),
      error: overStorageError(result.usedBytes, result.limitBytes),
    };

  // The budgets count the pictures as they came in the file (what they were stored as is not told back).
  if (pictureBytes > 0) await chargeUpload(context, pictureBytes);
  const quiz = result.value;
  context.logger.info(
    {
      event: "quiz_imported",
      quizId: quiz.id,
      questions: quiz.questions.length,
      pictures: pictureCount,
      userId: user?.id ?? null,
    },
    "quiz imported",
  );
  return { ok: true, quiz, headers };
}
