import { sql } from "kysely";
import { inTransaction, type DB } from "#db/connection.server";
import type { Requester } from "./quiz.server";
import { findOwnGame } from "./hosted-games.server";

/** Questions an edit retired that no game lists any more: nothing can show them again. */
async function removeUnlistedRetiredQuestions(db: DB): Promise<void> {
  await sql`
    delete from questions
    where retired_at is not null
      and not exists (select 1 from game_questions where game_questions.question_id = questions.id)
      and not exists (select 1 from answers where answers.question_id = questions.id)`.execute(db);
}

export type DeleteGameResult = { status: "ok" } | { status: "not-found" } | { status: "unfinished" };

/**
 * Deletes one of the requester's games with its players and answers (they cascade). A game still
 * waiting or running is refused: its room would lose what it writes.
 */
export async function deleteOwnGame(db: DB, gameId: number, requester: Requester): Promise<DeleteGameResult> {
  return inTransaction(db, async (trx) => {
    const game = await findOwnGame(trx, gameId, requester);
    if (!game) return { status: "not-found" };
    if (game.status !== "finished") return { status: "unfinished" };
    await trx.deleteFrom("games").where("id", "=", game.id).execute();
    await removeUnlistedRetiredQuestions(trx);
    return { status: "ok" };
  });
}

const PURGE_CHUNK = 200;

/**
 * Removes finished games that ended before `endedBefore`, with their players and answers, a chunk
 * at a time so the game writers are never held up long; returns how many went.
 */
export async function purgeExpiredGames(db: DB, endedBefore: number): Promise<number> {
  let purged = 0;
  for (;;) {
    const chunk = await db.selectFrom("games").select("id").where("status", "=", "finished").where("ended_at", "<", endedBefore).limit(PURGE_CHUNK).execute();
    if (chunk.length === 0) break;
    await inTransaction(db, async (trx) => {
      await trx
        .deleteFrom("games")
        .where(
          "id",
          "in",
          chunk.map((row) => row.id),
        )
        .execute();
    });
    purged += chunk.length;
    if (chunk.length < PURGE_CHUNK) break;
  }
  if (purged > 0) await removeUnlistedRetiredQuestions(db);
  return purged;
}
