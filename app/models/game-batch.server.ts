import { sql } from "kysely";
import type { DB } from "#db/connection.server";
import { valuesList } from "#db/dialect";
import type { GameStatus, NewAnswerRow } from "#db/schema";
import type { Phase } from "#app/game/engine/state";
import type { StoredEvening, StoredPause } from "#app/game/engine/restore";

export interface PlayerWrite {
  id: number;
  nickname: string;
  clientId: string;
  joinedAt: number;
}

export interface ScoreWrite {
  id: number;
  score: number;
  streak: number;
  correctCount: number;
  /** What the player added to its team's score. */
  teamPoints?: number;
}

export interface AnswerRescore {
  playerId: number;
  round: number;
  questionIndex: number;
  correct: boolean;
  points: number;
}

export interface ProgressWrite {
  phase: Phase;
  round: number;
  questionIndex: number;
  questionStartedAt: number | null;
  /** The open question's pauses; empty outside a question. */
  questionPauses: StoredPause[];
  status: GameStatus;
  startedAt?: number;
  endedAt?: number;
}

/** One group commit of a running game: everything that happened since the last one. */
export interface GameWriteBatch {
  joined: PlayerWrite[];
  /** Browsers the host removed (their players are in `left`). */
  kicked: string[];
  /** The host locked (true) or unlocked (false) the game; null when unchanged. */
  locked: boolean | null;
  /** The host turned pictures on players' devices on or off; null when unchanged. */
  picturesOnPlayers?: boolean | null;
  /** Answers judged again after they were stored: closest-number guesses scored at the close, typed answers the host accepted. */
  rescored?: AnswerRescore[];
  /** Play Again: every player's score of the previous round is cleared first. */
  resetScores: boolean;
  left: number[];
  answers: NewAnswerRow[];
  scores: ScoreWrite[];
  progress: ProgressWrite | null;
  /** Players whose team changed (after `joined` are inserted). */
  teamAssignments?: { id: number; teamId: number | null }[];
  /** Team mode, teams and their scores, a night's rounds: the latest, replacing what is stored. */
  evening?: StoredEvening | null;
}

const INSERT_CHUNK = 500;

export function chunks<T>(items: T[], size = INSERT_CHUNK): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

export type CommitOutcome = "stored" | "game-gone";

/**
 * Writes a batch in one transaction, in an order that keeps foreign keys satisfied; "game-gone"
 * (and nothing written) when the game's row no longer exists.
 */
export async function commitGameBatch(db: DB, gameId: number, batch: GameWriteBatch): Promise<CommitOutcome> {
  return db.transaction().execute((trx) => writeGameBatch(trx, gameId, batch));
}

/**
 * A batch's writes inside a transaction the caller holds (the process's shared writer puts every
 * game's batch of a tick into one, each in a savepoint: server/game-writer.ts).
 */
export async function writeGameBatch(trx: DB, gameId: number, batch: GameWriteBatch): Promise<CommitOutcome> {
  if (!(await trx.selectFrom("games").select("id").where("id", "=", gameId).executeTakeFirst())) return "game-gone";
  if (batch.left.length > 0) {
    for (const ids of chunks(batch.left)) {
      await trx.deleteFrom("players").where("game_id", "=", gameId).where("id", "in", ids).execute();
    }
  }
  if (batch.resetScores) {
    await trx.updateTable("players").set({ score: 0, streak: 0, correct_count: 0, team_points: 0 }).where("game_id", "=", gameId).execute();
  }
  for (const rows of chunks(batch.joined)) {
    await trx
      .insertInto("players")
      .values(
        rows.map((player) => ({
          game_id: gameId,
          id: player.id,
          nickname: player.nickname,
          client_id: player.clientId,
          joined_at: player.joinedAt,
        })),
      )
      .execute();
  }
  for (const rows of chunks(batch.answers)) {
    await trx.insertInto("answers").values(rows).execute();
  }
  for (const rows of chunks(batch.rescored ?? [])) {
    const changed = valuesList(
      trx,
      ["bigint", "bigint", "bigint", "bigint", "bigint"],
      rows.map((row) => [row.playerId, row.round, row.questionIndex, row.correct ? 1 : 0, row.points]),
    );
    await sql`
      update answers set correct = changed.column4, points = changed.column5
      from (${changed}) as changed
      where answers.game_id = ${gameId} and answers.player_id = changed.column1
        and answers.round = changed.column2 and answers.question_index = changed.column3`.execute(trx);
  }
  // A question's close changes every player's score: one statement per chunk, not one per player.
  for (const rows of chunks(batch.scores)) {
    const changed = valuesList(
      trx,
      ["bigint", "bigint", "bigint", "bigint", "double precision"],
      rows.map((row) => [row.id, row.score, row.streak, row.correctCount, row.teamPoints ?? 0]),
    );
    await sql`
      update players set score = changed.column2, streak = changed.column3, correct_count = changed.column4, team_points = changed.column5
      from (${changed}) as changed
      where players.game_id = ${gameId} and players.id = changed.column1`.execute(trx);
  }
  for (const rows of chunks(batch.teamAssignments ?? [])) {
    const changed = valuesList(
      trx,
      ["bigint", "bigint"],
      rows.map((row) => [row.id, row.teamId]),
    );
    await sql`
      update players set team_id = changed.column2
      from (${changed}) as changed
      where players.game_id = ${gameId} and players.id = changed.column1`.execute(trx);
  }
  if (batch.evening) {
    await trx
      .updateTable("games")
      .set({ evening: JSON.stringify(batch.evening) })
      .where("id", "=", gameId)
      .execute();
  }
  if (batch.kicked.length > 0) {
    const kickedAt = Date.now();
    await trx
      .insertInto("game_kicks")
      .values(batch.kicked.map((clientId) => ({ game_id: gameId, client_id: clientId, kicked_at: kickedAt })))
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  }
  if (batch.locked !== null) {
    await trx
      .updateTable("games")
      .set({ locked: batch.locked ? 1 : 0 })
      .where("id", "=", gameId)
      .execute();
  }
  if (batch.picturesOnPlayers != null) {
    await trx
      .updateTable("games")
      .set({ pictures_on_players: batch.picturesOnPlayers ? 1 : 0 })
      .where("id", "=", gameId)
      .execute();
  }
  if (batch.progress) {
    const { progress } = batch;
    await trx
      .updateTable("games")
      .set({
        phase: progress.phase,
        round: progress.round,
        question_index: progress.questionIndex,
        question_started_at: progress.questionStartedAt,
        question_pauses: JSON.stringify(progress.questionPauses),
        status: progress.status,
        ...(progress.startedAt !== undefined ? { started_at: progress.startedAt } : {}),
        ...(progress.endedAt !== undefined ? { ended_at: progress.endedAt } : {}),
      })
      .where("id", "=", gameId)
      .execute();
  }
  return "stored";
}
