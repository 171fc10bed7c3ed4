/**
 * A report of a game with 10,000 players (the most a game takes): a fixed number of queries
 * whatever the number of players, and the figures of every player's answers; the downloads read
 * the answers a batch of players at a time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KyselyPlugin } from "kysely";
import type { DB } from "#db/connection.server";
import { createGame } from "#app/models/game.server";
import { getFullGameReport, getGameReport } from "#app/models/game-report.server";
import { addQuestion, createQuiz } from "#app/models/quiz.server";
import { reportCsvFile, reportXlsxFile } from "#app/reports/game-report-files.server";
import { openTempDatabase, type TempDatabase } from "./temp-database";

const PLAYERS = 10_000;
const QUESTIONS = 10;
const HOST = { clientId: "scale-host-browser", hostSecret: "scale-host-secret" };

let database: TempDatabase;
let gameId: number;

beforeAll(async () => {
  database = await openTempDatabase("report-scale");
  const { db } = database;
  const quiz = await createQuiz(db, { title: "Crowd", description: "", timeLimit: 20, isPublic: false }, HOST);
  for (let order = 0; order < QUESTIONS; order++) {
    await addQuestion(db, { quizId: quiz.id, order, kind: "choice", text: `Q${order + 1}`, answers: ["A", "B", "C", "D"], correctAnswerIndex: order % 4 });
  }
  const questions = await db.selectFrom("questions").select("id").where("quiz_id", "=", quiz.id).orderBy("order").execute();
  const game = await createGame(
    db,
    { quizId: quiz.id, hostId: null, creatorClientId: HOST.clientId, hostClientId: HOST.clientId, hostSecret: HOST.hostSecret },
    1_000,
  );
  gameId = game.id;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < PLAYERS; start += 500) {
      const ids = Array.from({ length: 500 }, (_, i) => start + i + 1);
      await trx
        .insertInto("players")
        .values(ids.map((id) => ({ game_id: gameId, id, nickname: `P${id}`, client_id: `c${id}`, joined_at: 1_000 })))
        .execute();
      // Player n picks option n % 4 on every question, in n % 20 seconds, for 100 points when right.
      const answers = ids.flatMap((id) =>
        questions.map((question, index) => ({
          game_id: gameId,
          player_id: id,
          round: 0,
          question_id: question.id,
          question_index: index,
          answer_index: id % 4,
          response_ms: (id % 20) * 1000,
          correct: (id % 4 === index % 4 ? 1 : 0) as 0 | 1,
          points: id % 4 === index % 4 ? 100 : 0,
          answered_at: 2_000,
        })),
      );
      for (let i = 0; i < answers.length; i += 1000)
        await trx
          .insertInto("answers")
          .values(answers.slice(i, i + 1000))
          .execute();
    }
    await trx.updateTable("games").set({ status: "finished", started_at: 1_500, ended_at: 9_000 }).where("id", "=", gameId).execute();
  });
}, 120_000);

afterAll(() => database.remove());

/**
 * The longest the event loop went without a turn while `run` ran, seen by a timer that ticks every
 * 5 ms: unlike perf_hooks' delay histogram, it also sees a loop that never turned at all (SQLite's
 * driver answers synchronously, so a file written without yielding is one block and no sample).
 */
async function withLoopWatch<T>(run: () => Promise<T>): Promise<{ value: T; worstGapMs: number }> {
  let last = performance.now();
  let worstGapMs = 0;
  const tick = () => {
    const now = performance.now();
    worstGapMs = Math.max(worstGapMs, now - last);
    last = now;
  };
  const timer = setInterval(tick, 5);
  try {
    const value = await run();
    // The gap up to now counts too: a run that never let the timer fire is one gap.
    tick();
    return { value, worstGapMs };
  } finally {
    clearInterval(timer);
  }
}

/** The database, counting every query sent through it. */
function counting(db: DB): { db: DB; queries: () => number } {
  let count = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      count++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), queries: () => count };
}

describe("a report of 10,000 players", () => {
  it("takes a fixed number of queries, and its figures cover every player", async () => {
    const { db, queries } = counting(database.db);
    const started = performance.now();
    const result = await getGameReport(db, gameId, HOST);
    const elapsed = performance.now() - started;
    if (result.status !== "ok") throw new Error("no report");
    const report = result.value;
    expect(queries()).toBeLessThanOrEqual(10);
    expect(report.playerCount).toBe(PLAYERS);
    expect(report.questions[0]).toMatchObject({ answered: PLAYERS, correct: PLAYERS / 4, correctRate: 0.25 });
    expect(report.questions[0].optionCounts!.map((option) => option.count)).toEqual([2500, 2500, 2500, 2500]);
    expect(report.players).toHaveLength(100);
    expect(report.playerPages).toBe(100);
    console.log(`report of ${PLAYERS} players x ${QUESTIONS} questions: ${queries()} queries, ${elapsed.toFixed(0)} ms`);
  });

  it("reads every player's answers for the files a batch of 500 players at a time", async () => {
    const { db, queries } = counting(database.db);
    const started = performance.now();
    const result = await getFullGameReport(db, gameId, HOST);
    if (result.status !== "ok") throw new Error("no report");
    let players = 0;
    let answers = 0;
    for await (const batch of result.value.players) {
      players += batch.length;
      answers += batch.reduce((sum, player) => sum + player.answers.filter(Boolean).length, 0);
    }
    expect(players).toBe(PLAYERS);
    expect(answers).toBe(PLAYERS * QUESTIONS);
    expect(queries()).toBeLessThanOrEqual(10 + 2 + PLAYERS / 500);
    console.log(`every answer of ${PLAYERS} players: ${queries()} queries, ${(performance.now() - started).toFixed(0)} ms`);
  });

  it.each(["xlsx", "csv"] as const)(
    "writes its %s without holding the event loop (issue 26): the worst delay stays under 100 ms",
    async (format) => {
      const result = await getFullGameReport(database.db, gameId, HOST);
      if (result.status !== "ok") throw new Error("no report");
      const file = format === "xlsx" ? reportXlsxFile(result.value, "en") : reportCsvFile(result.value, "en");
      const { value: bytes, worstGapMs } = await withLoopWatch(() => new Response(file.body).arrayBuffer());
      expect(bytes.byteLength).toBeGreaterThan(PLAYERS * QUESTIONS * 10);
      console.log(
        `the ${format} of ${PLAYERS} players: ${(bytes.byteLength / 1024 / 1024).toFixed(1)} MB, longest the event loop was held ${worstGapMs.toFixed(0)} ms`,
      );
      expect(worstGapMs).toBeLessThan(100);
    },
    120_000,
  );
});
