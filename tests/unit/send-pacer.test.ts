/**
 * The slice of socket writes all games share (issue 18): when many games deliver at the same moment,
 * the event loop gets a turn after every slice of writes, whichever games made them, so the answers
 * arriving meanwhile are read and timed instead of waiting for every game's delivery.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CommitClock } from "#server/commit-clock";
import { DeliverySlot, GameRoom, type Connection } from "#server/game-room";
import { SendPacer } from "#server/send-pacer";
import { loadedGame } from "./loaded-game";

/** Every socket write ("w") and every turn of the event loop ("|"), in the order they happened. */
const timeline: string[] = [];
let ticking = false;
function tick(): void {
  if (!ticking) return;
  timeline.push("|");
  setImmediate(tick);
}

type Received = { type: string; payload: any };

function connection(clientId: string): Connection & { received: Received[] } {
  const received: Received[] = [];
  return {
    clientId,
    slot: new DeliverySlot(),
    received,
    send: (...messages) => {
      timeline.push("w");
      received.push(...messages.map((data) => JSON.parse(data.toString())));
    },
    close: () => {},
  };
}

const settle = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  ticking = false;
  timeline.length = 0;
});

/**
 * Two rooms of seven players on one commit clock; six players of each answer, so the question stays
 * open and both rooms' acknowledgements fall due at the clock's same tick, in one turn of the event
 * loop. Returns the longest run of socket writes without a turn in between.
 */
async function answerTogether(pacerFor: (room: number) => SendPacer): Promise<{ longestRun: number; acknowledged: number }> {
  const clock = new CommitClock(50);
  const rooms = [];
  for (const id of [1, 2]) {
    const room = new GameRoom(
      loadedGame({ id, gameCode: `PACE${id}`, title: "Pacing" }),
      { commit: async () => "stored", isHost: async ({ clientId }) => clientId === "host" },
      { commitIntervalMs: 50, commitClock: clock, sendPacer: pacerFor(id) },
    );
    const host = connection("host");
    await room.joinAsHost(host);
    const players = Array.from({ length: 7 }, (_, index) => connection(`player-${id}-${index}`));
    for (const [index, player] of players.entries()) room.joinAsPlayer(player, `P${index}`);
    await settle(120);
    room.start(host);
    rooms.push({ room, players });
  }
  await settle(120);
  timeline.length = 0;
  ticking = true;
  setImmediate(tick);
  for (const { room, players } of rooms) {
    for (const player of players.slice(0, 6)) {
      const playerId = player.received.find((message) => message.type === "PLAYER_JOINED")!.payload.player.id;
      room.answer(player, playerId, { answerIndex: 1 });
    }
  }
  await settle(120);
  ticking = false;
  const longestRun = Math.max(
    ...timeline
      .join("")
      .split("|")
      .map((run) => run.length),
  );
  const acknowledged = rooms.flatMap(({ players }) => players).filter((player) => player.received.some((message) => message.type === "ANSWER_ACCEPTED")).length;
  for (const { room } of rooms) await room.dispose();
  return { longestRun, acknowledged };
}

describe("the shared slice of socket writes", () => {
  it("gives the event loop a turn after every slice of writes, counting every game's", async () => {
    const shared = new SendPacer(4);
    const { longestRun, acknowledged } = await answerTogether(() => shared);
    expect(acknowledged).toBe(12);
    expect(longestRun).toBe(4);
  });

  it("would let two games write two slices in one turn if each counted its own", async () => {
    const { longestRun, acknowledged } = await answerTogether(() => new SendPacer(4));
    expect(acknowledged).toBe(12);
    expect(longestRun).toBeGreaterThan(4);
  });

  it("starts the count again in each turn of the event loop", async () => {
    const pacer = new SendPacer(2);
    pacer.wrote();
    pacer.wrote();
    expect(pacer.sliceSpent).toBe(true);
    await pacer.nextTurn();
    expect(pacer.sliceSpent).toBe(false);
  });
});
