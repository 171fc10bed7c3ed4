/**
 * The host's pause (issue 17) over real sockets: a paused question refuses answers with PAUSED,
 * keeps its time left, and takes answers again once resumed; only the host may pause or resume.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TestClient, createGameFixture, startTestServer, type TestServer } from "./harness";

let server: TestServer;
const clients: TestClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

afterAll(async () => {
  await server.stop();
});

async function connect(on: TestServer = server, clientId?: string): Promise<TestClient> {
  const client = await TestClient.connect(on, clientId);
  clients.push(client);
  return client;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("pausing a question", () => {
  it("refuses answers with PAUSED while paused, keeps the time left, and accepts them after the resume", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server, { timeLimit: 10 });
    const host = await connect(server, hostClientId);
    await host.joinAsHost(gameCode);
    const ann = await connect();
    const bob = await connect();
    const annId = await ann.joinAsPlayer(gameCode, "Ann");
    await bob.joinAsPlayer(gameCode, "Bob");
    host.send("START_GAME", { gameCode });
    const started = await ann.next("QUESTION_STARTED");
    await bob.next("QUESTION_STARTED");

    await sleep(300);
    host.send("PAUSE_QUESTION", { gameCode });
    const paused = await ann.next("QUESTION_PAUSED");
    expect(paused.questionNumber).toBe(1);
    expect(paused.remainingMs).toBeGreaterThan(8000);
    expect(paused.remainingMs).toBeLessThanOrEqual(started.endsAt - started.serverNow - 300);
    expect(await host.next("QUESTION_PAUSED")).toEqual(paused);
    expect(await bob.next("QUESTION_PAUSED")).toEqual(paused);

    ann.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: 1 });
    expect(await ann.next("ERROR")).toEqual({ code: "PAUSED", key: "PAUSED", message: "The host has paused the question. Answer when it resumes." });
    await ann.expectNone("ANSWER_ACCEPTED");

    // A second pause is refused: a paused question is not running.
    host.send("PAUSE_QUESTION", { gameCode });
    expect((await host.next("ERROR")).code).toBe("NOTHING_TO_PAUSE");

    // A player who joins during the pause sees it paused, with the same time left.
    const cat = await connect();
    cat.send("JOIN_GAME", { gameCode, nickname: "Cat" });
    const catQuestion = await cat.next("QUESTION_STARTED");
    expect(catQuestion.pausedRemainingMs).toBe(paused.remainingMs);

    // Longer than the 10 s question would have run had the pause not held it, less what it had used.
    await sleep(1500);
    host.send("RESUME_QUESTION", { gameCode });
    const resumed = await ann.next("QUESTION_RESUMED");
    expect(resumed.remainingMs).toBe(paused.remainingMs);
    expect(resumed.endsAt).toBe(resumed.serverNow + paused.remainingMs);
    expect(resumed.endsAt - started.endsAt).toBeGreaterThanOrEqual(1500);
    await cat.next("QUESTION_RESUMED");

    ann.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: 1 });
    expect(await ann.next("ANSWER_ACCEPTED")).toEqual({ questionNumber: 1, answerIndex: 1 });

    host.send("RESUME_QUESTION", { gameCode });
    expect((await host.next("ERROR")).code).toBe("NOT_PAUSED");

    // Ann answered about 300 ms of running time in: her time leaves the 1.5 s pause out.
    const row = await server.db
      .selectFrom("answers")
      .innerJoin("games", "games.id", "answers.game_id")
      .select("answers.response_ms")
      .where("answers.player_id", "=", annId)
      .where("games.game_code", "=", gameCode)
      .executeTakeFirstOrThrow();
    expect(row.response_ms).toBeGreaterThanOrEqual(250);
    expect(row.response_ms).toBeLessThan(1500);
  });

  it("lets only the host pause and resume", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server);
    const host = await connect(server, hostClientId);
    await host.joinAsHost(gameCode);
    const ann = await connect();
    await ann.joinAsPlayer(gameCode, "Ann");
    const outsider = await connect();

    host.send("PAUSE_QUESTION", { gameCode });
    expect((await host.next("ERROR")).code).toBe("NOTHING_TO_PAUSE");
    host.send("START_GAME", { gameCode });
    await ann.next("QUESTION_STARTED");

    ann.send("PAUSE_QUESTION", { gameCode });
    expect(await ann.next("ERROR")).toEqual({ code: "NOT_HOST", key: "NOT_HOST_PAUSE", message: "Only the host can pause or resume the question." });
    outsider.send("PAUSE_QUESTION", { gameCode });
    expect((await outsider.next("ERROR")).code).toBe("NOT_JOINED");
    await host.expectNone("QUESTION_PAUSED");

    host.send("PAUSE_QUESTION", { gameCode });
    await ann.next("QUESTION_PAUSED");
    ann.send("RESUME_QUESTION", { gameCode });
    expect((await ann.next("ERROR")).code).toBe("NOT_HOST");
    await ann.expectNone("QUESTION_RESUMED");
  });

  it("Skip while paused closes the question and shows the results", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server);
    const host = await connect(server, hostClientId);
    await host.joinAsHost(gameCode);
    const ann = await connect();
    await ann.joinAsPlayer(gameCode, "Ann");
    host.send("START_GAME", { gameCode });
    await ann.next("QUESTION_STARTED");
    host.send("PAUSE_QUESTION", { gameCode });
    await ann.next("QUESTION_PAUSED");
    host.send("NEXT_QUESTION", { gameCode });
    expect((await ann.next("ANSWER_RESULTS")).questionNumber).toBe(1);
    // The results run their usual time (150 ms in these tests) and the game goes on.
    await ann.next("LEADERBOARD_UPDATE");
  });
});

describe("a paused question across a restart", () => {
  it("comes back paused with the same time left after a graceful stop", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-pause-"));
    const databasePath = path.join(dir, "quiz.sqlite");
    const first = await startTestServer({ databasePath });
    let second: TestServer | null = null;
    try {
      const { gameCode, hostClientId } = await createGameFixture(first, { timeLimit: 10 });
      const host = await connect(first, hostClientId);
      await host.joinAsHost(gameCode);
      const ann = await connect(first, "ann-pause-restart");
      await ann.joinAsPlayer(gameCode, "Ann");
      host.send("START_GAME", { gameCode });
      await ann.next("QUESTION_STARTED");
      host.send("PAUSE_QUESTION", { gameCode });
      const paused = await ann.next("QUESTION_PAUSED");
      await first.close();

      second = await startTestServer({ databasePath });
      await sleep(500);
      const annBack = await connect(second, "ann-pause-restart");
      annBack.send("JOIN_GAME", { gameCode, nickname: "Ann" });
      expect(await annBack.next("GAME_SNAPSHOT")).toMatchObject({ phase: "question", questionNumber: 1 });
      expect((await annBack.next("QUESTION_STARTED")).pausedRemainingMs).toBe(paused.remainingMs);
    } finally {
      await second?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
