/**
 * Reading an import request, shared by POST /api/quizzes/import and the /create/import page: a
 * quiz file as JSON, or a multipart upload of a quiz file or a spreadsheet, checked whole, then
 * stored for the caller within the creation limits and its storage.
 */
import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData, type AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { importQuiz, prepareImport, type ImportInput, type ImportInvalid } from "#app/models/quiz-transfer.server";
import type { Question, Quiz } from "#app/models/quiz.server";
import { ApiError, fieldErrorsOf, readLimitedText, requireWithinLimit } from "#app/utils/api.server";
import { ensureClientId } from "#app/utils/client-id.server";
import {
  MAX_IMPORT_REQUEST_BYTES,
  MAX_QUIZ_FILE_BYTES,
  MAX_SPREADSHEET_BYTES,
  quizFileTooLargeMessage,
  spreadsheetTooLargeMessage,
  SpreadsheetDetailsSchema,
  titleFromFileName,
} from "#app/utils/quiz-file";
import { getUser } from "#app/utils/session.server";
import { overStorageMessage, storageLimitOfUser } from "#app/utils/storage-limits";

const FORM_FIELDS = new Set(["file", "title", "description", "timeLimit", "visibility"]);
const CHOOSE_FILE = "Choose a quiz file (.json) or a spreadsheet (.csv or .xlsx) to import.";
const NOT_JSON = "This quiz file is not valid JSON.";
const DEFAULT_TITLE = "Imported quiz";

const VisibilitySchema = z.enum(["private", "public"], { error: "Choose private or public." }).default("private");

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    throw new ApiError(400, NOT_JSON, { file: [NOT_JSON] });
  }
}

function visibilityOf(value: FormDataEntryValue | string | null): boolean {
  const visibility = VisibilitySchema.safeParse(value === null || value === "" ? undefined : value);
  if (!visibility.success)
    throw new ApiError(400, visibility.error.issues[0].message, {
      visibility: [visibility.error.issues[0].message],
    });
  return visibility.data === "public";
}

/** A multipart upload: a quiz file, or a spreadsheet with the quiz's details in the other fields. */
async function readUpload(request: Request): Promise<ImportInput> {
  let form: FormData;
  try {
    form = await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({
        maxPartSize: MAX_QUIZ_FILE_BYTES,
        filter: ({ name }) => FORM_FIELDS.has(name),
      }),
    );
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) throw new ApiError(413, quizFileTooLargeMessage());
    throw new ApiError(400, CHOOSE_FILE);
  }
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) throw new ApiError(400, CHOOSE_FILE, { file: [CHOOSE_FILE] });
  const bytes = new Uint8Array(await file.arrayBuffer());

  // A quiz file by its name, or by its content when a script names it otherwise.
  const start = new TextDecoder()
    .decode(bytes.subarray(0, 16))
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (/\.json$/i.test(file.name) || start.startsWith("{")) {
    return {
      file: parseJson(new TextDecoder().decode(bytes)),
      isPublic: visibilityOf(form.get("visibility")),
    };
  }

  if (bytes.byteLength > MAX_SPREADSHEET_BYTES) throw new ApiError(413, spreadsheetTooLargeMessage());
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
    throw new ApiError(400, Object.values(fieldErrors)[0][0], fieldErrors);
  }
  return { spreadsheet: { bytes, fileName: file.name }, ...details.data };
}

/** 400 with the first problem in `error`, each by field in `fieldErrors`, and a spreadsheet's by row in `rows`. */
export function invalidResponse(invalid: ImportInvalid): Response {
  const body = {
    error: invalid.message,
    fieldErrors: invalid.fieldErrors,
    ...(invalid.rows ? { rows: invalid.rows } : {}),
  };
  return Response.json(body, { status: 400 });
}

/** A file that cannot be imported: every problem, a spreadsheet's by row. */
export class ImportRefused extends Error {
  constructor(readonly invalid: ImportInvalid) {
    super(invalid.message);
  }
}

/**
 * Imports the quiz a request carries for its caller: the quiz with its questions and the headers
 * to answer with (a minted client id). Throws ApiError (limits, size, storage) or ImportRefused.
 */
export async function importFromRequest(context: AppLoadContext, request: Request): Promise<{ quiz: Quiz & { questions: Question[] }; headers: HeadersInit }> {
  if (Number(request.headers.get("content-length") ?? "0") > MAX_IMPORT_REQUEST_BYTES) throw new ApiError(413, quizFileTooLargeMessage());
  const contentType = (request.headers.get("content-type") ?? "").toLowerCase();
  if (contentType.startsWith("application/x-www-form-urlencoded")) {
    throw new ApiError(415, "Send a quiz file as JSON, or a file as multipart/form-data with a field named file.");
  }
  await requireWithinLimit(context, "quiz");
  const user = await getUser(context, request);
  // A caller with no identity gets a client id minted (and its cookie), so the quiz is someone's.
  const { clientId, headers } = ensureClientId(request);
  const owner = { userId: user?.id ?? null, clientId };

  const input: ImportInput = contentType.startsWith("multipart/form-data")
    ? await readUpload(request)
    : {
        file: parseJson(await readLimitedText(request, MAX_QUIZ_FILE_BYTES, quizFileTooLargeMessage())),
        isPublic: visibilityOf(new URL(request.url).searchParams.get("visibility")),
      };
  const prepared = await prepareImport(input);
  if (prepared.status === "invalid") throw new ImportRefused(prepared);

  // The same costs as making the quiz by hand: one quiz, each question, each picture.
  const { questions, pictures } = prepared.value;
  await requireWithinLimit(context, "question", { points: questions.length });
  const pictureCount = pictures.filter(Boolean).length;
  if (pictureCount > 0) await requireWithinLimit(context, "image", { points: pictureCount });

  const limitBytes = storageLimitOfUser(user);
  const result = await importQuiz(context.db, { prepared: prepared.value }, owner, limitBytes);
  if (result.status === "invalid") throw new ImportRefused(result);
  // 409 as for an upload: the file is fine; the owner's storage is full.
  if (result.status === "over-quota") throw new ApiError(409, overStorageMessage(result.usedBytes, result.limitBytes));

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
  return { quiz, headers };
}
