/**
 * What SQLite's one writer made safe, made safe on PostgreSQL, where servers write side by side
 * (docs/decisions/0051-postgres-second-store.md): each test runs its work at once from several
 * pools of connections on one database, as several servers would. Runs in both passes: on a
 * PostgreSQL of its own in the SQLite pass.
 */
import { randomUUID } from "node:crypto";
import type { QuizGenerator } from "#app/ai/quiz-generator.server";
import { GUEST_AI_QUIZ_LIMIT } from "#app/billing/plans";
import { generateAndHostQuiz } from "#app/models/ai-quiz.server";
import { createGame, generateGameCode } from "#app/models/game.server";
import { registerHost } from "#app/models/game-host.server";
import { createQuiz, addQuestion } from "#app/models/quiz.server";
import { createGuest } from "#app/models/user.server";
import { openDatabase, type DB } from "#db/connection.server";
import { runAlone } from "#db/locks.server";
import { GameHub } from "#server/game-hub";
import { silentLogger } from "#server/logger";
import { ServerMetrics } from "#server/metrics";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeWithPostgres } from "./with-postgres";
import { testPostgres, type TestPostgres } from "../postgres";
import { testLimits } from "./temp-database";

/** As many pools as servers in a small cluster, each with connections to spare. */
const SERVERS = 6;

describeWithPostgres("several servers on one PostgreSQL database", () => {
  let postgres: TestPostgres;
  let url: string;
  let servers: DB[];

  beforeAll(async () => {
    postgres = await testPostgres();
    url = await postgres.freshDatabase("concurrency");
    servers = Array.from({ length: SERVERS }, () => openDatabase(url, { poolSize: 3 }));
  });

  afterAll(async () => {
    await Promise.all((servers ?? []).map((db) => db.destroy()));
    await postgres?.release();
  });

  async function newQuiz(db: DB): Promise<number> {
    const quiz = await createQuiz(db, { title: "Races", description: "", timeLimit: 20, isPublic: true }, { clientId: `owner-${randomUUID()}` });
    await addQuestion(db, { quizId: quiz.id, order: 0, text: "2 + 2?", answers: ["3", "4"], correctAnswerIndex: 1 });
    return quiz.id;
  }

  describe("drawing game codes on several servers at once", () => {
    it("gives every game a code of its own when all first draw the same one", async () => {
      const quizId = await newQuiz(servers[0]);
      const clash = `Z${randomUUID().slice(0, 5).toUpperCase()}`;
      const games = await Promise.all(
        servers.map((db, index) => {
          let draws = 0;
          // Every server's first draw is the same code; the ones after are drawn as usual.
          const drawCode = () => (draws++ === 0 ? clash : generateGameCode());
          return createGame(db, { quizId, hostId: null, creatorClientId: `host-${index}`, hostClientId: `host-${index}` }, Date.now(), drawCode);
        }),
      );
      const codes = games.map((game) => game.gameCode);
      expect(new Set(codes).size).toBe(SERVERS);
      expect(codes.filter((code) => code === clash)).toHaveLength(1);
    });
  });

  describe("the AI quota spent on several servers at once", () => {
    it("lets one request through for the last AI quiz of the day, and refuses the others", async () => {
      const guest = await createGuest(servers[0]);
      // All but one of the guest's AI quizzes spent already.
      await servers[0]
        .insertInto("ai_generations")
        .values(Array.from({ length: GUEST_AI_QUIZ_LIMIT - 1 }, () => ({ user_id: guest.id, quiz_id: null, created_at: Date.now() })))
        .execute();
      const quizGenerator = {
        // A generation that answers at once: every request reaches the spending transaction together.
        async generate() {
          return { ok: true, questions: [{ text: "Which is a volcano?", answers: ["Etna", "Thames"], correctAnswerIndex: 0 }] };
        },
      } as unknown as QuizGenerator;
      const results = await Promise.all(
        servers.map((db) =>
          generateAndHostQuiz(
            { db, quizGenerator, limits: testLimits(), clientIp: "203.0.113.9", logger: silentLogger, metrics: new ServerMetrics() },
            { ...guest },
            { userId: guest.id, clientId: `browser-${randomUUID()}` },
            { title: "Volcanoes", description: "", topic: "Volcanoes", difficulty: "medium", questionCount: 1, kinds: "choice", timeLimit: 20 },
          ),
        ),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      expect(results.filter((result) => !result.ok).map((result) => (result.ok ? null : result.reason))).toEqual(Array(SERVERS - 1).fill("quota-used"));
      const spent = await servers[0]
        .selectFrom("ai_generations")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", guest.id)
        .executeTakeFirstOrThrow();
      expect(spent.n).toBe(GUEST_AI_QUIZ_LIMIT);
    });
  });

  describe("the host seat claimed on several servers at once", () => {
    it("goes to one browser; the others are told it is taken", async () => {
      const quizId = await newQuiz(servers[0]);
      const account = await createGuest(servers[0]);
      const game = await createGame(servers[0], { quizId, hostId: account.id, creatorClientId: "laptop", hostClientId: null });
      // The account that made the game asks from a browser on each server: each may take the empty seat.
      const outcomes = await Promise.all(
        servers.map((db, index) => registerHost(db, game.gameCode, `seat-${index}`, { clientId: `seat-${index}`, userId: account.id })),
      );
      expect(outcomes.filter((outcome) => outcome === "registered")).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === "taken")).toHaveLength(SERVERS - 1);
    });
  });

  describe("the hub's sweep on several servers", () => {
    it("runs the database's part on one server at a time: a second one skips it while the first holds it", async () => {
      const running: number[] = [];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const first = runAlone(servers[0], "race-check", async () => {
        running.push(0);
        await held;
      });
      await expect.poll(() => running).toEqual([0]);
      const others = await Promise.all(servers.slice(1).map((db, index) => runAlone(db, "race-check", async () => void running.push(index + 1))));
      expect(others).toEqual(Array(SERVERS - 1).fill(false));
      release();
      expect(await first).toBe(true);
      // Released: the next one runs.
      expect(await runAlone(servers[1], "race-check", async () => void running.push(1))).toBe(true);
      expect(running).toEqual([0, 1]);
    });

    it("leaves the purges to the server sweeping already, and does them itself the next turn", async () => {
      const quizId = await newQuiz(servers[0]);
      const old = await createGame(servers[0], { quizId, hostId: null, creatorClientId: "old", hostClientId: "old" });
      await servers[0].updateTable("games").set({ status: "finished", started_at: 1, ended_at: 1 }).where("id", "=", old.id).execute();
      const hub = new GameHub(servers[1], { reportRetentionMs: 24 * 60 * 60_000, sweepIntervalMs: 60 * 60_000 });
      try {
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let holding = false;
        // Another server in the middle of its sweep.
        const other = runAlone(servers[2], "hub-sweep", async () => {
          holding = true;
          await held;
        });
        await expect.poll(() => holding).toBe(true);
        await hub.sweep();
        expect(await servers[0].selectFrom("games").select("id").where("id", "=", old.id).executeTakeFirst()).toEqual({ id: old.id });
        release();
        await other;
        await hub.sweep();
        expect(await servers[0].selectFrom("games").select("id").where("id", "=", old.id).executeTakeFirst()).toBeUndefined();
      } finally {
        await hub.close();
      }
    });
  });
});
