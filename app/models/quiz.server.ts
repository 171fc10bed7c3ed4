import { inTransaction, type DB } from "#db/connection.server";
import type { QuestionRow, QuizRow } from "#db/schema";
import type { PointsOption, QuestionContent } from "#app/game/question-kinds";
import { DEFAULT_KIND, kindOf } from "#app/game/kinds";
import { QuestionKindSchema } from "#app/game/question-input";

export interface Quiz {
  id: number;
  title: string;
  description: string;
  timeLimit: number;
  isPublic: boolean;
  creatorId: number | null;
  createdAt: number;
}

/** A stored question: its content (every kind's fields, unused ones empty) and its place. */
export interface Question extends QuestionContent {
  id: number;
  quizId: number;
  order: number;
}

/** Who is asking: a signed-in user and/or the browser's persisted client id. */
export interface Requester {
  userId?: number | null;
  clientId?: string | null;
  /** The browser's host secret cookie (app/sessions/host-secret.server.ts): with the client id, what makes a signed-out game's host. */
  hostSecret?: string | null;
}

export interface NewQuiz {
  title: string;
  description: string;
  timeLimit: number;
  isPublic: boolean;
}

/**
 * A question to store. Only what the original shape had is required: without `kind` it is a
 * choice question, and a kind's fields left out are empty (see `completeContent`).
 */
export type NewQuestion = { quizId: number; order: number; text: string; answers: string[]; correctAnswerIndex: number } & Partial<QuestionContent>;

/** A question's content with every field present: a missing kind is choice, missing fields empty. */
export function completeContent(input: Omit<NewQuestion, "quizId" | "order">): QuestionContent {
  // The kind is checked here, by the registry, not by the database (docs/decisions/0045-question-kind-registry.md).
  const kind = QuestionKindSchema.parse(input.kind ?? DEFAULT_KIND);
  const indexed = kindOf(kind).rightAnswer === "oneIndex";
  return {
    kind,
    text: input.text,
    answers: input.answers,
    correctAnswerIndex: indexed ? input.correctAnswerIndex : -1,
    correctAnswerIndexes: input.correctAnswerIndexes ?? (indexed ? [input.correctAnswerIndex] : []),
    acceptedAnswers: input.acceptedAnswers ?? [],
    correctNumber: input.correctNumber ?? null,
    timeLimit: input.timeLimit ?? null,
    points: input.points ?? "standard",
    imageId: input.imageId ?? null,
  };
}

/** A question as a form edits it: its place in the quiz is its place in the list. */
export type QuestionInput = QuestionContent;

export function toQuiz(row: QuizRow): Quiz {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    timeLimit: row.time_limit,
    isPublic: row.is_public === 1,
    creatorId: row.creator_id,
    createdAt: row.created_at,
  };
}

export function toQuestion(row: QuestionRow): Question {
  // A stored kind is read through the registry (docs/decisions/0045-question-kind-registry.md): the column has no CHECK.
  const kind = QuestionKindSchema.parse(row.kind);
  const correctAnswerIndexes: number[] =
    kindOf(kind).rightAnswer === "indexList"
      ? (JSON.parse(row.correct_indexes ?? "[]") as number[])
      : row.correct_answer_index >= 0
        ? [row.correct_answer_index]
        : [];
  return {
    id: row.id,
    quizId: row.quiz_id,
    kind,
    text: row.text,
    answers: JSON.parse(row.answers) as string[],
    correctAnswerIndex: row.correct_answer_index,
    correctAnswerIndexes,
    acceptedAnswers: JSON.parse(row.accepted_answers ?? "[]") as string[],
    correctNumber: row.correct_number,
    timeLimit: row.time_limit,
    points: row.points as PointsOption,
    imageId: row.image_id,
    order: row.order,
  };
}

/** The columns a question's content is stored in: each holds what its kind's right answer is (`rightAnswer`), else its empty value. */
export function questionColumns(content: QuestionContent) {
  const { rightAnswer, scored } = kindOf(content.kind);
  return {
    kind: content.kind,
    text: content.text,
    answers: JSON.stringify(content.answers),
    correct_answer_index: rightAnswer === "oneIndex" ? content.correctAnswerIndex : -1,
    correct_indexes: rightAnswer === "indexList" ? JSON.stringify(content.correctAnswerIndexes) : null,
    accepted_answers: rightAnswer === "acceptedTexts" ? JSON.stringify(content.acceptedAnswers) : null,
    correct_number: rightAnswer === "number" ? content.correctNumber : null,
    time_limit: content.timeLimit,
    points: scored ? content.points : "none",
    image_id: content.imageId,
  };
}

/** The pictures these questions name that are not stored (a form or a script may name any id). */
export async function missingImages(db: DB, questions: QuestionContent[]): Promise<string[]> {
  const ids = [...new Set(questions.map((question) => question.imageId).filter((id): id is string => id !== null))];
  if (ids.length === 0) return [];
  const found = await db.selectFrom("images").select("id").where("id", "in", ids).execute();
  const stored = new Set(found.map((row) => row.id));
  return ids.filter((id) => !stored.has(id));
}

/**
 * A quiz made while signed in (an account or a guest) belongs to that account alone; the browser's
 * client id owns only what a browser made without one.
 */
export async function createQuiz(db: DB, input: NewQuiz, owner: Requester, now = Date.now()): Promise<Quiz> {
  const row = await db
    .insertInto("quizzes")
    .values({
      title: input.title,
      description: input.description,
      time_limit: input.timeLimit,
      is_public: input.isPublic ? 1 : 0,
      creator_id: owner.userId ?? null,
      owner_client_id: owner.userId != null ? null : (owner.clientId ?? null),
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toQuiz(row);
}

export async function addQuestion(db: DB, input: NewQuestion): Promise<Question> {
  const row = await db
    .insertInto("questions")
    .values({ quiz_id: input.quizId, order: input.order, ...questionColumns(completeContent(input)) })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toQuestion(row);
}

/**
 * A quiz made by an account (a guest included) belongs to that account alone, not to whoever later
 * uses the same browser; one made by a browser without an account belongs to that browser. The
 * demo quizzes belong to the system account, which nobody can sign in as: they are read-only.
 */
function isOwnedBy(row: QuizRow, requester: Requester): boolean {
  if (row.creator_id !== null) return requester.userId != null && row.creator_id === requester.userId;
  return row.owner_client_id !== null && requester.clientId != null && row.owner_client_id === requester.clientId;
}

export type QuizAccess<T> = { status: "ok"; value: T } | { status: "not-found" } | { status: "forbidden" };

/** A quiz that exists and has not been deleted. */
export async function findQuizRow(db: DB, quizId: number): Promise<QuizRow | undefined> {
  return db.selectFrom("quizzes").selectAll().where("id", "=", quizId).where("deleted_at", "is", null).executeTakeFirst();
}

/** For adding questions, reading answers, editing and deleting: the owner only. */
export async function findOwnQuiz(db: DB, quizId: number, requester: Requester): Promise<QuizAccess<Quiz>> {
  const row = await findQuizRow(db, quizId);
  if (!row) return { status: "not-found" };
  if (!isOwnedBy(row, requester)) return { status: "forbidden" };
  return { status: "ok", value: toQuiz(row) };
}

/** For hosting: a public quiz or the requester's own. */
export async function findHostableQuiz(db: DB, quizId: number, requester: Requester): Promise<QuizAccess<Quiz>> {
  const row = await findQuizRow(db, quizId);
  if (!row) return { status: "not-found" };
  if (row.is_public !== 1 && !isOwnedBy(row, requester)) return { status: "forbidden" };
  return { status: "ok", value: toQuiz(row) };
}

/** The quiz's questions as it stands now, in order (retired versions left out). */
export async function getQuestions(db: DB, quizId: number): Promise<Question[]> {
  const rows = await db
    .selectFrom("questions")
    .selectAll()
    .where("quiz_id", "=", quizId)
    .where("retired_at", "is", null)
    .orderBy("order")
    .orderBy("id")
    .execute();
  return rows.map(toQuestion);
}

async function countQuestions(db: DB, quizId: number): Promise<number> {
  const { n } = await db
    .selectFrom("questions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("quiz_id", "=", quizId)
    .where("retired_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function findOwnQuizWithQuestions(db: DB, quizId: number, requester: Requester): Promise<QuizAccess<Quiz & { questions: Question[] }>> {
  const access = await findOwnQuiz(db, quizId, requester);
  if (access.status !== "ok") return access;
  return { status: "ok", value: { ...access.value, questions: await getQuestions(db, quizId) } };
}

export type MissingImages = { status: "missing-images"; ids: string[] };
export type AddQuestionResult = QuizAccess<Question> | { status: "full"; max: number } | MissingImages;

/** POST /api/questions: a question added to the requester's own quiz, up to `max` questions a quiz. */
export async function addOwnQuestion(db: DB, input: NewQuestion, requester: Requester, max: number): Promise<AddQuestionResult> {
  return inTransaction(db, async (trx) => {
    const access = await findOwnQuiz(trx, input.quizId, requester);
    if (access.status !== "ok") return access;
    if ((await countQuestions(trx, input.quizId)) >= max) return { status: "full", max };
    const missing = await missingImages(trx, [completeContent(input)]);
    if (missing.length > 0) return { status: "missing-images", ids: missing };
    return { status: "ok", value: await addQuestion(trx, input) };
  });
}

/** A quiz and its questions, all or nothing, for its owner (import, duplicate). */
export async function createQuizWithQuestions(
  db: DB,
  quiz: NewQuiz,
  questions: QuestionContent[],
  owner: Requester,
  now = Date.now(),
): Promise<{ status: "ok"; value: Quiz & { questions: Question[] } } | MissingImages> {
  return inTransaction(db, async (trx) => {
    const missing = await missingImages(trx, questions);
    if (missing.length > 0) return { status: "missing-images", ids: missing };
    const created = await createQuiz(trx, quiz, owner, now);
    const saved: Question[] = [];
    for (const [order, question] of questions.entries()) saved.push(await addQuestion(trx, { quizId: created.id, ...question, order }));
    return { status: "ok", value: { ...created, questions: saved } };
  });
}

/** A copy of a quiz its owner may edit ("Copy of ..."), private, with the same questions and pictures. */
export async function duplicateQuiz(db: DB, quizId: number, requester: Requester, now = Date.now()): Promise<QuizAccess<Quiz>> {
  return inTransaction(db, async (trx) => {
    const access = await findOwnQuizWithQuestions(trx, quizId, requester);
    if (access.status !== "ok") return access;
    const { title, description, timeLimit, questions } = access.value;
    const copy = await createQuizWithQuestions(
      trx,
      { title: `Copy of ${title}`.slice(0, 200), description, timeLimit, isPublic: false },
      questions.map(contentOf),
      requester,
      now,
    );
    if (copy.status !== "ok") throw new Error("A stored quiz names a picture that is not stored.");
    return { status: "ok", value: copy.value };
  });
}

/** The content of a stored question, without its id and place. */
export function contentOf(question: Question): QuestionContent {
  const { id: _id, quizId: _quizId, order: _order, ...content } = question;
  return content;
}
