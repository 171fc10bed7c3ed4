/**
 * The promise behind 'Answer submitted!': a room does not tell a player its answer was accepted
 * until the group commit holding it is stored, however often the commit fails first.
 */
import { describe, expect, it } from "vitest";
import type { GameWriteBatch } from "#app/models/game-batch.server";
import { DeliverySlot, GameRoom, type Connection, type RoomOptions } from "#server/game-room";
import { loadedGame } from "./loaded-game";
import { recordingConnection } from "./recording-connection";

const connection = recordingConnection;

const settle = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

/** A room whose store keeps every committed batch. */
function recordingRoom(options: RoomOptions) {
  const stored: GameWriteBatch[] = [];
  const room = new GameRoom(
    loadedGame(),
    { commit: async (batch) => (stored.push(batch), "stored" as const), isHost: async ({ clientId }) => clientId === "host" },
    options,
  );
  return { room, stored, storedAnswers: () => stored.flatMap((batch) => batch.answers) };
}

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
          return "stored";
        },
        isHost: async ({ clientId }) => clientId === "host",
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
    room.answer(ann, playerId, { answerIndex: 1 });
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
    const { room, stored } = recordingRoom({ commitIntervalMs: 400 });
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
    room.answer(ann, playerId, { answerIndex: 1 });
    await settle(50);
    expect(stored.length).toBe(commitsBefore);
    expect(ann.received.some((message) => message.type === "ANSWER_ACCEPTED")).toBe(false);
    await expect.poll(() => ann.received.some((message) => message.type === "ANSWER_ACCEPTED"), { timeout: 2000 }).toBe(true);
    await room.dispose();
  });

  it("store a pause and a resume at once, before anyone hears of them, without moving the game's start", async () => {
    let clock = 1_000_000;
    const { room, stored } = recordingRoom({ commitIntervalMs: 400, now: () => clock });
    const host = connection("host");
    const ann = connection("ann");
    await room.joinAsHost(host);
    room.joinAsPlayer(ann, "Ann");
    await expect.poll(() => ann.received.some((message) => message.type === "PLAYER_JOINED"), { timeout: 2000 }).toBe(true);
    room.start(host);
    await expect.poll(() => ann.received.some((message) => message.type === "QUESTION_STARTED"), { timeout: 2000 }).toBe(true);
    const startedAt = stored.find((batch) => batch.progress?.startedAt !== undefined)!.progress!.startedAt;

    clock += 4000;
    room.pause(host);
    await settle(50);
    const paused = stored.at(-1)!.progress!;
    expect(paused).toMatchObject({ phase: "question", questionPauses: [[1_004_000, null]] });
    expect(paused.startedAt).toBeUndefined();
    expect(startedAt).toBe(1_000_000);
    expect(ann.received.at(-1)).toEqual({ type: "QUESTION_PAUSED", payload: { questionNumber: 1, remainingMs: 16_000 } });

    clock += 10_000;
    room.resume(host);
    await settle(50);
    expect(stored.at(-1)!.progress).toMatchObject({ questionPauses: [[1_004_000, 1_014_000]] });
    expect(ann.received.at(-1)).toMatchObject({ type: "QUESTION_RESUMED", payload: { remainingMs: 16_000, endsAt: 1_030_000 } });
    await room.dispose();
  });

  it("hand a connection all its messages of one flush in one call, in order", async () => {
    const { room } = recordingRoom({ commitIntervalMs: 1 });
    const host = connection("host");
    const calls: string[][] = [];
    const ann: Connection = {
      clientId: "ann",
      slot: new DeliverySlot(),
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
    const { room, storedAnswers } = recordingRoom({ commitIntervalMs: 1, now: () => clock });
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
    room.answer(ann, playerId, { answerIndex: 1 });
    await expect.poll(() => storedAnswers().length, { timeout: 2000 }).toBe(1);
    expect(storedAnswers()[0]).toMatchObject({ response_ms: 1000, points: 975 });
    await room.dispose();
  });

  it("deliver a large broadcast in slices: answers that arrive meanwhile are stored and acknowledged before it ends, in order per player", async () => {
    const { room, storedAnswers } = recordingRoom({ commitIntervalMs: 1, settings: { maxPlayers: 5000 } });
    const log: { to: string; type: string }[] = [];
    const closed: string[] = [];
    const playerIds = new Map<string, number>();
    const player = (clientId: string): Connection => ({
      clientId,
      slot: new DeliverySlot(),
      send: (...messages) => {
        for (const data of messages) {
          const message = JSON.parse(data.toString());
          log.push({ to: clientId, type: message.type });
          if (message.type === "PLAYER_JOINED" && !playerIds.has(clientId)) playerIds.set(clientId, message.payload.player.id);
          if (message.type === "QUESTION_STARTED" && clientId === "p1") {
            // The first player answers at once, while the question is still going out to the others;
            // the host removes a player who has not had it yet.
            setImmediate(() => {
              room.answer(first, playerIds.get("p1")!, { answerIndex: 1 });
              room.kick(host, playerIds.get("p2500")!);
            });
          }
        }
      },
      close: () => void closed.push(clientId),
    });
    const host = connection("host");
    await room.joinAsHost(host);
    const players = Array.from({ length: 2600 }, (_, index) => player(`p${index + 1}`));
    const first = players[0];
    players.forEach((connection, index) => room.joinAsPlayer(connection, `Player ${index + 1}`));
    await expect.poll(() => playerIds.size, { timeout: 5000 }).toBe(2600);

    log.length = 0;
    room.start(host);
    await expect.poll(() => log.filter((entry) => entry.type === "QUESTION_STARTED").length, { timeout: 5000 }).toBe(2600);

    const at = (to: string, type: string) => log.findIndex((entry) => entry.to === to && entry.type === type);
    // Stored and acknowledged before the last player had the question.
    expect(at("p1", "ANSWER_ACCEPTED")).toBeGreaterThan(at("p1", "QUESTION_STARTED"));
    expect(at("p1", "ANSWER_ACCEPTED")).toBeLessThan(at("p2600", "QUESTION_STARTED"));
    expect(storedAnswers()).toEqual([expect.objectContaining({ player_id: playerIds.get("p1"), answer_index: 1 })]);
    // The removed player was still waiting: it hears of its removal after the question, then is closed.
    expect(at("p2500", "QUESTION_STARTED")).toBeGreaterThan(-1);
    expect(at("p2500", "ERROR")).toBeGreaterThan(at("p2500", "QUESTION_STARTED"));
    expect(closed).toEqual(["p2500"]);
    await room.dispose();
  });
});
