import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CloseCode } from "#app/game/protocol";
import { TestClient, createGameFixture, startTestServer } from "./harness";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-restart-"));
const databasePath = path.join(dir, "quiz.sqlite");

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("a server restart", () => {
  it("keeps every acknowledged answer, and players rejoin with their ids and scores", async () => {
    const first = await startTestServer({ databasePath });
    const { gameCode, hostClientId } = await createGameFixture(first);
    const host = await TestClient.connect(first, hostClientId);
    await host.joinAsHost(gameCode);
    const ann = await TestClient.connect(first, "ann-restart");
    const bob = await TestClient.connect(first, "bob-restart");
    const annId = await ann.joinAsPlayer(gameCode, "Ann");
    const bobId = await bob.joinAsPlayer(gameCode, "Bob");
    host.send("START_GAME", { gameCode });
    await ann.next("QUESTION_STARTED");
    ann.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: 1 });
    await ann.next("ANSWER_ACCEPTED");
    bob.send("SUBMIT_ANSWER", { gameCode, playerId: bobId, answerIndex: 1 });
    await bob.next("ANSWER_ACCEPTED");
    const annScore = (await ann.next("ANSWER_RESULTS")).playerResults[0].score;
    await ann.next("LEADERBOARD_UPDATE");
    await ann.next("QUESTION_STARTED", (payload) => payload.questionNumber === 2);
    ann.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: 0 });
    await ann.next("ANSWER_ACCEPTED");

    // Stop while question 2 is open: sockets are told the server is restarting.
    await first.close();
    expect(await ann.close()).toBe(CloseCode.SERVER_RESTARTING);
    await Promise.all([host.close(), bob.close()]);

    const second = await startTestServer({ databasePath });
    try {
      const annBack = await TestClient.connect(second, "ann-restart");
      annBack.send("JOIN_GAME", { gameCode, nickname: "Ann" });
      expect(await annBack.next("PLAYER_JOINED")).toEqual({ player: { id: annId, nickname: "Ann" } });
      expect(await annBack.next("GAME_SNAPSHOT")).toMatchObject({ phase: "question", questionNumber: 2, playerCount: 2 });
      expect((await annBack.next("QUESTION_STARTED")).questionNumber).toBe(2);
      // The answer acknowledged before the restart still counts: a second one is refused.
      expect(await annBack.next("ANSWER_ACCEPTED")).toEqual({ questionNumber: 2, answerIndex: 0 });
      annBack.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: 2 });
      expect((await annBack.next("ERROR")).message).toBe("Answer already submitted");

      const hostBack = await TestClient.connect(second, hostClientId);
      await hostBack.joinAsHost(gameCode);
      hostBack.send("NEXT_QUESTION", { gameCode });
      const result = (await annBack.next("ANSWER_RESULTS")).playerResults[0];
      expect(result).toMatchObject({ playerId: annId, answerIndex: 0, correct: true, streak: 2 });
      expect(result.score).toBe(annScore + result.points);
      // A new player after the restart gets a fresh id, not one already used.
      const carol = await TestClient.connect(second);
      const carolId = await carol.joinAsPlayer(gameCode, "Carol");
      expect([annId, bobId]).not.toContain(carolId);
      await Promise.all([annBack.close(), hostBack.close(), carol.close()]);
    } finally {
      await second.stop();
    }
  });
});
