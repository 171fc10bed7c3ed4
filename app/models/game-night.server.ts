import { sql } from "kysely";
import { inTransaction, type DB } from "#db/connection.server";
import type { StoredEvening } from "#app/game/engine/restore";
import { findHostableQuiz, type Requester } from "./quiz.server";
import { type GameSummary, createGame } from "./game.server";

export interface NightPlan {
  /** The night's own title ("Friday quiz night"). */
  title: string;
  /** The quizzes in the order they are played; a round's title defaults to its quiz's. */
  rounds: { quizId: number; title?: string }[];
}

export type NightResult =
  | { status: "ok"; value: GameSummary }
  /** `round`: the 0-based round whose quiz is missing, not the requester's to host, or has no questions. */
  | { status: "not-found" | "forbidden" | "empty"; round: number };

/**
 * A night (docs/decisions/0034-a-night-of-rounds.md): one game whose rounds are several quizzes the
 * requester may host, each round's questions and time limit frozen now as a game's are, with the
 * requester's browser as its host.
 */
export async function hostNewNight(db: DB, plan: NightPlan, requester: Requester & { clientId: string }, now = Date.now()): Promise<NightResult> {
  return inTransaction(db, async (trx) => {
    const quizzes = [];
    for (const [round, entry] of plan.rounds.entries()) {
      const access = await findHostableQuiz(trx, entry.quizId, requester);
      if (access.status !== "ok") return { status: access.status, round };
      const questions = await trx
        .selectFrom("questions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("quiz_id", "=", entry.quizId)
        .where("retired_at", "is", null)
        .executeTakeFirstOrThrow();
      if (Number(questions.n) === 0) return { status: "empty", round };
      quizzes.push({ quiz: access.value, title: entry.title?.trim() || access.value.title });
    }
    const game = await createGame(
      trx,
      {
        quizId: plan.rounds[0].quizId,
        hostId: requester.userId ?? null,
        creatorClientId: requester.clientId,
        hostClientId: requester.clientId,
        hostSecret: requester.hostSecret,
      },
      now,
    );
    await trx
      .insertInto("game_rounds")
      .values(quizzes.map(({ quiz, title }, position) => ({ game_id: game.id, position, quiz_id: quiz.id, title, time_limit: quiz.timeLimit })))
      .execute();
    // createGame listed the first quiz's questions as round 0; the later rounds follow in position.
    for (const [position, { quiz }] of quizzes.entries()) {
      if (position === 0) continue;
      const listed = await trx
        .selectFrom("game_questions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("game_id", "=", game.id)
        .executeTakeFirstOrThrow();
      await sql`
        insert into game_questions (game_id, position, question_id, round)
        select ${game.id}, ${Number(listed.n)} + row_number() over (order by "order", id) - 1, id, ${position}
        from questions where quiz_id = ${quiz.id} and retired_at is null`.execute(trx);
    }
    const evening: StoredEvening = { title: plan.title.trim(), teamMode: false, teams: [], roundResults: [], breakEndsAt: null };
    await trx
      .updateTable("games")
      .set({ evening: JSON.stringify(evening) })
      .where("id", "=", game.id)
      .execute();
    return { status: "ok", value: game };
  });
}

export interface NightRound {
  position: number;
  quizId: number;
  title: string;
  timeLimit: number;
}

/** A night's rounds, in order; empty for a single game. */
export async function getGameRounds(db: DB, gameId: number): Promise<NightRound[]> {
  const rows = await db.selectFrom("game_rounds").selectAll().where("game_id", "=", gameId).orderBy("position").execute();
  return rows.map((row) => ({ position: row.position, quizId: row.quiz_id, title: row.title, timeLimit: row.time_limit }));
}
