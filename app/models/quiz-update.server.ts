import { inTransaction, type DB } from "#db/connection.server";
import {
  addQuestion,
  contentOf,
  findOwnQuiz,
  getQuestions,
  missingImages,
  questionColumns,
  toQuestion,
  toQuiz,
  type MissingImages,
  type NewQuiz,
  type Question,
  type QuestionInput,
  type Quiz,
  type QuizAccess,
  type Requester,
} from "./quiz.server";

/** Of these questions, the ones a game lists: they belong to that game's play and never change. */
async function questionsInGames(db: DB, questionIds: number[]): Promise<Set<number>> {
  if (questionIds.length === 0) return new Set();
  const rows = await db.selectFrom("game_questions").select("question_id").distinct().where("question_id", "in", questionIds).execute();
  return new Set(rows.map((row) => row.question_id));
}

const sameQuestion = (current: Question, next: QuestionInput) => JSON.stringify(questionColumns(contentOf(current))) === JSON.stringify(questionColumns(next));

/**
 * Replaces a quiz's details and questions, all or nothing, for its owner. A question some game
 * lists (one being played, or one with recorded answers) is never rewritten or deleted: it is
 * retired and, where the edit changed it, a new row takes its place. Other rows are rewritten in
 * place, added or deleted. Games already opened go on with the questions they were opened with.
 */
export async function updateQuiz(
  db: DB,
  quizId: number,
  input: NewQuiz,
  questions: QuestionInput[],
  requester: Requester,
  now = Date.now(),
): Promise<QuizAccess<Quiz & { questions: Question[] }> | MissingImages> {
  return inTransaction(db, async (trx) => {
    const access = await findOwnQuiz(trx, quizId, requester);
    if (access.status !== "ok") return access;
    const missing = await missingImages(trx, questions);
    if (missing.length > 0) return { status: "missing-images", ids: missing };
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
    const played = await questionsInGames(
      trx,
      existing.map((question) => question.id),
    );
    const retire = async (ids: number[]) => {
      if (ids.length > 0) await trx.updateTable("questions").set({ retired_at: now }).where("id", "in", ids).execute();
    };
    const saved: Question[] = [];
    for (const [order, question] of questions.entries()) {
      const current = existing[order];
      if (current && sameQuestion(current, question)) {
        if (current.order !== order) await trx.updateTable("questions").set({ order }).where("id", "=", current.id).execute();
        saved.push({ ...current, order });
        continue;
      }
      if (!current || played.has(current.id)) {
        if (current) await retire([current.id]);
        saved.push(await addQuestion(trx, { quizId, ...question, order }));
        continue;
      }
      const rewritten = await trx
        .updateTable("questions")
        .set({ ...questionColumns(question), order })
        .where("id", "=", current.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      saved.push(toQuestion(rewritten));
    }
    const surplus = existing.slice(questions.length);
    await retire(surplus.filter((question) => played.has(question.id)).map((question) => question.id));
    const unplayed = surplus.filter((question) => !played.has(question.id)).map((question) => question.id);
    if (unplayed.length > 0) await trx.deleteFrom("questions").where("id", "in", unplayed).execute();
    return { status: "ok", value: { ...toQuiz(updated), questions: saved } };
  });
}
