import { randomInt } from "node:crypto";
import { sql } from "kysely";
import { inTransaction, type DB } from "#db/connection.server";
import type { GameRow, GameStatus } from "#db/schema";
import { GAME_CODE_ALPHABET, GAME_CODE_LENGTH } from "#app/game/rules";
import { hashHostSecret } from "#app/sessions/host-secret.server";
import { findHostableQuiz, type QuizAccess, type Requester } from "./quiz.server";
import { newGameKey } from "./game-keys.server";

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

export interface NewGame {
  quizId: number;
  /** The signed-in user who opened it, if any. */
  hostId: number | null;
  /** The browser that opened it: the only one that may take its host seat. */
  creatorClientId: string | null;
  /** Set when the creating browser is the host from the start (the forms); otherwise register-host sets it. */
  hostClientId?: string | null;
  /** A game made signed out: the creating browser's host secret, whose hash binds the game to it (docs/decisions/0044). */
  hostSecret?: string | null;
}

/** How many codes createGame draws before it gives up: a clash with a live game is rare, twenty in a row never happen. */
const CODE_DRAWS = 20;

/**
 * Creates a waiting game with a fresh code, drawing again on the rare clash with a live game. The
 * game keeps the quiz's questions and time limit as they are now (docs/decisions/0014).
 * `drawCode` is generateGameCode but in tests that make codes clash.
 */
export async function createGame(db: DB, input: NewGame, now = Date.now(), drawCode: () => string = generateGameCode): Promise<GameSummary> {
  return inTransaction(db, async (trx) => {
    const quiz = await trx.selectFrom("quizzes").select("time_limit").where("id", "=", input.quizId).executeTakeFirstOrThrow();
    const values = {
      quiz_id: input.quizId,
      host_id: input.hostId,
      creator_client_id: input.creatorClientId,
      host_client_id: input.hostClientId ?? null,
      host_secret_hash: input.hostId === null && input.hostSecret ? hashHostSecret(input.hostSecret) : null,
      time_limit: quiz.time_limit,
      display_key: newGameKey(),
      remote_key: newGameKey(),
      created_at: now,
    };
    // The unique index on live games' codes decides: an insert that would repeat a live code inserts
    // nothing, and another code is drawn. A look first and an insert after would not do on
    // PostgreSQL, where another server's transaction may take the same code in between; there the
    // insert waits for that transaction and then sees its row (docs/decisions/0051-postgres-second-store.md).
    let row: { id: number; game_code: string; status: GameStatus } | undefined;
    for (let attempt = 0; !row; attempt++) {
      if (attempt >= CODE_DRAWS) throw new Error("Could not draw a free game code.");
      row = await trx
        .insertInto("games")
        .values({ ...values, game_code: drawCode() })
        // The index's own condition, as a literal: both databases match a partial index by its text.
        .onConflict((conflict) =>
          conflict
            .column("game_code")
            .where(sql<boolean>`status != 'finished'`)
            .doNothing(),
        )
        .returning(["id", "game_code", "status"])
        .executeTakeFirst();
    }
    await sql`
      insert into game_questions (game_id, position, question_id)
      select ${row.id}, row_number() over (order by "order", id) - 1, id
      from questions where quiz_id = ${input.quizId} and retired_at is null`.execute(trx);
    return { id: row.id, gameCode: row.game_code, status: row.status };
  });
}

export async function findLiveGame(db: DB, gameCode: string): Promise<GameRow | undefined> {
  return db.selectFrom("games").selectAll().where("game_code", "=", gameCode).where("status", "!=", "finished").executeTakeFirst();
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
export async function hostNewGame(db: DB, quizId: number, requester: Requester & { clientId: string }): Promise<QuizAccess<GameSummary>> {
  return inTransaction(db, async (trx) => {
    const access = await findHostableQuiz(trx, quizId, requester);
    if (access.status !== "ok") return access;
    const game = await createGame(trx, {
      quizId,
      hostId: requester.userId ?? null,
      creatorClientId: requester.clientId,
      hostClientId: requester.clientId,
      hostSecret: requester.hostSecret,
    });
    return { status: "ok", value: game };
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
    .select(["games.id", "games.quiz_id", "quizzes.title", "quizzes.description", "games.game_code", "games.status", "quizzes.time_limit"])
    .where("quizzes.is_public", "=", 1)
    .where("quizzes.deleted_at", "is", null)
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
