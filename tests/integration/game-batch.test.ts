/** The group commit against a real SQLite file: what a batch writes, and only where it should. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection.server";
import { commitGameBatch, type GameWriteBatch } from "#app/models/game-batch.server";
import { createGame } from "#app/models/game.server";
import { createQuiz } from "#app/models/quiz.server";
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
});
