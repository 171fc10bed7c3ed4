/**
 * The slice of socket writes all games share (issue 18): when many games deliver at the same moment,
 * the event loop gets a turn after every slice of writes, whichever games made them, so the answers
 * arriving meanwhile are read and timed instead of waiting for every game's delivery.
 */
import { afterEach, describe, expect, it } from "vitest";
import { GameRoom, type Connection } from "#server/game-room";
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

function connection(clientId: string): Connection & { received: string[] } {
  const received: string[] = [];
  return {
    clientId,
    received,
    send: (...messages) => {
      timeline.push("w");
      received.push(...messages.map((data) => JSON.parse(data.toString()).type));
    },
    close: () => {},
  };
}

const settle = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  ticking = false;
  timeline.length = 0;
});

/** Two rooms of six players, started in the same moment; the longest run of writes without a turn of the event loop. */
async function startTogether(pacerFor: (room: number) => SendPacer): Promise<{ longestRun: number; players: ReturnType<typeof connection>[] }> {
  const rooms = [];
  const players = [];
  for (const id of [1, 2]) {
    const room = new GameRoom(
      loadedGame({ id, gameCode: `PACE${id}`, title: "Pacing" }),
      { commit: async () => "stored", getHostClientId: async () => "host" },
      { commitIntervalMs: 1, sendPacer: pacerFor(id) },
    );
    const host = connection("host");
    await room.joinAsHost(host);
    for (let index = 0; index < 6; index++) {
      const player = connection(`player-${id}-${index}`);
      room.joinAsPlayer(player, `P${index}`);
      players.push(player);
    }
    rooms.push({ room, host });
  }
  await settle();
  timeline.length = 0;
  ticking = true;
  setImmediate(tick);
  for (const { room, host } of rooms) room.start(host);
  await settle();
  ticking = false;
  const longestRun = Math.max(
    ...timeline
      .join("")
      .split("|")
      .map((run) => run.length),
  );
  for (const { room } of rooms) await room.dispose();
  return { longestRun, players };
}

describe("the shared slice of socket writes", () => {
  it("gives the event loop a turn after every slice of writes, counting every game's", async () => {
    const shared = new SendPacer(4);
    const { longestRun, players } = await startTogether(() => shared);
    expect(longestRun).toBe(4);
    // Everyone still has the question, once, after the game's start.
    for (const player of players) expect(player.received.filter((type) => type === "QUESTION_STARTED")).toHaveLength(1);
  });

  it("would let two games write two slices in one turn if each counted its own", async () => {
    const { longestRun } = await startTogether(() => new SendPacer(4));
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
