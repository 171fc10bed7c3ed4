/**
 * One writer for the process (issue 18, docs/decisions/0035-one-writer.md) against a real SQLite
 * file (or PostgreSQL database, in the Postgres pass): many games' group commits in one transaction; a game whose write SQLite refuses is rolled
 * back alone and told so while the others commit; rooms sharing the writer acknowledge nothing
 * before its commit, and each game's messages keep their order; on the one commit clock, answers of
 * several games given within an interval share a transaction.
 */
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection.server";
import { isConstraintViolation } from "#db/errors";
import { SQLite } from "#db/sqlite.server";
import { createGame } from "#app/models/game.server";
import { loadGameForPlay } from "#app/models/game-play.server";
import type { GameWriteBatch } from "#app/models/game-batch.server";
import { addQuestion, createQuiz } from "#app/models/quiz.server";
import { CommitClock } from "#server/commit-clock";
import { GameRoom } from "#server/game-room";
import { GameWriter } from "#server/game-writer";
import { openTempDatabase, type TempDatabase } from "./temp-database";
import { recordingConnection } from "../unit/recording-connection";
import { usesPostgres } from "../postgres";

let database: TempDatabase;
let db: DB;

beforeAll(async () => {
  database = await openTempDatabase("writer");
  db = database.db;
});

/**
 * Another connection holds the answers' write lock, so no commit that stores an answer can finish
 * until `release()`: SQLite's one write lock (its commits fail busy and are tried again), or a lock
 * on PostgreSQL's answers table that lets reads through (its commits wait).
 */
async function holdWriteLock(): Promise<{ release(): Promise<void> }> {
  if (usesPostgres()) {
    const locker = new pg.Client(database.location);
    await locker.connect();
    await locker.query("begin");
    await locker.query("lock table answers in exclusive mode");
    return {
      async release() {
        await locker.query("rollback");
        await locker.end();
      },
    };
  }
  // A short wait for the lock, so a blocked transaction fails and is tried again rather than waiting 5 s.
  await sql`pragma busy_timeout = 20`.execute(db);
  const locker = new SQLite(database.location);
  locker.prepare("begin immediate").run();
  return {
    async release() {
      locker.prepare("rollback").run();
      locker.close();
      await sql`pragma busy_timeout = 5000`.execute(db);
    },
  };
}

afterAll(() => database.remove());

function batch(change: Partial<GameWriteBatch>): GameWriteBatch {
  return { joined: [], kicked: [], locked: null, resetScores: false, left: [], answers: [], scores: [], progress: null, ...change };
}

async function newGame(): Promise<{ id: number; gameCode: string }> {
  const quiz = await createQuiz(db, { title: "Writer", description: "", timeLimit: 20, isPublic: false }, { clientId: "writer-owner" });
  await addQuestion(db, { quizId: quiz.id, order: 0, text: "2 + 2?", answers: ["3", "4", "5", "6"], correctAnswerIndex: 1 });
  await addQuestion(db, { quizId: quiz.id, order: 1, text: "3 + 3?", answers: ["6", "7", "8", "9"], correctAnswerIndex: 0 });
  const game = await createGame(db, { quizId: quiz.id, hostId: null, creatorClientId: "host", hostClientId: "host" });
  return { id: game.id, gameCode: game.gameCode };
}

const player = (id: number, gameId: number) => ({ id, nickname: `P${id}`, clientId: `writer-${gameId}-${id}`, joinedAt: 1000 + id });

async function playersOf(gameId: number): Promise<number[]> {
  return (await db.selectFrom("players").select("id").where("game_id", "=", gameId).orderBy("id").execute()).map((row) => row.id);
}

describe("the shared writer", () => {
  it("puts the group commits of many games due together into one transaction", async () => {
    const transactions: number[] = [];
    const writer = new GameWriter(db, { onTransaction: (games) => transactions.push(games) });
    const games = await Promise.all(Array.from({ length: 40 }, () => newGame()));
    const outcomes = await Promise.all(games.map((game) => writer.commit(game.id, batch({ joined: [player(1, game.id), player(2, game.id)] }))));
    expect(outcomes).toEqual(games.map(() => "stored"));
    expect(transactions).toEqual([40]);
    for (const game of games) expect(await playersOf(game.id)).toEqual([1, 2]);
  });

  it("puts at most the set number of games in one transaction, the rest in the next turn", async () => {
    const transactions: number[] = [];
    const writer = new GameWriter(db, { onTransaction: (games) => transactions.push(games), maxGamesPerTransaction: 4, transactionsInFlight: 1 });
    const games = await Promise.all(Array.from({ length: 10 }, () => newGame()));
    const outcomes = await Promise.all(games.map((game) => writer.commit(game.id, batch({ joined: [player(1, game.id)] }))));
    expect(outcomes).toEqual(games.map(() => "stored"));
    expect(transactions).toEqual([4, 4, 2]);
    for (const game of games) expect(await playersOf(game.id)).toEqual([1]);
  });

  it("runs transactions side by side when allowed, but never two of one game's batches at once: the later waits and lands last", async () => {
    const transactions: number[] = [];
    const writer = new GameWriter(db, { onTransaction: (games) => transactions.push(games), maxGamesPerTransaction: 2, transactionsInFlight: 3 });
    const [first, second, third] = await Promise.all([newGame(), newGame(), newGame()]);
    const progress = (phase: "question" | "results") => ({
      phase,
      round: 0,
      questionIndex: 0,
      questionStartedAt: null,
      questionPauses: [],
      status: "active" as const,
    });
    const outcomes = await Promise.all([
      writer.commit(first.id, batch({ joined: [player(1, first.id)], progress: progress("question") })),
      writer.commit(first.id, batch({ joined: [player(2, first.id)], progress: progress("results") })),
      writer.commit(second.id, batch({ joined: [player(1, second.id)] })),
      writer.commit(third.id, batch({ joined: [player(1, third.id)] })),
    ]);
    expect(outcomes).toEqual(["stored", "stored", "stored", "stored"]);
    // The first game's and the second's, the third's beside them, then the first game's second batch once its first is stored.
    expect(transactions.slice(-1)).toEqual([1]);
    expect([...transactions].sort()).toEqual([1, 1, 2]);
    expect(await playersOf(first.id)).toEqual([1, 2]);
    expect((await db.selectFrom("games").select("phase").where("id", "=", first.id).executeTakeFirstOrThrow()).phase).toBe("results");
  });

  it("rolls back only the game whose write the database refuses, and tells that game alone", async () => {
    const writer = new GameWriter(db);
    const [good, bad, gone, alsoGood] = await Promise.all([newGame(), newGame(), newGame(), newGame()]);
    await writer.commit(bad.id, batch({ joined: [player(1, bad.id)] }));
    await db.deleteFrom("games").where("id", "=", gone.id).execute();
    const results = await Promise.allSettled([
      writer.commit(good.id, batch({ joined: [player(1, good.id)], locked: true })),
      // Player 1 exists: the primary key refuses it; its lock must not be stored either.
      writer.commit(bad.id, batch({ joined: [player(2, bad.id), player(1, bad.id)], locked: true })),
      writer.commit(gone.id, batch({ joined: [player(1, gone.id)] })),
      writer.commit(alsoGood.id, batch({ joined: [player(1, alsoGood.id)] })),
    ]);
    expect(results[0]).toEqual({ status: "fulfilled", value: "stored" });
    expect(results[1].status).toBe("rejected");
    expect(isConstraintViolation((results[1] as PromiseRejectedResult).reason)).toBe(true);
    expect(results[2]).toEqual({ status: "fulfilled", value: "game-gone" });
    expect(results[3]).toEqual({ status: "fulfilled", value: "stored" });
    expect(await playersOf(good.id)).toEqual([1]);
    expect(await playersOf(bad.id)).toEqual([1]);
    expect(await playersOf(alsoGood.id)).toEqual([1]);
    const locks = await db.selectFrom("games").select(["id", "locked"]).where("id", "in", [good.id, bad.id]).execute();
    // By id: games made at once on PostgreSQL's several connections get their ids in any order.
    expect(Object.fromEntries(locks.map((row) => [row.id, row.locked]))).toEqual({ [good.id]: 1, [bad.id]: 0 });
  });
});

const connection = recordingConnection;

const has = (client: { received: { type: string }[] }, type: string) => client.received.some((message) => message.type === type);

describe("rooms sharing the writer", () => {
  it("acknowledge no answer before the shared transaction that stores it commits, and keep each game's messages in order", { timeout: 20_000 }, async () => {
    const writer = new GameWriter(db);
    const rooms = [];
    for (let index = 0; index < 3; index++) {
      const game = await newGame();
      const loaded = (await loadGameForPlay(db, game.gameCode))!;
      const room = new GameRoom(
        loaded,
        { commit: (pending) => writer.commit(game.id, pending), isHost: async ({ clientId }) => clientId === "host" },
        { commitIntervalMs: 1 },
      );
      const host = connection("host");
      const ann = connection(`ann-${index}`);
      await room.joinAsHost(host);
      room.joinAsPlayer(ann, "Ann");
      await expect.poll(() => has(ann, "PLAYER_JOINED")).toBe(true);
      room.start(host);
      await expect.poll(() => has(ann, "QUESTION_STARTED")).toBe(true);
      rooms.push({ game, room, ann, playerId: ann.received.find((message) => message.type === "PLAYER_JOINED")!.payload.player.id as number });
    }

    // Another connection holds the write lock: the shared transaction cannot commit.
    const locker = await holdWriteLock();
    try {
      for (const { room, ann, playerId } of rooms) room.answer(ann, playerId, { answerIndex: 1 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const { ann } of rooms) expect(has(ann, "ANSWER_ACCEPTED")).toBe(false);
      expect(
        await db
          .selectFrom("answers")
          .select("game_id")
          .where(
            "game_id",
            "in",
            rooms.map(({ game }) => game.id),
          )
          .execute(),
      ).toEqual([]);
    } finally {
      await locker.release();
    }
    for (const { ann } of rooms) await expect.poll(() => has(ann, "ANSWER_RESULTS"), { timeout: 5000 }).toBe(true);
    for (const { game, ann } of rooms) {
      const types = ann.received.map((message) => message.type);
      // The answer's acknowledgement before the results its answer closed, as the engine made them.
      expect(types.indexOf("ANSWER_ACCEPTED")).toBeGreaterThan(types.indexOf("QUESTION_STARTED"));
      expect(types.indexOf("ANSWER_ACCEPTED")).toBeLessThan(types.indexOf("ANSWER_RESULTS"));
      expect(await db.selectFrom("answers").select(["answer_index", "correct"]).where("game_id", "=", game.id).execute()).toEqual([
        { answer_index: 1, correct: 1 },
      ]);
    }
    for (const { room } of rooms) await room.dispose();
  });

  it("on the one commit clock, store answers given at different moments of an interval in one transaction", async () => {
    const transactions: number[] = [];
    const writer = new GameWriter(db, { onTransaction: (games) => transactions.push(games) });
    const clock = new CommitClock(300);
    const rooms = [];
    for (let index = 0; index < 3; index++) {
      const game = await newGame();
      const loaded = (await loadGameForPlay(db, game.gameCode))!;
      const room = new GameRoom(
        loaded,
        { commit: (pending) => writer.commit(game.id, pending), isHost: async ({ clientId }) => clientId === "host" },
        { commitIntervalMs: 300, commitClock: clock },
      );
      const host = connection("host");
      // Two players, so one answer leaves the question open (its close would be committed at once).
      const [ann, bob] = [connection(`clock-ann-${index}`), connection(`clock-bob-${index}`)];
      await room.joinAsHost(host);
      room.joinAsPlayer(ann, "Ann");
      room.joinAsPlayer(bob, "Bob");
      await expect.poll(() => has(bob, "PLAYER_JOINED") && has(ann, "PLAYER_JOINED")).toBe(true);
      room.start(host);
      await expect.poll(() => has(ann, "QUESTION_STARTED")).toBe(true);
      rooms.push({ room, ann, playerId: ann.received.find((message) => message.type === "PLAYER_JOINED")!.payload.player.id as number });
    }
    // Past the joins' and starts' commits.
    await new Promise((resolve) => setTimeout(resolve, 400));
    transactions.length = 0;
    for (const { room, ann, playerId } of rooms) {
      room.answer(ann, playerId, { answerIndex: 1 });
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    for (const { ann } of rooms) await expect.poll(() => has(ann, "ANSWER_ACCEPTED")).toBe(true);
    // With a timer per room, each answer was stored in a transaction of its own: [1, 1, 1].
    expect(transactions).toEqual([3]);
    for (const { room } of rooms) await room.dispose();
  });
});
