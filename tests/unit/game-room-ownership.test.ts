/**
 * A room and the ownership of its game (docs/decisions/0052-game-ownership-and-fencing.md): a commit
 * fenced by another node's claim stops the room, says nothing of what it held and closes its sockets
 * with the "server restarting" code; a self-fence does the same at once; a handover waits for the
 * open question to close, commits, runs the release, and only then closes the sockets.
 */
import { describe, expect, it } from "vitest";
import { CloseCode } from "#app/game/protocol";
import type { GameWriteBatch } from "#app/models/game-batch.server";
import { GameRoom, type CommitOutcome } from "#server/game-room";
import { loadedGame } from "./loaded-game";
import { recordingConnection } from "./recording-connection";

const recorded = recordingConnection;

const settle = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

/** A room whose commits end as `outcome()` says, keeping the stored batches and the order of events. */
function room(outcome: () => CommitOutcome = () => "stored") {
  const stored: GameWriteBatch[] = [];
  const events: string[] = [];
  let closed = 0;
  const instance = new GameRoom(
    loadedGame(),
    {
      commit: async (batch) => {
        const result = outcome();
        if (result === "stored") {
          stored.push(batch);
          events.push("commit");
        }
        return result;
      },
      isHost: async ({ clientId }) => clientId === "host",
    },
    { commitIntervalMs: 1, onClosed: () => closed++ },
  );
  return { room: instance, stored, events, closedCount: () => closed };
}

async function startedWithAnn(subject: GameRoom) {
  const host = recorded("host");
  const ann = recorded("ann");
  await subject.joinAsHost(host);
  subject.joinAsPlayer(ann, "Ann");
  await expect.poll(() => ann.received.some((message) => message.type === "PLAYER_JOINED"), { timeout: 2000 }).toBe(true);
  subject.start(host);
  await expect.poll(() => ann.received.some((message) => message.type === "QUESTION_STARTED"), { timeout: 2000 }).toBe(true);
  const annId: number = ann.received.find((message) => message.type === "PLAYER_JOINED")!.payload.player.id;
  return { host, ann, annId };
}

describe("a room whose game another node claimed", () => {
  it("stores nothing more, never acknowledges the fenced answer, and closes every socket with the reconnect code", async () => {
    let fenced = false;
    const { room: subject, stored, closedCount } = room(() => (fenced ? "fenced" : "stored"));
    const { host, ann, annId } = await startedWithAnn(subject);
    const storedBefore = stored.length;

    fenced = true;
    subject.answer(ann, annId, { answerIndex: 1 });
    await expect.poll(() => ann.closedWith, { timeout: 2000 }).toEqual([CloseCode.SERVER_RESTARTING]);
    expect(host.closedWith).toEqual([CloseCode.SERVER_RESTARTING]);
    expect(ann.received.some((message) => message.type === "ANSWER_ACCEPTED")).toBe(false);
    expect(stored.length).toBe(storedBefore);
    // The hub forgets it.
    expect(closedCount()).toBe(1);
    // A join that still reaches it goes round again, to the game's new owner.
    const late = recorded("late");
    subject.joinAsPlayer(late, "Late");
    expect(late.closedWith).toEqual([CloseCode.SERVER_RESTARTING]);
  });
});

describe("a room of a node that fenced itself", () => {
  it("stops at once: its pending answer is neither stored nor acknowledged, and its sockets reconnect", async () => {
    const { room: subject, stored } = room();
    const { host, ann, annId } = await startedWithAnn(subject);
    const storedBefore = stored.length;
    subject.answer(ann, annId, { answerIndex: 1 });
    subject.fence();
    await settle(30);
    expect(stored.length).toBe(storedBefore);
    expect(ann.received.some((message) => message.type === "ANSWER_ACCEPTED")).toBe(false);
    expect(ann.closedWith).toEqual([CloseCode.SERVER_RESTARTING]);
    expect(host.closedWith).toEqual([CloseCode.SERVER_RESTARTING]);
  });
});

describe("a handover", () => {
  it("waits for the open question to close, then commits, releases, and closes the sockets, in that order", async () => {
    const { room: subject, events, stored } = room();
    const { host, ann, annId } = await startedWithAnn(subject);
    let reached = false;
    const safe = subject.atSafePoint().then(() => (reached = true));
    await settle(30);
    // Mid-question: it waits.
    expect(reached).toBe(false);

    // Ann, the only player, answers: the question closes to its results.
    subject.answer(ann, annId, { answerIndex: 1 });
    await safe;
    expect(subject.state.phase).toBe("results");
    await subject.dispose(CloseCode.SERVER_RESTARTING, "Server restarting", async () => {
      events.push(`release (sockets open: ${ann.closedWith.length === 0 && host.closedWith.length === 0})`);
    });
    events.push("closed");
    expect(events.slice(-3)).toEqual(["commit", "release (sockets open: true)", "closed"]);
    // The answer and the question's close were stored and told before the sockets closed.
    expect(stored.flatMap((batch) => batch.answers)).toHaveLength(1);
    expect(ann.received.some((message) => message.type === "ANSWER_ACCEPTED")).toBe(true);
    expect(ann.closedWith).toEqual([CloseCode.SERVER_RESTARTING]);
  });

  it("finds a game outside a question at its safe point already", async () => {
    const { room: subject } = room();
    await expect(subject.atSafePoint()).resolves.toBeUndefined();
    await subject.dispose();
  });

  it("skips the release when the last commit was fenced", async () => {
    let fenced = false;
    const { room: subject } = room(() => (fenced ? "fenced" : "stored"));
    const { ann, annId } = await startedWithAnn(subject);
    fenced = true;
    subject.answer(ann, annId, { answerIndex: 1 });
    let released = false;
    await subject.dispose(CloseCode.SERVER_RESTARTING, "Server restarting", async () => void (released = true));
    expect(released).toBe(false);
    expect(ann.closedWith).toEqual([CloseCode.SERVER_RESTARTING]);
  });
});
