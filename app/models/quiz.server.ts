import type { DB } from "#db/connection.server";
import type { QuestionRow, QuizRow } from "#db/schema";

export interface Quiz {
  id: number;
  title: string;
  description: string;
  timeLimit: number;
  isPublic: boolean;
  creatorId: number | null;
  createdAt: number;
}

export interface Question {
  id: number;
  quizId: number;
  text: string;
  answers: string[];
  correctAnswerIndex: number;
  order: number;
}

/** Who is asking: a signed-in user and/or the browser's persisted client id. */
export interface Requester {
  userId?: number | null;
  clientId?: string | null;
}

export interface NewQuiz {
  title: string;
  description: string;
  timeLimit: number;
  isPublic: boolean;
}

export interface NewQuestion {
  quizId: number;
  text: string;
  answers: string[];
  correctAnswerIndex: number;
  order: number;
}

/** A question as a form edits it: its place in the quiz is its place in the list. */
export interface QuestionInput {
  text: string;
  answers: string[];
  correctAnswerIndex: number;
}

function toQuiz(row: QuizRow): Quiz {
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
  return {
    id: row.id,
    quizId: row.quiz_id,
    text: row.text,
    answers: JSON.parse(row.answers) as string[],
    correctAnswerIndex: row.correct_answer_index,
    order: row.order,
  };
}

export async function createQuiz(db: DB, input: NewQuiz, owner: Requester, now = Date.now()): Promise<Quiz> {
  const row = await db
    .insertInto("quizzes")
    .values({
      title: input.title,
      description: input.description,
      time_limit: input.timeLimit,
      is_public: input.isPublic ? 1 : 0,
      creator_id: owner.userId ?? null,
      owner_client_id: owner.clientId ?? null,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toQuiz(row);
}

export async function addQuestion(db: DB, input: NewQuestion): Promise<Question> {
  const row = await db
    .insertInto("questions")
    .values({
      quiz_id: input.quizId,
      text: input.text,
      answers: JSON.stringify(input.answers),
      correct_answer_index: input.correctAnswerIndex,
      order: input.order,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toQuestion(row);
}

/**
 * A quiz created with an identity (a user or a client id) belongs to it; a quiz created with
 * none (a script calling the API) is open to anyone, as the spec's fixed creator id implies.
 */
function isOwnedBy(row: QuizRow, requester: Requester): boolean {
  if (row.creator_id === null && row.owner_client_id === null) return true;
  if (requester.userId != null && row.creator_id === requester.userId) return true;
  return requester.clientId != null && row.owner_client_id === requester.clientId;
}

/**
 * For changing or deleting a quiz: stricter than `isOwnedBy`. A quiz made by an account belongs to
 * that account alone (not to whoever later uses the same browser); one made by a signed-out
 * browser belongs to that browser; a quiz made with no identity belongs to no one and stays as is.
 */
function isManagedBy(row: QuizRow, requester: Requester): boolean {
  if (row.creator_id !== null) return requester.userId != null && row.creator_id === requester.userId;
  return row.owner_client_id !== null && requester.clientId != null && row.owner_client_id === requester.clientId;
}

export type QuizAccess<T> = { status: "ok"; value: T } | { status: "not-found" } | { status: "forbidden" };

export async function findQuizRow(db: DB, quizId: number): Promise<QuizRow | undefined> {
  return db.selectFrom("quizzes").selectAll().where("id", "=", quizId).executeTakeFirst();
}

/** For adding questions and reading answers: the owner only. */
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

export async function getQuestions(db: DB, quizId: number): Promise<Question[]> {
  const rows = await db
    .selectFrom("questions")
    .selectAll()
    .where("quiz_id", "=", quizId)
    .orderBy("order")
    .orderBy("id")
    .execute();
  return rows.map(toQuestion);
}

export async function findOwnQuizWithQuestions(
  db: DB,
  quizId: number,
  requester: Requester,
): Promise<QuizAccess<Quiz & { questions: Question[] }>> {
  const access = await findOwnQuiz(db, quizId, requester);
  if (access.status !== "ok") return access;
  return { status: "ok", value: { ...access.value, questions: await getQuestions(db, quizId) } };
}

function quizzesWithQuestionCounts(db: DB) {
  return db
    .selectFrom("quizzes")
    .selectAll("quizzes")
    .select((eb) =>
      eb
        .selectFrom("questions")
        .whereRef("questions.quiz_id", "=", "quizzes.id")
        .select((inner) => inner.fn.countAll<number>().as("n"))
        .as("question_count"),
    );
}

/** Quizzes the requester may host: public ones and its own, newest first, with question counts. */
export async function listHostableQuizzes(db: DB, requester: Requester): Promise<(Quiz & { questionCount: number })[]> {
  const rows = await quizzesWithQuestionCounts(db)
    .where((eb) => {
      const visible = [eb("is_public", "=", 1), eb.and([eb("creator_id", "is", null), eb("owner_client_id", "is", null)])];
      if (requester.userId != null) visible.push(eb("creator_id", "=", requester.userId));
      if (requester.clientId) visible.push(eb("owner_client_id", "=", requester.clientId));
      return eb.or(visible);
    })
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => ({ ...toQuiz(row), questionCount: Number(row.question_count ?? 0) }));
}

/** The user's own quizzes, newest first, with question counts. */
export async function listOwnQuizzes(db: DB, userId: number): Promise<(Quiz & { questionCount: number })[]> {
  const rows = await quizzesWithQuestionCounts(db)
    .where("creator_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => ({ ...toQuiz(row), questionCount: Number(row.question_count ?? 0) }));
}

/** For the edit form: the quiz with its questions, for the one who may change it (see `isManagedBy`). */
export async function findEditableQuiz(
  db: DB,
  quizId: number,
  requester: Requester,
): Promise<QuizAccess<Quiz & { questions: Question[] }>> {
  const row = await findQuizRow(db, quizId);
  if (!row) return { status: "not-found" };
  if (!isManagedBy(row, requester)) return { status: "forbidden" };
  return { status: "ok", value: { ...toQuiz(row), questions: await getQuestions(db, quizId) } };
}

function inTransaction<T>(db: DB, run: (trx: DB) => Promise<T>): Promise<T> {
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/**
 * Replaces a quiz's details and questions, all or nothing, for its owner. Questions are rewritten
 * in place by position, so the rows a game has already loaded keep their ids; extra rows are
 * added and surplus ones removed (with their recorded answers).
 */
export async function updateQuiz(
  db: DB,
  quizId: number,
  input: NewQuiz,
  questions: QuestionInput[],
  requester: Requester,
): Promise<QuizAccess<Quiz & { questions: Question[] }>> {
  return inTransaction(db, async (trx) => {
    const row = await findQuizRow(trx, quizId);
    if (!row) return { status: "not-found" };
    if (!isManagedBy(row, requester)) return { status: "forbidden" };
    const updated = await trx
      .updateTable("quizzes")
      .set({
        title: input.title,
        description: input.description,
        time_limit: input.timeLimit,
        is_public: input.isPublic ? 1 : 0,
      })
      .where("id", "=", quizId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const existing = await getQuestions(trx, quizId);
    const saved: Question[] = [];
    for (const [order, question] of questions.entries()) {
      const current = existing[order];
      if (!current) {
        saved.push(await addQuestion(trx, { quizId, ...question, order }));
        continue;
      }
      const rewritten = await trx
        .updateTable("questions")
        .set({
          text: question.text,
          answers: JSON.stringify(question.answers),
          correct_answer_index: question.correctAnswerIndex,
          order,
        })
        .where("id", "=", current.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      saved.push(toQuestion(rewritten));
    }
    const surplus = existing.slice(questions.length).map((question) => question.id);
    if (surplus.length > 0) await trx.deleteFrom("questions").where("id", "in", surplus).execute();
    return { status: "ok", value: { ...toQuiz(updated), questions: saved } };
  });
}

/** Deletes a quiz for its owner; its questions and games (with their players and answers) go with it. */
export async function deleteQuiz(db: DB, quizId: number, requester: Requester): Promise<QuizAccess<Quiz>> {
  return inTransaction(db, async (trx) => {
    const row = await findQuizRow(trx, quizId);
    if (!row) return { status: "not-found" };
    if (!isManagedBy(row, requester)) return { status: "forbidden" };
    await trx.deleteFrom("quizzes").where("id", "=", quizId).execute();
    return { status: "ok", value: toQuiz(row) };
  });
}
