/**
 * Import and export of whole quizzes: the JSON quiz file (pictures embedded) and spreadsheets
 * (questions only). A file is checked whole before anything is stored, and its quiz and
 * questions are created in one transaction.
 */
import { createHash } from "node:crypto";
import type { DB } from "#db/connection.server";
import { getImage, storeImage } from "#app/models/image.server";
import {
  createQuizWithQuestions,
  findOwnQuizWithQuestions,
  type NewQuiz,
  type Question,
  type Quiz,
  type QuizAccess,
  type Requester,
} from "#app/models/quiz.server";
import type { QuestionContent } from "#app/game/question-kinds";
import { sniffPictureFormat, UNSUPPORTED_PICTURE_MESSAGE } from "#app/utils/image-processing.server";
import { QuizFileSchema, toQuizFile, type ParsedQuizFile, type QuizFile } from "#app/utils/quiz-file";
import { parseQuizSpreadsheet, type RowError } from "#app/utils/quiz-spreadsheet.server";
import { MAX_UPLOAD_BYTES, pictureTooLargeMessage } from "#app/utils/storage-limits";

export type { RowError };

/** What to import: a quiz file (any JSON value; it is checked here), or a spreadsheet with the quiz's details. */
export type ImportInput = { file: unknown; isPublic?: boolean } | ({ spreadsheet: { bytes: Uint8Array; fileName: string } } & NewQuiz);

/** A file that passed every check: the quiz, its questions (no pictures yet), and each question's picture bytes. */
export interface PreparedImport {
  quiz: NewQuiz;
  questions: QuestionContent[];
  pictures: (Uint8Array | null)[];
}

/**
 * What is wrong with a file: `message` is the first problem, for a one-line answer; a quiz file's
 * problems are in `fieldErrors` by path (`questions.2.answers`), a spreadsheet's in `rows`.
 */
export interface ImportInvalid {
  status: "invalid";
  message: string;
  fieldErrors: Record<string, string[]>;
  rows?: RowError[];
}

export type PrepareImportResult = { status: "ok"; value: PreparedImport } | ImportInvalid;

export type ImportResult =
  | { status: "ok"; value: Quiz & { questions: Question[] } }
  | ImportInvalid
  /** The pictures would take the owner past its storage; nothing of the quiz was created. */
  | { status: "over-quota"; usedBytes: number; limitBytes: number };

/** "Question 3: ..." for a problem inside the third question, as a person counts them. */
function located(path: PropertyKey[], message: string): string {
  return path[0] === "questions" && typeof path[1] === "number" ? `Question ${path[1] + 1}: ${message}` : message;
}

function invalidFile(issues: { path: PropertyKey[]; message: string }[]): ImportInvalid {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "_form";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return { status: "invalid", message: located(issues[0].path, issues[0].message), fieldErrors };
}

/** A picture embedded in the file, decoded and checked as an upload is, before anything is stored. */
function decodePicture(data: string): Uint8Array | string {
  const bytes = Buffer.from(data, "base64");
  if (bytes.byteLength > MAX_UPLOAD_BYTES) return pictureTooLargeMessage(MAX_UPLOAD_BYTES);
  if (!sniffPictureFormat(bytes)) return UNSUPPORTED_PICTURE_MESSAGE;
  return bytes;
}

function prepareFile(file: unknown, isPublic: boolean): PrepareImportResult {
  const parsed = QuizFileSchema.safeParse(file);
  if (!parsed.success) return invalidFile(parsed.error.issues);
  const { title, description, timeLimit, questions }: ParsedQuizFile = parsed.data;
  const problems: { path: PropertyKey[]; message: string }[] = [];
  const pictures = questions.map(({ image }, index) => {
    if (!image) return null;
    const picture = decodePicture(image.data);
    if (typeof picture === "string") problems.push({ path: ["questions", index, "image"], message: picture });
    return typeof picture === "string" ? null : picture;
  });
  if (problems.length > 0) return invalidFile(problems);
  return {
    status: "ok",
    value: { quiz: { title, description, timeLimit, isPublic }, questions: questions.map(({ content }) => content), pictures },
  };
}

/** Checks a file whole, touching nothing: what `importQuiz` would create, or every problem. */
export async function prepareImport(input: ImportInput): Promise<PrepareImportResult> {
  if ("file" in input) return prepareFile(input.file, input.isPublic ?? false);
  const { spreadsheet, title, description, timeLimit, isPublic } = input;
  const parsed = await parseQuizSpreadsheet(spreadsheet.bytes, spreadsheet.fileName);
  if (parsed.status === "invalid") {
    const messages = parsed.errors.map((error) => error.message);
    return { status: "invalid", message: messages[0], fieldErrors: { file: messages }, rows: parsed.errors };
  }
  return {
    status: "ok",
    value: { quiz: { title, description, timeLimit, isPublic }, questions: parsed.questions, pictures: parsed.questions.map(() => null) },
  };
}

/**
 * Creates the quiz a file describes, for `owner`, its pictures counted against `storageLimitBytes`.
 * Takes a file as uploaded, or one `prepareImport` has already checked (a route that spends rate
 * limits by the number of questions checks first).
 *
 * Each picture is re-encoded and stored as an upload is, one at a time and outside the quiz's
 * transaction (re-encoding takes CPU time the one database connection must not wait on). A picture
 * stored before a later one is refused for storage stays stored and counted, as after an upload
 * whose quiz was never saved; importing the file again does not count it twice.
 */
export async function importQuiz(
  db: DB,
  input: ImportInput | { prepared: PreparedImport },
  owner: Requester,
  storageLimitBytes: number,
  now = Date.now(),
): Promise<ImportResult> {
  let prepared: PreparedImport;
  if ("prepared" in input) prepared = input.prepared;
  else {
    const checked = await prepareImport(input);
    if (checked.status !== "ok") return checked;
    prepared = checked.value;
  }

  const imageOwner = { userId: owner.userId ?? null, clientId: owner.clientId ?? null };
  const stored = new Map<string, string>();
  const questions: QuestionContent[] = [];
  for (const [index, question] of prepared.questions.entries()) {
    const picture = prepared.pictures[index];
    if (!picture) {
      questions.push({ ...question, imageId: null });
      continue;
    }
    // The same picture on several questions is stored (and re-encoded) once.
    const key = createHash("sha256").update(picture).digest("hex");
    let imageId = stored.get(key);
    if (!imageId) {
      const result = await storeImage(db, picture, imageOwner, storageLimitBytes, now);
      if (result.status === "over-quota") return result;
      if (result.status === "too-large") return invalidFile([{ path: ["questions", index, "image"], message: pictureTooLargeMessage(result.maxBytes) }]);
      if (result.status === "invalid") return invalidFile([{ path: ["questions", index, "image"], message: result.message }]);
      imageId = result.value.id;
      stored.set(key, imageId);
    }
    questions.push({ ...question, imageId });
  }

  const created = await createQuizWithQuestions(db, prepared.quiz, questions, owner, now);
  // Every picture named was stored just above; only a picture deleted in between could be missing.
  if (created.status !== "ok") throw new Error(`Imported pictures vanished before the quiz was saved: ${created.ids.join(", ")}`);
  return created;
}

/** The requester's own quiz as a quiz file, each picture embedded (its large rendition, WebP). */
export async function exportQuiz(db: DB, quizId: number, requester: Requester): Promise<QuizAccess<QuizFile>> {
  const access = await findOwnQuizWithQuestions(db, quizId, requester);
  if (access.status !== "ok") return access;
  const { questions, ...quiz } = access.value;
  const ids = [...new Set(questions.map((question) => question.imageId).filter((id): id is string => id !== null))];
  const images = new Map<string, string>();
  for (const id of ids) {
    const data = await getImage(db, id, "large");
    if (data) images.set(id, data.toString("base64"));
  }
  return { status: "ok", value: toQuizFile(quiz, questions, images) };
}
