import { inTransaction, type DB } from "#db/connection.server";
import { findOwnQuiz, type Quiz, type QuizAccess, type Requester } from "./quiz.server";

export interface DeletedQuiz extends Quiz {
  /** Games of it that were still waiting or running: they play on. */
  unfinishedGames: number;
}

/** The games that play this quiz: as a single game, or as a round of a night. */
async function countGames(db: DB, quizId: number): Promise<{ all: number; unfinished: number }> {
  const { all, unfinished } = await db
    .selectFrom("games")
    .select((eb) => [eb.fn.countAll<number>().as("all"), eb.fn.sum<number>(eb.case().when("status", "!=", "finished").then(1).else(0).end()).as("unfinished")])
    .where((eb) =>
      eb.or([
        eb("quiz_id", "=", quizId),
        eb.exists(
          eb.selectFrom("game_rounds").select("game_rounds.game_id").whereRef("game_rounds.game_id", "=", "games.id").where("game_rounds.quiz_id", "=", quizId),
        ),
      ]),
    )
    .executeTakeFirstOrThrow();
  return { all: Number(all), unfinished: Number(unfinished ?? 0) };
}

/**
 * Removes a quiz whose owner has checked: at once, with its questions, when no game of it exists;
 * otherwise it is hidden now (nobody can find, host or edit it), its games play to the end, and
 * their reports stay with their hosts (My Games) until they delete them or the retention purges
 * them (docs/decisions/0031-game-reports.md); then `purgeDeletedQuizzes` removes it.
 */
export async function removeQuiz(db: DB, quizId: number, now = Date.now()): Promise<number> {
  const games = await countGames(db, quizId);
  if (games.all > 0) await db.updateTable("quizzes").set({ deleted_at: now }).where("id", "=", quizId).execute();
  else await db.deleteFrom("quizzes").where("id", "=", quizId).execute();
  return games.unfinished;
}

/** Deletes a quiz for its owner (see `removeQuiz`). */
export async function deleteQuiz(db: DB, quizId: number, requester: Requester, now = Date.now()): Promise<QuizAccess<DeletedQuiz>> {
  return inTransaction(db, async (trx) => {
    const access = await findOwnQuiz(trx, quizId, requester);
    if (access.status !== "ok") return access;
    return { status: "ok", value: { ...access.value, unfinishedGames: await removeQuiz(trx, quizId, now) } };
  });
}

/** Removes deleted quizzes that no game lists any more (their reports deleted or purged). */
export async function purgeDeletedQuizzes(db: DB): Promise<number> {
  const result = await db
    .deleteFrom("quizzes")
    .where("deleted_at", "is not", null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("games").select("games.id").whereRef("games.quiz_id", "=", "quizzes.id"))))
    .where((eb) => eb.not(eb.exists(eb.selectFrom("game_rounds").select("game_rounds.game_id").whereRef("game_rounds.quiz_id", "=", "quizzes.id"))))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
