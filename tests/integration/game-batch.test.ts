/** The group commit against a real SQLite file: what a batch writes, and only where it should. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection.server";
import { commitGameBatch, writeGameBatches, type GameWriteBatch } from "#app/models/game-batch.server";
import { createGame } from "#app/models/game.server";
import { addQuestion, createQuiz } from "#app/models/quiz.server";
import { openTempDatabase, type TempDatabase } from "./temp-database";

let database: TempDatabase;
let db: DB;

beforeAll(async () => {
  database = await openTempDatabase("batch");
  db = database.db;
});

afterAll(() => database.remove());

function batch(change: Partial<GameWriteBatch>): GameWriteBatch {
  return { joined: [], kicked: [], locked: null, resetScores: false, left: [], answers: [], scores: [], progress: null, ...change };
}

async function gameWithPlayers(count: number): Promise<number> {
  const quiz = await createQuiz(db, { title: "Batch", description: "", timeLimit: 20, isPublic: false }, { clientId: "batch-owner" });
  const game = await createGame(db, { quizId: quiz.id, hostId: null, creatorClientId: "batch-owner" });
  const joined = Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    nickname: `Player ${index + 1}`,
    clientId: `client-${game.id}-${index + 1}`,
    joinedAt: 1000 + index,
  }));
  await commitGameBatch(db, game.id, batch({ joined }));
  return game.id;
}

async function scoresOf(gameId: number) {
  return db.selectFrom("players").select(["id", "score", "streak", "correct_count"]).where("game_id", "=", gameId).orderBy("id").execute();
}

describe("commitGameBatch", () => {
  it("writes every changed score of a large game, and nothing of another game with the same player ids", async () => {
    const playerCount = 1234; // more than one chunk of rows
    const gameId = await gameWithPlayers(playerCount);
    const otherGameId = await gameWithPlayers(3);
    const changed = Array.from({ length: playerCount }, (_, index) => index + 1)
      .filter((id) => id % 3 !== 0)
      .map((id) => ({ id, score: id * 10, streak: id % 5, correctCount: id % 7 }));

    await commitGameBatch(db, gameId, batch({ scores: changed }));

    const rows = await scoresOf(gameId);
    expect(rows).toHaveLength(playerCount);
    for (const row of rows) {
      if (row.id % 3 === 0) expect(row).toEqual({ id: row.id, score: 0, streak: 0, correct_count: 0 });
      else expect(row).toEqual({ id: row.id, score: row.id * 10, streak: row.id % 5, correct_count: row.id % 7 });
    }
    expect(await scoresOf(otherGameId)).toEqual([1, 2, 3].map((id) => ({ id, score: 0, streak: 0, correct_count: 0 })));
  });

  it("clears every player's team contribution with the scores on Play Again", async () => {
    const gameId = await gameWithPlayers(2);
    await commitGameBatch(db, gameId, batch({ scores: [{ id: 1, score: 700, streak: 1, correctCount: 1, teamPoints: 350 }] }));
    await commitGameBatch(db, gameId, batch({ resetScores: true }));
    const rows = await db.selectFrom("players").select(["id", "score", "team_points"]).where("game_id", "=", gameId).orderBy("id").execute();
    expect(rows).toEqual([
      { id: 1, score: 0, team_points: 0 },
      { id: 2, score: 0, team_points: 0 },
    ]);
  });

  it("writes nothing when a statement of the batch fails", async () => {
    const gameId = await gameWithPlayers(2);
    const duplicate = { id: 1, nickname: "Again", clientId: "again", joinedAt: 5 };
    await expect(commitGameBatch(db, gameId, batch({ scores: [{ id: 2, score: 99, streak: 1, correctCount: 1 }], joined: [duplicate] }))).rejects.toThrow();
    expect((await scoresOf(gameId)).map((row) => row.score)).toEqual([0, 0]);
  });

  it("writes several games' batches in one call, each kind of write on its own game's rows only, as each alone would", async () => {
    const [first, second, untouched] = [await gameWithPlayers(3), await gameWithPlayers(3), await gameWithPlayers(3)];
    const quizId = (await db.selectFrom("games").select("quiz_id").where("id", "=", first).executeTakeFirstOrThrow()).quiz_id;
    const question = await addQuestion(db, { quizId, order: 0, text: "2 + 2?", answers: ["3", "4", "5", "6"], correctAnswerIndex: 1 });
    const answer = (gameId: number, playerId: number) => ({
      game_id: gameId,
      player_id: playerId,
      round: 0,
      question_id: question.id,
      question_index: 0,
      answer_index: 1,
      response_ms: 900,
      correct: 1 as const,
      points: 950,
      answered_at: 5_000 + playerId,
    });
    await commitGameBatch(
      db,
      second,
      batch({ progress: { phase: "question", round: 0, questionIndex: 0, questionStartedAt: 4_000, questionPauses: [], status: "active", startedAt: 3_000 } }),
    );

    const outcomes = await db.transaction().execute((trx) =>
      writeGameBatches(trx, [
        {
          gameId: first,
          batch: batch({
            left: [2],
            joined: [{ id: 4, nickname: "Late", clientId: "late", joinedAt: 4_500 }],
            answers: [answer(first, 1), answer(first, 4)],
            scores: [{ id: 1, score: 950, streak: 1, correctCount: 1, teamPoints: 475 }],
            teamAssignments: [{ id: 3, teamId: 2 }],
            kicked: ["kicked-browser"],
            locked: true,
            progress: {
              phase: "question",
              round: 0,
              questionIndex: 0,
              questionStartedAt: 4_000,
              questionPauses: [[4_100, 4_300]],
              status: "active",
              startedAt: 3_500,
            },
          }),
        },
        { gameId: 987_654, batch: batch({ locked: true }) },
        {
          gameId: second,
          batch: batch({
            resetScores: true,
            picturesOnPlayers: true,
            evening: { mode: "teams" } as never,
            progress: { phase: "results", round: 0, questionIndex: 0, questionStartedAt: null, questionPauses: [], status: "active" },
          }),
        },
      ]),
    );

    expect(outcomes).toEqual(["stored", "game-gone", "stored"]);
    const players = (gameId: number) =>
      db.selectFrom("players").select(["id", "score", "team_points", "team_id"]).where("game_id", "=", gameId).orderBy("id").execute();
    expect(await players(first)).toEqual([
      { id: 1, score: 950, team_points: 475, team_id: null },
      { id: 3, score: 0, team_points: 0, team_id: 2 },
      { id: 4, score: 0, team_points: 0, team_id: null },
    ]);
    expect((await players(second)).map((row) => row.id)).toEqual([1, 2, 3]);
    expect((await players(untouched)).map((row) => row.id)).toEqual([1, 2, 3]);
    const answers = await db
      .selectFrom("answers")
      .select(["game_id", "player_id"])
      .where("game_id", "in", [first, second, untouched])
      .orderBy("player_id")
      .execute();
    expect(answers).toEqual([
      { game_id: first, player_id: 1 },
      { game_id: first, player_id: 4 },
    ]);
    expect(await db.selectFrom("game_kicks").select(["game_id", "client_id"]).where("game_id", "in", [first, second]).execute()).toEqual([
      { game_id: first, client_id: "kicked-browser" },
    ]);
    const games = await db
      .selectFrom("games")
      .select(["id", "locked", "pictures_on_players", "evening", "phase", "question_started_at", "question_pauses", "status", "started_at", "ended_at"])
      .where("id", "in", [first, second, untouched])
      .orderBy("id")
      .execute();
    expect(games).toEqual([
      {
        id: first,
        locked: 1,
        pictures_on_players: 0,
        evening: null,
        phase: "question",
        question_started_at: 4_000,
        question_pauses: "[[4100,4300]]",
        status: "active",
        started_at: 3_500,
        ended_at: null,
      },
      // The start stays what it was, and the question's start is cleared between questions.
      {
        id: second,
        locked: 0,
        pictures_on_players: 1,
        evening: '{"mode":"teams"}',
        phase: "results",
        question_started_at: null,
        question_pauses: "[]",
        status: "active",
        started_at: 3_000,
        ended_at: null,
      },
      {
        id: untouched,
        locked: 0,
        pictures_on_players: 0,
        evening: null,
        phase: "lobby",
        question_started_at: null,
        question_pauses: "[]",
        status: "waiting",
        started_at: null,
        ended_at: null,
      },
    ]);
  });
});
