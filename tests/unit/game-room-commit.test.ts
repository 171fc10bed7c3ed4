/**
 * The promise behind 'Answer submitted!': a room does not tell a player its answer was accepted
 * until the group commit holding it is stored, however often the commit fails first.
 */
import { describe, expect, it } from "vitest";
import type { GameRow } from "#db/schema";
import type { GameWriteBatch, LoadedGame } from "#app/models/game.server";
import { GameRoom, type Connection } from "#server/game-room";

function loadedGame(): LoadedGame {
  const game: GameRow = {
    id: 1,
    quiz_id: 1,
    host_id: null,
    game_code: "ROOM42",
    status: "waiting",
    host_client_id: "host",
    phase: "lobby",
    question_index: -1,
    question_started_at: null,
    round: 0,
    locked: 0,
    created_at: 0,
    started_at: null,
    ended_at: null,
  };
  return {
    game,
    title: "Commit test",
    timeLimit: 20,
    questions: [{ id: 7, quizId: 1, text: "2 + 2?", answers: ["3", "4", "5", "6"], correctAnswerIndex: 1, order: 0 }],
    players: [],
    answers: [],
    kickedClientIds: [],
  };
}

function connection(clientId: string): Connection & { received: { type: string; payload: any }[] } {
  const received: { type: string; payload: any }[] = [];
  return { clientId, received, send: (...messages) => received.push(...messages.map((data) => JSON.parse(data.toString()))), close: () => {} };
}

const settle = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

describe("group commits", () => {
  it("hold back every message until the commit that carries it is stored, retrying a failing commit", async () => {
    let failuresLeft = 0;
    const stored: GameWriteBatch[] = [];
    const room = new GameRoom(
      loadedGame(),
      {
        async commit(batch) {
          if (failuresLeft > 0) {
            failuresLeft--;
            throw new Error("disk I/O error");
          }
          stored.push(batch);
        },
        getHostClientId: async () => "host",
      },
      { commitIntervalMs: 1 },
    );
    const host = connection("host");
    const ann = connection("ann");
    await room.joinAsHost(host);
    room.joinAsPlayer(ann, "Ann");
    await settle();
    room.start(host);
    await settle();
    const playerId = ann.received.find((message) => message.type === "PLAYER_JOINED")!.payload.player.id;

    failuresLeft = 3;
    room.answer(ann, playerId, 1);
    await settle(30);
    // The first attempts failed: nothing has told Ann her answer is in.
    expect(ann.received.some((message) => message.type === "ANSWER_ACCEPTED")).toBe(false);

    await expect.poll(() => ann.received.some((message) => message.type === "ANSWER_ACCEPTED"), { timeout: 3000 }).toBe(true);
    expect(failuresLeft).toBe(0);
    const answers = stored.flatMap((batch) => batch.answers);
    expect(answers).toEqual([expect.objectContaining({ player_id: playerId, answer_index: 1, correct: 1 })]);
    await room.dispose();
  });

  it("group answers for the commit interval but commit and announce a new phase at once", async () => {
    const stored: GameWriteBatch[] = [];
    const room = new GameRoom(
      loadedGame(),
      { commit: async (batch) => void stored.push(batch), getHostClientId: async () => "host" },
      { commitIntervalMs: 400 },
    );
    const host = connection("host");
    const ann = connection("ann");
    await room.joinAsHost(host);
    room.joinAsPlayer(ann, "Ann");
    await expect.poll(() => ann.received.some((message) => message.type === "PLAYER_JOINED"), { timeout: 2000 }).toBe(true);

    room.start(host);
    await settle(50);
    // Well inside the 400 ms interval: the question is stored and out.
    expect(stored.at(-1)?.progress).toEqual(expect.objectContaining({ phase: "question", questionIndex: 0 }));
    expect(ann.received.some((message) => message.type === "QUESTION_STARTED")).toBe(true);

    // An answer that does not close the question waits for its group: Gus, still to answer, keeps it open.
    const playerId = ann.received.find((message) => message.type === "PLAYER_JOINED")!.payload.player.id;
    const guest = connection("guest");
    room.joinAsPlayer(guest, "Gus");
    await expect.poll(() => guest.received.some((message) => message.type === "PLAYER_JOINED"), { timeout: 2000 }).toBe(true);
    const commitsBefore = stored.length;
    room.answer(ann, playerId, 1);
    await settle(50);
    expect(stored.length).toBe(commitsBefore);
    expect(ann.received.some((message) => message.type === "ANSWER_ACCEPTED")).toBe(false);
    await expect.poll(() => ann.received.some((message) => message.type === "ANSWER_ACCEPTED"), { timeout: 2000 }).toBe(true);
    await room.dispose();
  });

  it("hand a connection all its messages of one flush in one call, in order", async () => {
    const room = new GameRoom(loadedGame(), { commit: async () => {}, getHostClientId: async () => "host" }, { commitIntervalMs: 1 });
    const host = connection("host");
    const calls: string[][] = [];
    const ann: Connection = {
      clientId: "ann",
      send: (...messages) => void calls.push(messages.map((data) => JSON.parse(data.toString()).type)),
      close: () => {},
    };
    await room.joinAsHost(host);
    room.joinAsPlayer(ann, "Ann");
    await settle();
    calls.length = 0;
    room.start(host);
    await settle();
    expect(calls[0]).toEqual(["GAME_STARTED", "QUESTION_STARTED"]);
    await room.dispose();
  });

  it("time each player from when the question was written to its socket", async () => {
    let clock = 1_000_000;
    const stored: GameWriteBatch[] = [];
    const room = new GameRoom(
      loadedGame(),
      { commit: async (batch) => void stored.push(batch), getHostClientId: async () => "host" },
      { commitIntervalMs: 1, now: () => clock },
    );
    const host = connection("host");
    const ann = connection("ann");
    await room.joinAsHost(host);
    room.joinAsPlayer(ann, "Ann");
    await settle();
    room.start(host);
    // The broadcast goes out 300 ms after the question opened (a long send loop, say).
    clock += 300;
    await settle();
    expect(ann.received.some((message) => message.type === "QUESTION_STARTED")).toBe(true);
    const playerId = ann.received.find((message) => message.type === "PLAYER_JOINED")!.payload.player.id;
    clock += 1000;
    room.answer(ann, playerId, 1);
    await expect.poll(() => stored.flatMap((batch) => batch.answers).length, { timeout: 2000 }).toBe(1);
    expect(stored.flatMap((batch) => batch.answers)[0]).toMatchObject({ response_ms: 1000, points: 975 });
    await room.dispose();
  });
});
