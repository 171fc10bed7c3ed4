import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SAMPLE_QUESTIONS, TestClient, createGameFixture, startTestServer, type TestServer } from "./harness";

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

async function connect(clientId?: string): Promise<TestClient> {
  const client = await TestClient.connect(server, clientId);
  clients.push(client);
  return client;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a whole game over the real protocol", () => {
  it("plays from the lobby to GAME_OVER with server-measured, speed-based scores", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server);
    const host = await connect(hostClientId);
    const lobby = await host.joinAsHost(gameCode);
    expect(lobby).toMatchObject({ gameCode, role: "host", phase: "lobby", playerCount: 0, totalQuestions: 3, timeLimit: 30 });

    const [ann, bob, cat] = await Promise.all([connect(), connect(), connect()]);
    const annId = await ann.joinAsPlayer(gameCode, "Ann");
    const bobId = await bob.joinAsPlayer(gameCode.toLowerCase(), "  Bob ");
    const catId = await cat.joinAsPlayer(gameCode, "Cat");
    expect(new Set([annId, bobId, catId]).size).toBe(3);

    // The host hears of every player; players see the lobby through batched updates.
    for (const [id, nickname] of [
      [annId, "Ann"],
      [bobId, "Bob"],
      [catId, "Cat"],
    ] as const) {
      expect(await host.next("PLAYER_JOINED", (payload) => payload.player.id === id)).toEqual({ player: { id, nickname } });
    }
    const update = await ann.next("LOBBY_UPDATE", (payload) => payload.playerCount === 3, 3000);
    expect(update.players.map((player) => player.nickname)).toEqual(["Ann", "Bob", "Cat"]);
    expect(ann.all("PLAYER_JOINED").map((payload) => payload.player.id)).toEqual([annId]);

    // Host-only start.
    ann.send("START_GAME", { gameCode });
    expect(await ann.next("ERROR")).toMatchObject({ message: "Only the host can start the game." });
    host.send("START_GAME", { gameCode });
    for (const client of [host, ann, bob, cat]) expect(await client.next("GAME_STARTED")).toEqual({ questionCount: 3 });

    const players = [ann, bob, cat];
    const ids = [annId, bobId, catId];
    const totals = [0, 0, 0];
    for (let round = 0; round < 3; round++) {
      const started = await ann.next("QUESTION_STARTED");
      expect(started).toMatchObject({
        question: { text: SAMPLE_QUESTIONS[round].text, answers: SAMPLE_QUESTIONS[round].answers },
        questionNumber: round + 1,
        totalQuestions: 3,
        timeLimit: 30,
      });
      expect(JSON.stringify(started)).not.toContain("correct");
      expect(started.endsAt - started.serverNow).toBeGreaterThan(29_000);
      for (const client of [host, bob, cat]) await client.next("QUESTION_STARTED", (payload) => payload.questionNumber === round + 1);

      const correct = SAMPLE_QUESTIONS[round].correctAnswerIndex;
      const wrong = (correct + 1) % 4;
      // Ann answers first and right, Bob later and right (with a client time that must be ignored), Cat wrong.
      ann.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: correct, time: 29 });
      expect(await ann.next("ANSWER_ACCEPTED")).toEqual({ questionNumber: round + 1, answerIndex: correct });
      await sleep(700);
      bob.send("SUBMIT_ANSWER", { gameCode, playerId: bobId, answerIndex: correct, time: 0 });
      expect(await bob.next("ANSWER_ACCEPTED")).toEqual({ questionNumber: round + 1, answerIndex: correct });

      if (round === 0) {
        ann.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: wrong, time: 1 });
        expect(await ann.next("ERROR")).toMatchObject({ message: "Answer already submitted" });
        host.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: correct, time: 1 });
        expect((await host.next("ERROR")).message).toBe("The host cannot answer questions.");
        bob.send("SUBMIT_ANSWER", { gameCode, playerId: catId, answerIndex: correct, time: 1 });
        expect((await bob.next("ERROR")).message).toBe("You can only answer for your own player.");
        const progress = await host.next("ANSWER_PROGRESS", (payload) => payload.answeredCount === 2);
        expect(progress).toEqual({ questionNumber: 1, answeredCount: 2, playerCount: 3, answerCounts: expect.any(Array) });
        expect(progress.answerCounts[correct]).toBe(2);
      }

      cat.send("SUBMIT_ANSWER", { gameCode, playerId: catId, answerIndex: wrong, time: 3 });
      await cat.next("ANSWER_ACCEPTED");

      // Everyone answered: the question closes at once. Each player sees only its own result.
      const results = await Promise.all(players.map((client) => client.next("ANSWER_RESULTS")));
      results.forEach((result, index) => {
        expect(result.correctAnswerIndex).toBe(correct);
        expect(result.questionNumber).toBe(round + 1);
        expect(result.playerResults).toHaveLength(1);
        expect(result.playerResults[0].playerId).toBe(ids[index]);
      });
      const [annResult, bobResult, catResult] = results.map((result) => result.playerResults[0]);
      expect(annResult).toMatchObject({ nickname: "Ann", answerIndex: correct, correct: true, streak: round + 1, rank: 1 });
      expect(bobResult).toMatchObject({ nickname: "Bob", answerIndex: correct, correct: true, streak: round + 1, rank: 2 });
      expect(catResult).toMatchObject({ nickname: "Cat", answerIndex: wrong, correct: false, points: 0, streak: 0, rank: 3 });
      expect(annResult.points).toBeGreaterThan(bobResult.points);
      expect(bobResult.responseTimeMs!).toBeGreaterThanOrEqual(600);
      expect(annResult.responseTimeMs!).toBeLessThan(bobResult.responseTimeMs!);
      expect(annResult.points).toBeGreaterThanOrEqual(500 + Math.min(100 * round, 500));
      results[0].answerCounts.forEach((count, index) => expect(count).toBe(index === correct ? 2 : index === wrong ? 1 : 0));
      totals[0] += annResult.points;
      totals[1] += bobResult.points;
      totals[2] += catResult.points;
      expect([annResult.score, bobResult.score, catResult.score]).toEqual(totals);

      const hostResults = await host.next("ANSWER_RESULTS");
      expect(hostResults.playerResults.map((entry) => entry.playerId)).toEqual([annId, bobId, catId]);

      // About resultsDelayMs later the leaderboard: the top 10 plus each player's own standing.
      const boards = await Promise.all(players.map((client) => client.next("LEADERBOARD_UPDATE")));
      for (const [index, board] of boards.entries()) {
        expect(board).toMatchObject({ isLastLeaderboard: round === 2, nextQuestionIn: 1, questionNumber: round + 1, totalQuestions: 3 });
        expect(board.players.map((entry) => entry.nickname)).toEqual(["Ann", "Bob", "Cat"]);
        expect(board.you).toEqual({ rank: index + 1, score: totals[index] });
      }
      const hostBoard = await host.next("LEADERBOARD_UPDATE");
      expect(hostBoard.you).toBeUndefined();
    }

    const over = await Promise.all(players.map((client) => client.next("GAME_OVER")));
    expect(over[0].players).toEqual([
      { rank: 1, id: annId, nickname: "Ann", score: totals[0] },
      { rank: 2, id: bobId, nickname: "Bob", score: totals[1] },
      { rank: 3, id: catId, nickname: "Cat", score: 0 },
    ]);
    expect(over[2].you).toEqual({ rank: 3, score: 0 });
    await host.next("GAME_OVER");

    // The database holds what the players were told.
    const standings = await server.api(`/api/games/${gameCode}/results`, { clientId: hostClientId });
    expect(standings.status).toBe(200);
    expect(standings.body.status).toBe("finished");
    expect(standings.body.players).toEqual([
      { rank: 1, id: annId, nickname: "Ann", score: totals[0], correctCount: 3, answeredCount: 3 },
      { rank: 2, id: bobId, nickname: "Bob", score: totals[1], correctCount: 3, answeredCount: 3 },
      { rank: 3, id: catId, nickname: "Cat", score: 0, correctCount: 0, answeredCount: 3 },
    ]);
    const sums = await server.db
      .selectFrom("answers")
      .select(["player_id", (eb) => eb.fn.sum<number>("points").as("total"), (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy("player_id")
      .orderBy("player_id")
      .execute();
    expect(sums.map((row) => [row.player_id, Number(row.total), Number(row.n)])).toEqual([
      [annId, totals[0], 3],
      [bobId, totals[1], 3],
      [catId, 0, 3],
    ]);
    expect((await server.api(`/api/games/${gameCode}/results`, { clientId: ann.clientId })).status).toBe(403);
  });

  it("closes a question when its time is up and moves on by itself", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server, { timeLimit: 5, questions: SAMPLE_QUESTIONS.slice(0, 1) });
    const host = await connect(hostClientId);
    await host.joinAsHost(gameCode);
    const [ann, bob] = await Promise.all([connect(), connect()]);
    const annId = await ann.joinAsPlayer(gameCode, "Ann");
    await bob.joinAsPlayer(gameCode, "Bob");
    host.send("START_GAME", { gameCode });
    const question = await bob.next("QUESTION_STARTED");
    ann.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: 1 });
    await ann.next("ANSWER_ACCEPTED");
    const results = await bob.next("ANSWER_RESULTS", undefined, 8000);
    expect(Date.now()).toBeGreaterThanOrEqual(question.endsAt - 50);
    expect(results.playerResults[0]).toMatchObject({ nickname: "Bob", answerIndex: null, correct: false, points: 0, responseTimeMs: null });
    const board = await bob.next("LEADERBOARD_UPDATE");
    expect(board.isLastLeaderboard).toBe(true);
    await bob.next("GAME_OVER", undefined, 3000);

    bob.send("SUBMIT_ANSWER", { gameCode, playerId: 2, answerIndex: 1 });
    expect((await bob.next("ERROR")).message).toBe("This question is closed.");
  });

  it("lets the host skip and advance with NEXT_QUESTION", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server, { questions: SAMPLE_QUESTIONS.slice(0, 2) });
    const host = await connect(hostClientId);
    await host.joinAsHost(gameCode);
    const ann = await connect();
    await ann.joinAsPlayer(gameCode, "Ann");
    host.send("START_GAME", { gameCode });
    await ann.next("QUESTION_STARTED");
    ann.send("NEXT_QUESTION", { gameCode });
    expect((await ann.next("ERROR")).message).toBe("Only the host can move to the next question.");
    host.send("NEXT_QUESTION", { gameCode }); // skip: closes the open question
    await ann.next("ANSWER_RESULTS");
    host.send("NEXT_QUESTION", { gameCode }); // results -> leaderboard
    expect((await ann.next("LEADERBOARD_UPDATE")).isLastLeaderboard).toBe(false);
    host.send("NEXT_QUESTION", { gameCode }); // leaderboard -> question 2, without waiting
    expect((await ann.next("QUESTION_STARTED", undefined, 500)).questionNumber).toBe(2);
    host.send("NEXT_QUESTION", { gameCode });
    await ann.next("ANSWER_RESULTS");
    host.send("NEXT_QUESTION", { gameCode });
    expect((await ann.next("LEADERBOARD_UPDATE")).isLastLeaderboard).toBe(true);
    host.send("NEXT_QUESTION", { gameCode });
    await ann.next("GAME_OVER", undefined, 500);
  });

  it("plays again with the same players from a fresh lobby", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server, { questions: SAMPLE_QUESTIONS.slice(0, 1) });
    const host = await connect(hostClientId);
    await host.joinAsHost(gameCode);
    const ann = await connect();
    const annId = await ann.joinAsPlayer(gameCode, "Ann");
    const round = async () => {
      host.send("START_GAME", { gameCode });
      await ann.next("QUESTION_STARTED");
      ann.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: 1 });
      await ann.next("ANSWER_ACCEPTED");
      const result = (await ann.next("ANSWER_RESULTS")).playerResults[0];
      host.send("NEXT_QUESTION", { gameCode });
      host.send("NEXT_QUESTION", { gameCode });
      expect((await ann.next("GAME_OVER")).you?.score).toBe(result.score);
      return result;
    };
    ann.send("PLAY_AGAIN", { gameCode });
    expect((await ann.next("ERROR")).message).toBe("Only the host can start another round.");
    const first = await round();
    host.send("PLAY_AGAIN", { gameCode });
    expect(await ann.next("GAME_SNAPSHOT")).toMatchObject({
      phase: "lobby",
      role: "player",
      playerId: annId,
      playerCount: 1,
      // A player's list is the lobby's names alone; its own id is `playerId` (issue 17).
      players: [{ nickname: "Ann" }],
    });
    expect(await host.next("GAME_SNAPSHOT", (payload) => payload.phase === "lobby")).toMatchObject({
      role: "host",
      playerCount: 1,
      players: [{ id: annId, nickname: "Ann" }],
    });
    const sessions = await server.api("/api/game-sessions");
    expect(sessions.body.find((session: any) => session.gameCode === gameCode)?.status).toBe("waiting");
    const second = await round();
    expect(second.score).toBe(second.points);
    expect(first.score).toBe(first.points);
    const results = await server.api(`/api/games/${gameCode}/results`, { clientId: hostClientId });
    expect(results.body.players[0]).toMatchObject({ id: annId, score: second.score, answeredCount: 1 });
  });
});

describe("host rules", () => {
  it("refuses to start without players", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server);
    const host = await connect(hostClientId);
    await host.joinAsHost(gameCode);
    host.send("START_GAME", { gameCode });
    expect(await host.next("ERROR")).toMatchObject({ message: "Wait for players to join before starting the game." });
  });

  it("reports a quiz without questions and stays in the lobby", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server, { questions: [] });
    const host = await connect(hostClientId);
    await host.joinAsHost(gameCode);
    const ann = await connect();
    await ann.joinAsPlayer(gameCode, "Ann");
    host.send("START_GAME", { gameCode });
    expect(await host.next("GAME_STARTED")).toEqual({ questionCount: 0 });
    expect(await ann.next("GAME_STARTED")).toEqual({ questionCount: 0 });
    await ann.expectNone("QUESTION_STARTED", 300);
    const late = await connect();
    await late.joinAsPlayer(gameCode, "Late");
    expect(late.all("GAME_SNAPSHOT")[0].phase).toBe("lobby");
  });

  it("refuses __HOST__ from a client that is not the registered host", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server);
    const impostor = await connect("impostor-client");
    impostor.send("JOIN_GAME", { gameCode, nickname: "__HOST__" });
    expect((await impostor.next("ERROR")).message).toBe("Only the host of this game can join as host.");
    impostor.send("START_GAME", { gameCode });
    expect((await impostor.next("ERROR")).message).toBe("Only the host can start the game.");
    // The real host is unaffected, and nobody joined as a player called __HOST__.
    const host = await connect(hostClientId);
    const snapshot = await host.joinAsHost(gameCode);
    expect(snapshot.playerCount).toBe(0);
  });

  it("tells a host that joins late about every player already there", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server);
    const [ann, bob] = await Promise.all([connect(), connect()]);
    const annId = await ann.joinAsPlayer(gameCode, "Ann");
    const bobId = await bob.joinAsPlayer(gameCode, "Bob");
    const host = await connect(hostClientId);
    const snapshot = await host.joinAsHost(gameCode);
    expect(snapshot.players).toEqual([
      { id: annId, nickname: "Ann" },
      { id: bobId, nickname: "Bob" },
    ]);
    expect(await host.next("PLAYER_JOINED")).toEqual({ player: { id: annId, nickname: "Ann" } });
    expect(await host.next("PLAYER_JOINED")).toEqual({ player: { id: bobId, nickname: "Bob" } });
  });

  it("answers an unknown game code with ERROR", async () => {
    const client = await connect();
    client.send("JOIN_GAME", { gameCode: "ZZZZZZ", nickname: "Ann" });
    expect((await client.next("ERROR")).message).toBe("Game not found. Check the code and try again.");
  });
});

describe("joining", () => {
  it("refuses a nickname already taken, ignoring case", async () => {
    const { gameCode } = await createGameFixture(server);
    const [ann, other] = await Promise.all([connect(), connect()]);
    await ann.joinAsPlayer(gameCode, "Ann");
    other.send("JOIN_GAME", { gameCode, nickname: "aNN" });
    expect(await other.next("ERROR")).toMatchObject({ message: "Nickname already taken" });
    other.send("JOIN_GAME", { gameCode, nickname: "x".repeat(16) });
    expect((await other.next("ERROR")).message).toBe("Nickname must be at most 15 characters.");
    other.send("JOIN_GAME", { gameCode, nickname: "   " });
    expect((await other.next("ERROR")).message).toBe("Enter a nickname.");
  });

  it("gives a player its id, score and the current question back after a dropped socket", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server);
    const host = await connect(hostClientId);
    await host.joinAsHost(gameCode);
    const ann = await connect("ann-phone");
    const annId = await ann.joinAsPlayer(gameCode, "Ann");
    const bob = await connect();
    await bob.joinAsPlayer(gameCode, "Bob");
    host.send("START_GAME", { gameCode });
    await ann.next("QUESTION_STARTED");
    ann.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: 1 });
    await ann.next("ANSWER_ACCEPTED");
    host.send("NEXT_QUESTION", { gameCode });
    const before = (await ann.next("ANSWER_RESULTS")).playerResults[0];
    expect(before.score).toBeGreaterThan(0);
    host.send("NEXT_QUESTION", { gameCode });
    host.send("NEXT_QUESTION", { gameCode });
    await ann.next("QUESTION_STARTED", (payload) => payload.questionNumber === 2);

    await ann.terminate();
    const back = await connect("ann-phone");
    back.send("JOIN_GAME", { gameCode, nickname: "Ann" });
    expect(await back.next("PLAYER_JOINED")).toEqual({ player: { id: annId, nickname: "Ann" } });
    const snapshot = await back.next("GAME_SNAPSHOT");
    expect(snapshot).toMatchObject({ role: "player", playerId: annId, phase: "question", questionNumber: 2, playerCount: 2 });
    const question = await back.next("QUESTION_STARTED");
    expect(question.questionNumber).toBe(2);
    expect(question.endsAt - question.serverNow).toBeLessThanOrEqual(30_000);
    await sleep(150);
    expect(host.all("PLAYER_JOINED").filter((payload) => payload.player.id === annId)).toHaveLength(1);

    back.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: 0 });
    await back.next("ANSWER_ACCEPTED");
    host.send("NEXT_QUESTION", { gameCode });
    const after = (await back.next("ANSWER_RESULTS")).playerResults[0];
    expect(after.playerId).toBe(annId);
    expect(after.score).toBe(before.score + after.points);
    const results = await server.api(`/api/games/${gameCode}/results`, { clientId: hostClientId });
    expect(results.body.players).toHaveLength(2);
  });

  it("replays the open results with their question to a player who rejoins then", async () => {
    const slow = await startTestServer({ game: { settings: { resultsDelayMs: 10_000 } } });
    try {
      const { gameCode, hostClientId } = await createGameFixture(slow);
      const host = await TestClient.connect(slow, hostClientId);
      await host.joinAsHost(gameCode);
      const ann = await TestClient.connect(slow, "ann-results");
      const annId = await ann.joinAsPlayer(gameCode, "Ann");
      host.send("START_GAME", { gameCode });
      await ann.next("QUESTION_STARTED");
      ann.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: 0 });
      await ann.next("ANSWER_RESULTS");
      await ann.terminate();
      const back = await TestClient.connect(slow, "ann-results");
      back.send("JOIN_GAME", { gameCode, nickname: "Ann" });
      expect((await back.next("GAME_SNAPSHOT")).phase).toBe("results");
      const replay = await back.next("ANSWER_RESULTS");
      expect(replay.question).toMatchObject({ id: expect.any(Number), kind: "choice", text: SAMPLE_QUESTIONS[0].text, answers: SAMPLE_QUESTIONS[0].answers });
      expect(replay.playerResults).toEqual([expect.objectContaining({ playerId: annId, answerIndex: 0, correct: false })]);
      await Promise.all([host.close(), back.close()]);
    } finally {
      await slow.stop();
    }
  });

  it("keeps a dropped lobby player for the grace period, then reports PLAYER_LEFT", async () => {
    const graceServer = await startTestServer({ game: { settings: { lobbyGraceMs: 300 } } });
    try {
      const { gameCode, hostClientId } = await createGameFixture(graceServer);
      const host = await TestClient.connect(graceServer, hostClientId);
      await host.joinAsHost(gameCode);
      const ann = await TestClient.connect(graceServer, "ann");
      const annId = await ann.joinAsPlayer(gameCode, "Ann");
      const bob = await TestClient.connect(graceServer);
      await bob.joinAsPlayer(gameCode, "Bob");
      await ann.terminate();
      await host.expectNone("PLAYER_LEFT", 100);
      expect(await host.next("PLAYER_LEFT", undefined, 2000)).toEqual({ playerId: annId });
      expect((await bob.next("LOBBY_UPDATE", (payload) => payload.playerCount === 1, 3000)).players.map((p) => p.nickname)).toEqual(["Bob"]);
      // The nickname is free again.
      const carol = await TestClient.connect(graceServer);
      await carol.joinAsPlayer(gameCode, "Ann");
      await Promise.all([host.close(), bob.close(), carol.close()]);
    } finally {
      await graceServer.stop();
    }
  });

  it("hands a player to its newest connection and closes the old one", async () => {
    const { gameCode } = await createGameFixture(server);
    const first = await connect("same-device");
    const id = await first.joinAsPlayer(gameCode, "Ann");
    const second = await connect("same-device");
    expect(await second.joinAsPlayer(gameCode, "Ann")).toBe(id);
    await first.close();
    expect(first.closeCode).toBe(4001);
  });
});

describe("transport hygiene", () => {
  it("answers malformed frames with ERROR and keeps the game going", async () => {
    const { gameCode } = await createGameFixture(server);
    const client = await connect();
    for (const frame of [
      "not json",
      "null",
      "[]",
      '{"type":"NOPE","payload":{}}',
      '{"type":"JOIN_GAME"}',
      '{"type":"SUBMIT_ANSWER","payload":{"answerIndex":9}}',
    ]) {
      client.sendRaw(frame);
      const error = await client.next("ERROR");
      expect(error.message.length).toBeGreaterThan(3);
    }
    client.send("START_GAME", { gameCode });
    expect((await client.next("ERROR")).message).toBe("Join the game first.");
    expect(await client.joinAsPlayer(gameCode, "Still fine")).toEqual(expect.any(Number));
  });

  it("closes a socket that sends a frame over 16 KiB", async () => {
    const client = await connect();
    client.sendRaw(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode: "ABCDEF", nickname: "x".repeat(17_000) } }));
    expect(await client.close()).toBe(1009);
  });

  it("refuses a browser's foreign Origin unless allowlisted", async () => {
    const url = `${server.url.replace("http", "ws")}/ws?clientId=origin-test`;
    const refused = new WebSocket(url, { headers: { Origin: "https://evil.example" } });
    const status = await new Promise<number>((resolve) => refused.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(403);
    for (const origin of ["https://allowed.example", server.url]) {
      const allowed = new WebSocket(url, { headers: { Origin: origin } });
      await new Promise<void>((resolve, reject) => {
        allowed.once("open", () => resolve());
        allowed.once("error", reject);
      });
      allowed.close();
    }
  });

  it("terminates a socket that stops answering the heartbeat", async () => {
    const quick = await startTestServer({ heartbeatIntervalMs: 100 });
    try {
      const healthy = await TestClient.connect(quick);
      const silent = await TestClient.connect(quick);
      // A paused TCP stream reads no pings, so it sends no pongs: a phone that went to sleep.
      (silent.socket as unknown as { _socket: import("node:net").Socket })._socket.pause();
      await sleep(500);
      (silent.socket as unknown as { _socket: import("node:net").Socket })._socket.resume();
      expect(await silent.close()).toBe(1006);
      expect(healthy.closeCode).toBeNull();
      await healthy.close();
    } finally {
      await quick.stop();
    }
  });

  it("handles upgrades only on /ws", async () => {
    const other = new WebSocket(`${server.url.replace("http", "ws")}/not-ws`);
    const status = await new Promise<number>((resolve) => other.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(404);
  });

  it("never sends O(players) data to every player: lobby updates carry at most 50 names", async () => {
    const { gameCode, hostClientId } = await createGameFixture(server);
    const host = await connect(hostClientId);
    await host.joinAsHost(gameCode);
    const crowd = await Promise.all(Array.from({ length: 60 }, () => connect()));
    await Promise.all(crowd.map((client, index) => client.joinAsPlayer(gameCode, `P${index}`)));
    const update = await crowd[0].next("LOBBY_UPDATE", (payload) => payload.playerCount === 60, 3000);
    expect(update.players).toHaveLength(50);
    // Joins are batched into about one update a second, not one per join.
    expect(crowd[0].all("LOBBY_UPDATE").length).toBeLessThanOrEqual(3);
    for (let index = 0; index < 60; index++) await host.next("PLAYER_JOINED", (payload) => payload.player.nickname === `P${index}`);
    expect(host.all("PLAYER_JOINED")).toHaveLength(60);
  });
});
