/**
 * A night of rounds, from the plan to the stored game: `hostNewNight` against a real SQLite file
 * (whose quizzes a requester may chain, each round's questions in order, the round it refuses), and
 * the plan page's action called with real Requests as a form posts them without JavaScript.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection.server";
import { getGameQuestionsByRound, loadGameForPlay, readEvening } from "#app/models/game-play.server";
import { getGameRounds, hostNewNight } from "#app/models/game-night.server";
import { addQuestion, createQuiz, type Quiz, type Requester } from "#app/models/quiz.server";
import * as nightRoute from "#app/routes/night.new";
import { openTempDatabase, testLimits, type TempDatabase } from "./temp-database";
import { silentLogger } from "#server/logger";

let database: TempDatabase;
let db: DB;

const context = () => ({
  db,
  hub: null as any,
  sessionSecret: "night-test-secret-0123456789-0123456789-0123",
  clientIp: "127.0.0.1",
  limits: testLimits(),
  logger: silentLogger,
});

beforeAll(async () => {
  database = await openTempDatabase("night");
  db = database.db;
});

afterAll(() => database.remove());

const alice: Requester & { clientId: string } = { userId: null, clientId: "browser-alice" };
const bob: Requester & { clientId: string } = { userId: null, clientId: "browser-bob" };

async function quizOf(owner: Requester, title: string, isPublic: boolean, questions: string[]): Promise<Quiz> {
  const quiz = await createQuiz(db, { title, description: "", timeLimit: 20, isPublic }, owner);
  // Added out of order: a round plays its questions in the quiz's order.
  for (const [order, text] of [...questions.entries()].reverse()) {
    await addQuestion(db, { quizId: quiz.id, text, answers: ["a", "b", "c", "d"], correctAnswerIndex: 0, order });
  }
  return quiz;
}

describe("hostNewNight", () => {
  it("chains the requester's own and public quizzes into one game, each round's questions in order, hosted by its browser", async () => {
    const own = await quizOf(alice, "General Knowledge", false, ["G1?", "G2?"]);
    const pictures = await quizOf(bob, "Pictures", true, ["P1?", "P2?", "P3?"]);
    const music = await quizOf(alice, "Music", false, ["M1?"]);

    const hosted = await hostNewNight(
      db,
      { title: " Friday night ", rounds: [{ quizId: own.id }, { quizId: pictures.id, title: " Picture round " }, { quizId: music.id, title: "" }] },
      alice,
    );
    expect(hosted.status).toBe("ok");
    if (hosted.status !== "ok") return;
    expect(hosted.value).toMatchObject({ status: "waiting", gameCode: expect.stringMatching(/^[A-Z0-9]{6}$/) });

    const game = await db.selectFrom("games").selectAll().where("id", "=", hosted.value.id).executeTakeFirstOrThrow();
    expect(game).toMatchObject({ quiz_id: own.id, host_client_id: alice.clientId, creator_client_id: alice.clientId });
    expect(readEvening(game.evening)?.title).toBe("Friday night");

    const rounds = await getGameRounds(db, game.id);
    expect(rounds.map(({ position, quizId, title, timeLimit }) => ({ position, quizId, title, timeLimit }))).toEqual([
      { position: 0, quizId: own.id, title: "General Knowledge", timeLimit: 20 },
      { position: 1, quizId: pictures.id, title: "Picture round", timeLimit: 20 },
      { position: 2, quizId: music.id, title: "Music", timeLimit: 20 },
    ]);
    const questions = await getGameQuestionsByRound(db, game.id);
    expect([...questions.entries()].map(([round, list]) => [round, list.map((question) => question.text)])).toEqual([
      [0, ["G1?", "G2?"]],
      [1, ["P1?", "P2?", "P3?"]],
      [2, ["M1?"]],
    ]);

    // The game room plays it as a night: its title, the first round's questions, the later rounds after.
    const loaded = await loadGameForPlay(db, hosted.value.gameCode);
    expect(loaded).toMatchObject({ title: "Friday night", firstRoundTitle: "General Knowledge" });
    expect(loaded!.questions.map((question) => question.text)).toEqual(["G1?", "G2?"]);
    expect(loaded!.laterRounds.map((round) => [round.title, round.questions.map((question) => question.text)])).toEqual([
      ["Picture round", ["P1?", "P2?", "P3?"]],
      ["Music", ["M1?"]],
    ]);
  });

  it("refuses another browser's private quiz, a quiz without questions and a missing quiz, naming the round, and opens no game", async () => {
    const own = await quizOf(alice, "Mine", false, ["Q?"]);
    const bobsPrivate = await quizOf(bob, "Bob's secret", false, ["Q?"]);
    const empty = await quizOf(alice, "Empty", false, []);
    const before = await db
      .selectFrom("games")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();

    expect(await hostNewNight(db, { title: "N", rounds: [{ quizId: own.id }, { quizId: bobsPrivate.id }] }, alice)).toEqual({ status: "forbidden", round: 1 });
    expect(await hostNewNight(db, { title: "N", rounds: [{ quizId: own.id }, { quizId: own.id }, { quizId: empty.id }] }, alice)).toEqual({
      status: "empty",
      round: 2,
    });
    expect(await hostNewNight(db, { title: "N", rounds: [{ quizId: 987_654 }, { quizId: own.id }] }, alice)).toEqual({ status: "not-found", round: 0 });
    // Bob's own private quiz is his to chain; Alice's is not.
    expect(await hostNewNight(db, { title: "N", rounds: [{ quizId: bobsPrivate.id }, { quizId: own.id }] }, bob)).toEqual({ status: "forbidden", round: 1 });

    const after = await db
      .selectFrom("games")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it("takes the same quiz twice as two rounds", async () => {
    const quiz = await quizOf(alice, "Twice", true, ["T1?", "T2?"]);
    const hosted = await hostNewNight(db, { title: "Again", rounds: [{ quizId: quiz.id }, { quizId: quiz.id, title: "Again, faster" }] }, bob);
    expect(hosted.status).toBe("ok");
    if (hosted.status !== "ok") return;
    const questions = await getGameQuestionsByRound(db, hosted.value.id);
    expect([...questions.values()].map((list) => list.map((question) => question.text))).toEqual([
      ["T1?", "T2?"],
      ["T1?", "T2?"],
    ]);
  });
});

interface Reply {
  status: number;
  body: any;
  location: string | null;
}

/** Posts the plan page's form as a browser without JavaScript does, with its client id cookie. */
async function postPlan(form: Record<string, string>, clientId = alice.clientId): Promise<Reply> {
  const request = new Request("http://localhost/night/new", {
    method: "POST",
    headers: { cookie: `quiz_client_id=${clientId}` },
    body: new URLSearchParams(form),
  });
  let result: unknown;
  try {
    result = await nightRoute.action({ request, params: {}, context: context() } as any);
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    result = thrown;
  }
  if (result instanceof Response) return { status: result.status, body: null, location: result.headers.get("location") };
  const wrapped = result as { data: unknown; init: ResponseInit | null };
  return { status: wrapped.init?.status ?? 200, body: wrapped.data, location: null };
}

describe("the plan page's action", () => {
  it("adds, moves and removes rounds for a browser without JavaScript, handing the edited plan back", async () => {
    const added = await postPlan({ intent: "add-round", title: "Quiz night", "rounds[0].quizId": "1", "rounds[1].quizId": "2", "rounds[1].title": "Two" });
    expect(added).toMatchObject({
      status: 200,
      body: { draft: { title: "Quiz night", rounds: [{ quizId: "1" }, { quizId: "2", title: "Two" }, { quizId: "" }] } },
    });
    const moved = await postPlan({ intent: "move-round-1-up", title: "Quiz night", "rounds[0].quizId": "1", "rounds[1].quizId": "2" });
    expect(moved.body.draft.rounds.map((round: { quizId: string }) => round.quizId)).toEqual(["2", "1"]);
    const refused = await postPlan({ intent: "remove-round-0", title: "Quiz night", "rounds[0].quizId": "1", "rounds[1].quizId": "2" });
    expect(refused).toMatchObject({ status: 400, body: { errors: { rounds: "A night has 2 to 10 rounds." } } });
  });

  it("refuses a plan with a message per round, and a quiz the browser may not host on its round's field", async () => {
    const missing = await postPlan({ intent: "host", title: "", "rounds[0].quizId": "", "rounds[1].quizId": "" });
    expect(missing).toMatchObject({
      status: 400,
      body: { errors: { title: "Give the night a title.", "rounds[0].quizId": "Round 1: choose a quiz.", "rounds[1].quizId": "Round 2: choose a quiz." } },
    });
    const own = await quizOf(alice, "Alice's", false, ["Q?"]);
    const bobsPrivate = await quizOf(bob, "Bob's private", false, ["Q?"]);
    const forbidden = await postPlan({ intent: "host", title: "N", "rounds[0].quizId": String(own.id), "rounds[1].quizId": String(bobsPrivate.id) });
    expect(forbidden).toMatchObject({
      status: 403,
      body: { errors: { "rounds[1].quizId": "Round 2: that quiz is private. Only its creator can host it." }, draft: { title: "N" } },
    });
  });

  it("hosts the night and sends its browser to the lobby as host", async () => {
    const first = await quizOf(alice, "First", false, ["F?"]);
    const second = await quizOf(bob, "Second", true, ["S?"]);
    const hosted = await postPlan({
      intent: "host",
      title: "Pub night",
      "rounds[0].quizId": String(first.id),
      "rounds[1].quizId": String(second.id),
      "rounds[1].title": "Finale",
    });
    expect(hosted.status).toBe(302);
    const code = /^\/waiting\/([A-Z0-9]{6})\?hosted=1$/.exec(hosted.location ?? "")?.[1];
    expect(code).toBeDefined();
    const game = await db.selectFrom("games").selectAll().where("game_code", "=", code!).executeTakeFirstOrThrow();
    expect(game.host_client_id).toBe(alice.clientId);
    expect((await getGameRounds(db, game.id)).map((round) => round.title)).toEqual(["First", "Finale"]);
  });
});
