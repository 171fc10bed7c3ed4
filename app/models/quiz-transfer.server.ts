/**
 * Import and export of whole quizzes: the JSON quiz file (pictures embedded) and spreadsheets
 * (questions only). A file is checked whole before anything is stored, and its quiz and
 * questions are created in one transaction.
 */
import { createHash } from "node:crypto";
import type { DB } from "#db/connection.server";
import { getImage, storeImage } from "#app/models/image.server";
import { createQuizWithQuestions, findOwnQuizWithQuestions, type Question, type Quiz, type QuizAccess, type Requester } from "#app/models/quiz.server";
import type { QuestionContent } from "#app/game/question-kinds";
import {
  invalidFile,
  prepareImport,
  type ImportInput,
  type ImportInvalid,
  type PreparedImport,
  type PrepareImportResult,
} from "#app/quiz-files/import-reading.server";
import { toQuizFile, type QuizFile } from "#app/quiz-files/quiz-file";
import type { RowError } from "#app/quiz-files/quiz-spreadsheet.server";
import { pictureTooLargeError } from "#app/pictures/storage-limits";
import { codedIssue } from "#app/i18n/coded";
import type { AppError } from "#app/i18n/app-error";

export type { RowError };

export type { ImportInput, ImportInvalid, PreparedImport, PrepareImportResult };
export { prepareImport };

export type ImportResult =
  | { status: "ok"; value: Quiz & { questions: Question[] } }
  | ImportInvalid
  /** The pictures would take the owner past its storage; nothing of the quiz was created. */
  | { status: "over-quota"; usedBytes: number; limitBytes: number };

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
  options: { maxInputPixels?: number } = {},
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
      const result = await storeImage(db, picture, imageOwner, storageLimitBytes, now, options);
      if (result.status === "over-quota") return result;
      if (result.status === "too-large") return pictureRefused(index, pictureTooLargeError(result.maxBytes));
      if (result.status === "invalid") return pictureRefused(index, result.error);
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

/** The file refused for the picture of its question `index`, by the refusal's code. */
function pictureRefused(index: number, error: AppError): ImportInvalid {
  return invalidFile([{ path: ["questions", index, "image"], ...codedIssue(error.code, error.values) }]);
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
