import { randomInt } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "#db/connection.server";
import type { GameRow, GameStatus, NewAnswerRow } from "#db/schema";
import { GAME_CODE_ALPHABET, GAME_CODE_LENGTH } from "#app/game/rules";
import type { AnswerRecord, Phase } from "#app/game/engine/state";
import type { StoredPlayer } from "#app/game/engine/restore";
import { findHostableQuiz, getQuestions, type Question, type QuizAccess, type Requester } from "./quiz.server";

export interface GameSummary {
  id: number;
  gameCode: string;
  status: GameStatus;
}

export function generateGameCode(): string {
  let code = "";
  for (let i = 0; i < GAME_CODE_LENGTH; i++) code += GAME_CODE_ALPHABET[randomInt(GAME_CODE_ALPHABET.length)];
  return code;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && "code" in error && String(error.code).startsWith("SQLITE_CONSTRAINT_UNIQUE");
}

/** Creates a waiting game with a fresh code, drawing again on the rare clash with a live game. */
export async function createGame(
  db: DB,
  input: { quizId: number; hostId: number | null },
  now = Date.now(),
): Promise<GameSummary> {
  for (let attempt = 0; ; attempt++) {
    try {
      const row = await db
        .insertInto("games")
        .values({ quiz_id: input.quizId, host_id: input.hostId, game_code: generateGameCode(), created_at: now })
        .returning(["id", "game_code", "status"])
        .executeTakeFirstOrThrow();
      return { id: row.id, gameCode: row.game_code, status: row.status };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 20) throw error;
    }
  }
}

export async function findLiveGame(db: DB, gameCode: string): Promise<GameRow | undefined> {
  return db
    .selectFrom("games")
    .selectAll()
    .where("game_code", "=", gameCode)
    .where("status", "!=", "finished")
    .executeTakeFirst();
}

/** The live game with this code, else the most recent finished one (results stay reachable). */
export async function findGameByCode(db: DB, gameCode: string): Promise<GameRow | undefined> {
  return db
    .selectFrom("games")
    .selectAll()
    .where("game_code", "=", gameCode)
    .orderBy((eb) => eb.case().when("status", "!=", "finished").then(0).else(1).end())
    .orderBy("id", "desc")
    .executeTakeFirst();
}

/** A new game of a quiz the requester may host (public or its own), with its browser registered as host. */
export async function hostNewGame(
  db: DB,
  quizId: number,
  requester: Requester & { clientId: string },
): Promise<QuizAccess<GameSummary>> {
  const access = await findHostableQuiz(db, quizId, requester);
  if (access.status !== "ok") return access;
  const game = await createGame(db, { quizId, hostId: requester.userId ?? null });
  await db.updateTable("games").set({ host_client_id: requester.clientId }).where("id", "=", game.id).execute();
  return { status: "ok", value: game };
}

export type RegisterHostResult = "registered" | "not-found" | "taken";

/** Binds a browser's client id as the game's host; the first to register keeps it. */
export async function registerHost(db: DB, gameCode: string, clientId: string): Promise<RegisterHostResult> {
  return db.transaction().execute(async (trx) => {
    const game = await trx
      .selectFrom("games")
      .select(["id", "host_client_id"])
      .where("game_code", "=", gameCode)
      .where("status", "!=", "finished")
      .executeTakeFirst();
    if (!game) return "not-found";
    if (game.host_client_id === clientId) return "registered";
    if (game.host_client_id !== null) return "taken";
    await trx.updateTable("games").set({ host_client_id: clientId }).where("id", "=", game.id).execute();
    return "registered";
  });
}

export interface GameSession {
  id: number;
  quizId: number;
  title: string;
  description: string;
  gameCode: string;
  status: GameStatus;
  timeLimit: number;
}

/** Public games that can still be joined or watched, newest first. */
export async function listGameSessions(db: DB): Promise<GameSession[]> {
  const rows = await db
    .selectFrom("games")
    .innerJoin("quizzes", "quizzes.id", "games.quiz_id")
    .select([
      "games.id",
      "games.quiz_id",
      "quizzes.title",
      "quizzes.description",
      "games.game_code",
      "games.status",
      "quizzes.time_limit",
    ])
    .where("quizzes.is_public", "=", 1)
    .where("games.status", "in", ["waiting", "active"])
    .orderBy("games.created_at", "desc")
    .orderBy("games.id", "desc")
    .limit(100)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    quizId: row.quiz_id,
    title: row.title,
    description: row.description,
    gameCode: row.game_code,
    status: row.status,
    timeLimit: row.time_limit,
  }));
}

export interface Standing {
  rank: number;
  id: number;
  nickname: string;
  score: number;
  correctCount: number;
  answeredCount: number;
}

export interface GameResults {
  gameCode: string;
  status: GameStatus;
  title: string;
  totalQuestions: number;
  players: Standing[];
}

export async function getGameResults(db: DB, game: GameRow): Promise<GameResults> {
  const [quiz, questionCount, players] = await Promise.all([
    db.selectFrom("quizzes").select("title").where("id", "=", game.quiz_id).executeTakeFirstOrThrow(),
    db
      .selectFrom("questions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("quiz_id", "=", game.quiz_id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("players")
      .select(["id", "nickname", "score", "correct_count"])
      .select((eb) =>
        eb
          .selectFrom("answers")
          .whereRef("answers.game_id", "=", "players.game_id")
          .whereRef("answers.player_id", "=", "players.id")
          .where("answers.round", "=", game.round)
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .as("answered_count"),
      )
      .where("game_id", "=", game.id)
      .orderBy("score", "desc")
      .orderBy("nickname")
      .orderBy("id")
      .execute(),
  ]);
  let previous: Standing | undefined;
  const standings = players.map((player, index) => {
    const rank = previous && previous.score === player.score ? previous.rank : index + 1;
    previous = {
      rank,
      id: player.id,
      nickname: player.nickname,
      score: player.score,
      correctCount: player.correct_count,
      answeredCount: Number(player.answered_count ?? 0),
    };
    return previous;
  });
  return {
    gameCode: game.game_code,
    status: game.status,
    title: quiz.title,
    totalQuestions: Number(questionCount.n),
    players: standings,
  };
}

// ------------------------------------------------------------- what a running game persists

export interface LoadedGame {
  game: GameRow;
  title: string;
  timeLimit: number;
  questions: Question[];
  players: StoredPlayer[];
  answers: AnswerRecord[];
  /** Browsers the host removed from this game. */
  kickedClientIds: string[];
}

/** Everything needed to run (or resume, after a restart) a live game. */
export async function loadGameForPlay(db: DB, gameCode: string): Promise<LoadedGame | undefined> {
  const game = await findLiveGame(db, gameCode);
  if (!game) return undefined;
  const [quiz, questions, players, answers, kicks] = await Promise.all([
    db.selectFrom("quizzes").select(["title", "time_limit"]).where("id", "=", game.quiz_id).executeTakeFirstOrThrow(),
    getQuestions(db, game.quiz_id),
    db
      .selectFrom("players")
      .select(["id", "nickname", "client_id", "joined_at"])
      .where("game_id", "=", game.id)
      .orderBy("joined_at")
      .orderBy("id")
      .execute(),
    db.selectFrom("answers").selectAll().where("game_id", "=", game.id).where("round", "=", game.round).execute(),
    db.selectFrom("game_kicks").select("client_id").where("game_id", "=", game.id).execute(),
  ]);
  return {
    game,
    title: quiz.title,
    timeLimit: quiz.time_limit,
    questions,
    players: players.map((row) => ({ id: row.id, nickname: row.nickname, clientId: row.client_id, joinedAt: row.joined_at })),
    answers: answers.map((row) => ({
      playerId: row.player_id,
      questionId: row.question_id,
      questionIndex: row.question_index,
      answerIndex: row.answer_index,
      responseTimeMs: row.response_ms,
      correct: row.correct === 1,
      points: row.points,
      answeredAt: row.answered_at,
    })),
    kickedClientIds: kicks.map((row) => row.client_id),
  };
}

export async function getHostClientId(db: DB, gameId: number): Promise<string | null> {
  const row = await db.selectFrom("games").select("host_client_id").where("id", "=", gameId).executeTakeFirst();
  return row?.host_client_id ?? null;
}

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
}

export interface ProgressWrite {
  phase: Phase;
  round: number;
  questionIndex: number;
  questionStartedAt: number | null;
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
  /** Play Again: every player's score of the previous round is cleared first. */
  resetScores: boolean;
  left: number[];
  answers: NewAnswerRow[];
  scores: ScoreWrite[];
  progress: ProgressWrite | null;
}

const INSERT_CHUNK = 500;

function chunks<T>(items: T[], size = INSERT_CHUNK): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/** Writes a batch in one transaction, in an order that keeps foreign keys satisfied. */
export async function commitGameBatch(db: DB, gameId: number, batch: GameWriteBatch): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (batch.left.length > 0) {
      for (const ids of chunks(batch.left)) {
        await trx.deleteFrom("players").where("game_id", "=", gameId).where("id", "in", ids).execute();
      }
    }
    if (batch.resetScores) {
      await trx.updateTable("players").set({ score: 0, streak: 0, correct_count: 0 }).where("game_id", "=", gameId).execute();
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
    // A question's close changes every player's score: one statement per chunk, not one per player.
    for (const rows of chunks(batch.scores)) {
      const changed = sql.join(rows.map((row) => sql`(${row.id}, ${row.score}, ${row.streak}, ${row.correctCount})`));
      await sql`
        update players set score = changed.column2, streak = changed.column3, correct_count = changed.column4
        from (values ${changed}) as changed
        where players.game_id = ${gameId} and players.id = changed.column1`.execute(trx);
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
      await trx.updateTable("games").set({ locked: batch.locked ? 1 : 0 }).where("id", "=", gameId).execute();
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
          status: progress.status,
          ...(progress.startedAt !== undefined ? { started_at: progress.startedAt } : {}),
          ...(progress.endedAt !== undefined ? { ended_at: progress.endedAt } : {}),
        })
        .where("id", "=", gameId)
        .execute();
    }
  });
}
