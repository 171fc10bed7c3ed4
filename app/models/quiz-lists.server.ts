import type { DB } from "#db/connection.server";
import { toQuiz, type Quiz, type Requester } from "./quiz.server";

function liveQuizzesWithQuestionCounts(db: DB) {
  return db
    .selectFrom("quizzes")
    .selectAll("quizzes")
    .select((eb) =>
      eb
        .selectFrom("questions")
        .whereRef("questions.quiz_id", "=", "quizzes.id")
        .where("questions.retired_at", "is", null)
        .select((inner) => inner.fn.countAll<number>().as("n"))
        .as("question_count"),
    )
    .where("quizzes.deleted_at", "is", null);
}

/** Quizzes the requester may host: public ones and its own, newest first, with question counts. */
export async function listHostableQuizzes(db: DB, requester: Requester): Promise<(Quiz & { questionCount: number })[]> {
  const rows = await liveQuizzesWithQuestionCounts(db)
    .where((eb) => {
      const visible = [eb("is_public", "=", 1)];
      if (requester.userId != null) visible.push(eb("creator_id", "=", requester.userId));
      if (requester.clientId) visible.push(eb.and([eb("creator_id", "is", null), eb("owner_client_id", "=", requester.clientId)]));
      return eb.or(visible);
    })
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => ({ ...toQuiz(row), questionCount: Number(row.question_count ?? 0) }));
}

/**
 * The home page's "ready to host" list: public quizzes with questions, made by the system (the
 * demos first) or by a registered account, newest first. What an anonymous script or a guest makes
 * stays off the front page, which a stranger could otherwise fill with titles of their choosing.
 */
export async function listShowcaseQuizzes(db: DB, limit: number): Promise<(Quiz & { questionCount: number })[]> {
  const rows = await liveQuizzesWithQuestionCounts(db)
    .innerJoin("users", "users.id", "quizzes.creator_id")
    .where("quizzes.is_public", "=", 1)
    .where("users.is_guest", "=", 0)
    .where((eb) =>
      eb.exists(eb.selectFrom("questions").select("questions.id").whereRef("questions.quiz_id", "=", "quizzes.id").where("questions.retired_at", "is", null)),
    )
    .orderBy("users.is_system", "desc")
    .orderBy("quizzes.created_at", "desc")
    .orderBy("quizzes.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...toQuiz(row), questionCount: Number(row.question_count ?? 0) }));
}

/** The user's own quizzes, newest first, with question counts. */
export async function listOwnQuizzes(db: DB, userId: number): Promise<(Quiz & { questionCount: number })[]> {
  const rows = await liveQuizzesWithQuestionCounts(db).where("creator_id", "=", userId).orderBy("created_at", "desc").orderBy("id", "desc").execute();
  return rows.map((row) => ({ ...toQuiz(row), questionCount: Number(row.question_count ?? 0) }));
}
