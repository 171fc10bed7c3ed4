import { sql } from "kysely";
import type { DB } from "#db/connection.server";
import { rowsTable, type RowsColumnType } from "#db/dialect";
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

/** The columns a new player's row is written with, in order, and their types. */
const PLAYER_COLUMNS = [
  ["game_id", "bigint"],
  ["id", "bigint"],
  ["nickname", "text"],
  ["client_id", "text"],
  ["joined_at", "bigint"],
] as const satisfies readonly (readonly [string, RowsColumnType])[];

/** Every column of an answer's row, in order, and its type. */
const ANSWER_COLUMNS = [
  ["game_id", "bigint"],
  ["player_id", "bigint"],
  ["round", "bigint"],
  ["question_id", "bigint"],
  ["question_index", "bigint"],
  ["answer_index", "bigint"],
  ["answer_value", "text"],
  ["response_ms", "bigint"],
  ["correct", "bigint"],
  ["points", "bigint"],
  ["answered_at", "bigint"],
] as const satisfies readonly (readonly [keyof NewAnswerRow, RowsColumnType])[];

/** Inserts rows given as arrays in `columns`' order: one statement, a few parameters on PostgreSQL (db/dialect.ts). */
async function insertRows(trx: DB, table: "players" | "answers", columns: readonly (readonly [string, RowsColumnType])[], rows: unknown[][]): Promise<void> {
  const names = sql.join(columns.map(([name]) => sql.id(name)));
  const values = rowsTable(
    trx,
    columns.map(([, type]) => type),
    rows,
  );
  await sql`insert into ${sql.table(table)} (${names}) select * from (${values}) as inserted`.execute(trx);
}

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

/** One game's batch inside a transaction the caller holds. */
export async function writeGameBatch(trx: DB, gameId: number, batch: GameWriteBatch): Promise<CommitOutcome> {
  const [outcome] = await writeGameBatches(trx, [{ gameId, batch }]);
  return outcome;
}

export interface GameBatchPart {
  gameId: number;
  batch: GameWriteBatch;
}

/**
 * Several games' batches inside a transaction the caller holds (the process's shared writer puts every
 * game's batch of a tick into one: server/game-writer.ts). Each kind of write goes in one statement
 * for all the games (a chunk of rows at a time), not one per game: on PostgreSQL every statement is a
 * round trip, and 100 games' answers in one tick were 400 of them (docs/decisions/0058-one-statement-per-table.md).
 * Each game's writes keep their order, which keeps foreign keys satisfied; the games touch disjoint
 * rows, so doing one step for all before the next changes nothing. A game whose row no longer exists
 * is "game-gone", and nothing of it is written. A statement the database refuses throws, and the
 * caller's transaction is to be rolled back (PostgreSQL takes no more statements in it).
 */
export async function writeGameBatches(trx: DB, parts: readonly GameBatchPart[], { checkGamesExist = true } = {}): Promise<CommitOutcome[]> {
  if (parts.length === 0) return [];
  const ids = parts.map((part) => part.gameId);
  // The caller may know they exist: the writer's fence holds their owner rows, which a game's delete would take with it.
  const existing = new Set(checkGamesExist ? (await trx.selectFrom("games").select("id").where("id", "in", ids).execute()).map((row) => row.id) : ids);
  const live = parts.filter((part) => existing.has(part.gameId));
  const rowsOf = <T>(rowsOfPart: (part: GameBatchPart) => T[] | undefined | null | false): T[] => live.flatMap((part) => rowsOfPart(part) || []);

  for (const rows of chunks(rowsOf((part) => part.batch.left.map((id) => [part.gameId, id])))) {
    await sql`delete from players where (game_id, id) in (${rowsTable(trx, ["bigint", "bigint"], rows)})`.execute(trx);
  }
  const reset = rowsOf((part) => part.batch.resetScores && [part.gameId]);
  if (reset.length > 0) {
    await trx.updateTable("players").set({ score: 0, streak: 0, correct_count: 0, team_points: 0 }).where("game_id", "in", reset).execute();
  }
  const joined = rowsOf((part) => part.batch.joined.map((player) => [part.gameId, player.id, player.nickname, player.clientId, player.joinedAt]));
  for (const rows of chunks(joined)) await insertRows(trx, "players", PLAYER_COLUMNS, rows);
  const answers = rowsOf((part) => part.batch.answers.map((answer) => ANSWER_COLUMNS.map(([column]) => answer[column] ?? null)));
  for (const rows of chunks(answers)) await insertRows(trx, "answers", ANSWER_COLUMNS, rows);

  const rescored = rowsOf((part) =>
    part.batch.rescored?.map((row) => [part.gameId, row.playerId, row.round, row.questionIndex, row.correct ? 1 : 0, row.points]),
  );
  for (const rows of chunks(rescored)) {
    const changed = rowsTable(trx, ["bigint", "bigint", "bigint", "bigint", "bigint", "bigint"], rows);
    await sql`
      update answers set correct = changed.column5, points = changed.column6
      from (${changed}) as changed
      where answers.game_id = changed.column1 and answers.player_id = changed.column2
        and answers.round = changed.column3 and answers.question_index = changed.column4`.execute(trx);
  }
  // A question's close changes every player's score: one statement per chunk, not one per player.
  const scores = rowsOf((part) => part.batch.scores.map((row) => [part.gameId, row.id, row.score, row.streak, row.correctCount, row.teamPoints ?? 0]));
  for (const rows of chunks(scores)) {
    const changed = rowsTable(trx, ["bigint", "bigint", "bigint", "bigint", "bigint", "double precision"], rows);
    await sql`
      update players set score = changed.column3, streak = changed.column4, correct_count = changed.column5, team_points = changed.column6
      from (${changed}) as changed
      where players.game_id = changed.column1 and players.id = changed.column2`.execute(trx);
  }
  const teams = rowsOf((part) => part.batch.teamAssignments?.map((row) => [part.gameId, row.id, row.teamId]));
  for (const rows of chunks(teams)) {
    await sql`
      update players set team_id = changed.column3
      from (${rowsTable(trx, ["bigint", "bigint", "bigint"], rows)}) as changed
      where players.game_id = changed.column1 and players.id = changed.column2`.execute(trx);
  }
  const kickedAt = Date.now();
  const kicks = rowsOf((part) => part.batch.kicked.map((clientId) => ({ game_id: part.gameId, client_id: clientId, kicked_at: kickedAt })));
  for (const rows of chunks(kicks)) {
    await trx
      .insertInto("game_kicks")
      .values(rows)
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  }
  // What a game's row holds of its state: the evening, the lock, pictures on players, its progress.
  // A column a batch leaves unchanged is null here, and keeps its value.
  const games = rowsOf((part) => {
    const { evening, locked, picturesOnPlayers, progress } = part.batch;
    if (!evening && locked === null && picturesOnPlayers == null && !progress) return [];
    return [
      [
        part.gameId,
        evening ? JSON.stringify(evening) : null,
        locked === null ? null : locked ? 1 : 0,
        picturesOnPlayers == null ? null : picturesOnPlayers ? 1 : 0,
        progress ? 1 : 0,
        progress?.phase ?? null,
        progress?.round ?? null,
        progress?.questionIndex ?? null,
        progress?.questionStartedAt ?? null,
        progress ? JSON.stringify(progress.questionPauses) : null,
        progress?.status ?? null,
        progress?.startedAt ?? null,
        progress?.endedAt ?? null,
      ],
    ];
  });
  for (const rows of chunks(games)) {
    const changed = rowsTable(
      trx,
      ["bigint", "text", "bigint", "bigint", "bigint", "text", "bigint", "bigint", "bigint", "text", "text", "bigint", "bigint"],
      rows,
    );
    // question_started_at may become null (between questions), so it follows the progress flag, not coalesce.
    await sql`
      update games set
        evening = coalesce(changed.column2, games.evening),
        locked = coalesce(changed.column3, games.locked),
        pictures_on_players = coalesce(changed.column4, games.pictures_on_players),
        phase = coalesce(changed.column6, games.phase),
        round = coalesce(changed.column7, games.round),
        question_index = coalesce(changed.column8, games.question_index),
        question_started_at = case when changed.column5 = 1 then changed.column9 else games.question_started_at end,
        question_pauses = coalesce(changed.column10, games.question_pauses),
        status = coalesce(changed.column11, games.status),
        started_at = coalesce(changed.column12, games.started_at),
        ended_at = coalesce(changed.column13, games.ended_at)
      from (${changed}) as changed
      where games.id = changed.column1`.execute(trx);
  }
  return parts.map((part) => (existing.has(part.gameId) ? "stored" : "game-gone"));
}
