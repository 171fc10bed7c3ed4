/**
 * One game of every kind over real sockets with three players: each reveal, each score, the host
 * accepting a typed answer, and nothing of a solution in any frame before its reveal.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient, createGameFixture, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
});

const QUESTIONS = [
  { kind: "choice", text: "Which is a woodwind?", answers: ["Trumpet", "Clarinet", "Violin", "Drum", "Harp", "Tuba"], correctAnswerIndex: 1, points: "double" },
  { kind: "trueFalse", text: "Bats are blind.", correctAnswerIndex: 1, timeLimit: 10 },
  { kind: "multiSelect", text: "Which are primes?", answers: ["2", "9", "11", "15"], correctAnswerIndexes: [0, 2] },
  { kind: "typeAnswer", text: "Closest planet to the Sun?", acceptedAnswers: ["Mercury"] },
  { kind: "closestNumber", text: "Moon landing year?", correctNumber: 1969 },
  { kind: "poll", text: "Next round?", answers: ["Music", "Films"] },
];

/** Every frame a client received while question `n` was open, apart from the echo of its own answer. */
function framesDuring(client: TestClient, questionNumber: number): string {
  const frames: string[] = [];
  let open = false;
  for (const { message } of client.received) {
    if (message.type === "QUESTION_STARTED") open = message.payload.questionNumber === questionNumber;
    else if (message.type === "ANSWER_RESULTS") open = false;
    if (open && message.type !== "ANSWER_ACCEPTED") frames.push(JSON.stringify(message));
  }
  return frames.join("\n");
}

describe("every question kind over the real protocol", () => {
  it("plays choice, true/false, multi-select, typed, closest number and poll with three players", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server, { questions: QUESTIONS, timeLimit: 30 });
    const host = await TestClient.connect(server, hostClientId);
    await host.joinAsHost(gameCode);
    const [ann, bob, cat] = await Promise.all([TestClient.connect(server), TestClient.connect(server), TestClient.connect(server)]);
    const ids = [await ann.joinAsPlayer(gameCode, "Ann"), await bob.joinAsPlayer(gameCode, "Bob"), await cat.joinAsPlayer(gameCode, "Cat")];
    const players = [ann, bob, cat];
    host.send("START_GAME", { gameCode });

    /** Sends each player's answer, waits for its ack, and returns the host's ANSWER_RESULTS. */
    async function play(n: number, answers: Record<string, unknown>[]) {
      const [started] = await Promise.all(players.map((player) => player.next("QUESTION_STARTED", (payload) => payload.questionNumber === n)));
      for (const [i, player] of players.entries()) {
        player.send("SUBMIT_ANSWER", { gameCode, playerId: ids[i], ...answers[i] });
        await player.next("ANSWER_ACCEPTED", (payload) => payload.questionNumber === n);
      }
      const results = await host.next("ANSWER_RESULTS", (payload) => payload.questionNumber === n);
      const own = await Promise.all(players.map((player) => player.next("ANSWER_RESULTS", (payload) => payload.questionNumber === n)));
      const byName = (name: string) => results.playerResults.find((result) => result.nickname === name)!;
      return { started, results, own, ann: byName("Ann"), bob: byName("Bob"), cat: byName("Cat") };
    }
    async function moveOn() {
      host.send("NEXT_QUESTION", { gameCode });
      await host.next("LEADERBOARD_UPDATE");
      host.send("NEXT_QUESTION", { gameCode });
    }

    // 1. Choice with six answers, double points.
    const q1 = await play(1, [{ answerIndex: 1 }, { answerIndex: 5 }, { answerIndex: 0 }]);
    expect(q1.started.question).toMatchObject({ kind: "choice", answers: QUESTIONS[0].answers, points: "double", image: null });
    expect(q1.started.timeLimit).toBe(30);
    expect(q1.results).toMatchObject({ kind: "choice", correctAnswerIndex: 1, correctAnswerIndexes: [1], answerCounts: [1, 1, 0, 0, 0, 1] });
    expect(q1.ann.correct).toBe(true);
    expect(q1.ann.points).toBeGreaterThan(1000); // double: 2 x (500-1000)
    expect([q1.bob.points, q1.cat.points]).toEqual([0, 0]);
    // A player sees its own result only.
    expect(q1.own[1].playerResults.map((result) => result.nickname)).toEqual(["Bob"]);
    await moveOn();

    // 2. True or false, with its own time limit; a wrong kind of answer is refused.
    const started2 = await cat.next("QUESTION_STARTED", (payload) => payload.questionNumber === 2);
    expect(started2).toMatchObject({ timeLimit: 10, question: { kind: "trueFalse", answers: ["True", "False"] } });
    cat.send("SUBMIT_ANSWER", { gameCode, playerId: ids[2], text: "False" });
    expect(await cat.next("ERROR")).toEqual({ code: "BAD_ANSWER", key: "BAD_ANSWER_TWO", message: "Pick one of the two answers." });
    cat.received.find((entry) => entry.message.type === "QUESTION_STARTED" && entry.message.payload.questionNumber === 2)!.consumed = false;
    const q2 = await play(2, [{ answerIndex: 1 }, { answerIndex: 1 }, { answerIndex: 0 }]);
    expect(q2.results).toMatchObject({ kind: "trueFalse", correctAnswerIndex: 1, answerCounts: [1, 2] });
    expect([q2.ann.correct, q2.bob.correct, q2.cat.correct]).toEqual([true, true, false]);
    expect(q2.ann.streak).toBe(2);
    await moveOn();

    // 3. Multi-select: exact set, half of it, and a wrong pick cancelling a right one.
    const q3 = await play(3, [{ answerIndexes: [2, 0] }, { answerIndexes: [0] }, { answerIndexes: [0, 1] }]);
    expect(q3.results).toMatchObject({
      kind: "multiSelect",
      correctAnswerIndex: -1,
      correctAnswerIndexes: [0, 2],
      answerCounts: [3, 1, 1, 0],
      answeredCount: 3,
    });
    expect(q3.ann).toMatchObject({ correct: true, value: [0, 2] });
    expect(q3.bob.correct).toBe(false);
    expect(q3.bob.points).toBeGreaterThan(0);
    expect(q3.bob.points).toBeLessThanOrEqual(500);
    expect(q3.cat.points).toBe(0);
    await moveOn();

    // 4. Typed: a forgiven typo, an exact answer, and one the host accepts after the reveal.
    const q4 = await play(4, [{ text: "mercury" }, { text: "  Mecrury " }, { text: "Hermes" }]);
    expect(q4.results).toMatchObject({ kind: "typeAnswer", acceptedAnswers: ["Mercury"], answerCounts: [] });
    expect(q4.results.typedAnswers).toEqual(
      expect.arrayContaining([
        { text: "Hermes", count: 1, correct: false },
        { text: "mercury", count: 1, correct: true },
        { text: "Mecrury", count: 1, correct: true },
      ]),
    );
    // Players never get the list of what others typed.
    expect(q4.own[0].typedAnswers).toBeUndefined();
    expect([q4.ann.correct, q4.bob.correct, q4.cat.correct]).toEqual([true, true, false]);
    const catScoreBefore = q4.cat.score;
    ann.send("ACCEPT_ANSWER", { gameCode, questionNumber: 4, text: "Hermes" });
    expect(await ann.next("ERROR")).toMatchObject({ code: "NOT_HOST" });
    host.send("ACCEPT_ANSWER", { gameCode, questionNumber: 4, text: "hermes" });
    const rescored = await host.next("ANSWER_RESULTS", (payload) => payload.questionNumber === 4);
    const catAfter = rescored.playerResults.find((result) => result.nickname === "Cat")!;
    expect(catAfter.correct).toBe(true);
    expect(catAfter.score).toBeGreaterThan(catScoreBefore);
    expect((await cat.next("ANSWER_RESULTS", (payload) => payload.questionNumber === 4)).playerResults[0]).toMatchObject({
      correct: true,
      score: catAfter.score,
    });
    // Stored: a restart would find the same.
    const stored = await server.db
      .selectFrom("answers")
      .select(["correct", "points", "answer_value"])
      .where("player_id", "=", ids[2])
      .where("question_index", "=", 3)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ correct: 1, points: catAfter.points, answer_value: JSON.stringify("Hermes") });
    await moveOn();

    // 5. Closest number: scored against the room at the close; the spread is revealed.
    const q5 = await play(5, [{ number: 1969 }, { number: 1970 }, { number: 2100 }]);
    expect(q5.results).toMatchObject({ kind: "closestNumber", correctNumber: 1969, numberSpread: { count: 3, min: 1969, max: 2100, median: 1970 } });
    expect(q5.ann).toMatchObject({ correct: true, points: 1000 });
    expect(q5.bob.points).toBe(Math.round(1000 * (1 - 1 / 196.9)));
    expect(q5.cat.points).toBe(Math.round(1000 * (1 - 131 / 196.9)));
    const storedGuess = await server.db
      .selectFrom("answers")
      .select(["points", "answer_value"])
      .where("player_id", "=", ids[1])
      .where("question_index", "=", 4)
      .executeTakeFirstOrThrow();
    expect(storedGuess).toEqual({ points: q5.bob.points, answer_value: "1970" });
    await moveOn();

    // 6. Poll: no points, the distribution revealed.
    const q6 = await play(6, [{ answerIndex: 0 }, { answerIndex: 1 }, { answerIndex: 1 }]);
    expect(q6.results).toMatchObject({ kind: "poll", correctAnswerIndex: -1, correctAnswerIndexes: [], answerCounts: [1, 2] });
    expect([q6.ann.points, q6.bob.points, q6.cat.points]).toEqual([0, 0, 0]);
    host.send("NEXT_QUESTION", { gameCode });
    await host.next("LEADERBOARD_UPDATE");
    host.send("NEXT_QUESTION", { gameCode });
    const over = await host.next("GAME_OVER");
    expect(over.players.map((standing) => standing.nickname)[0]).toBe("Ann");

    // No solution of any kind went out before its reveal.
    for (const player of players) {
      expect(framesDuring(player, 1)).toContain("QUESTION_STARTED");
      expect(framesDuring(player, 1)).not.toMatch(/"correct|acceptedAnswers/);
      expect(framesDuring(player, 4)).not.toMatch(/Mercury|acceptedAnswers/);
      expect(framesDuring(player, 5)).not.toContain("1969");
    }
    await Promise.all([host, ...players].map((client) => client.close()));
  });
});
