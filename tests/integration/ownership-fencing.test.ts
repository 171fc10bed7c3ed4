/**
 * Game ownership and fencing on a real PostgreSQL (issue 28, docs/decisions/0052-game-ownership-and-fencing.md):
 * two hubs with their own pools and node ids on one database, as two nodes would be.
 *
 * - Fencing: B takes a game over once A's heartbeat has stopped (A stalled); A, resumed, commits
 *   nothing more (0 rows), stops its room and closes its sockets with the reconnect code.
 * - kill -9: A's lock connection is ended by the server; B claims at once, without waiting for the lease.
 * - A claim race: two hubs load the same game at once, again and again: one owner each time, the
 *   epochs only growing.
 * - The game goes on on B: a question in progress resumes with the time it had left.
 * - A handover (a drain): the open question runs to its close, then the game is committed,
 *   released and its sockets closed; B claims it at once.
 * Runs in the SQLite pass too, on a PostgreSQL of its own (tests/postgres.ts).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CloseCode } from "#app/game/protocol";
import { openDatabase, type DB } from "#db/connection.server";
import { createGame } from "#app/models/game.server";
import { ownerRowOf } from "#app/models/game-owners.server";
import { addQuestion, createQuiz } from "#app/models/quiz.server";
import { GameElsewhere, GameHub, type OwnershipEvents } from "#server/game-hub";
import { GameRoom } from "#server/game-room";
import { leaseTimings, type LeaseTimings } from "#server/ownership-lease";
import { PostgresOwnership } from "#server/ownership-postgres";
import { testPostgres, type TestPostgres } from "../postgres";
import { describeWithPostgres } from "./with-postgres";
import { recordingConnection, type RecordingConnection } from "../unit/recording-connection";

let postgres: TestPostgres;
let url: string;
let db: DB;
const opened: { hub: GameHub; db: DB }[] = [];

const socket = recordingConnection;

interface Node {
  hub: GameHub;
  ownership: PostgresOwnership;
  events: Record<keyof OwnershipEvents, number>;
  /** The process id of the session holding this node's advisory lock. */
  lockPid(): Promise<number>;
}

/** Heartbeat 100 ms, lease 600 ms: a node is fenced 500 ms after its last renewal's send. */
const FAST: LeaseTimings = leaseTimings(100, 600);

async function startNode(nodeId: string, timings: LeaseTimings = FAST): Promise<Node> {
  const nodeDb = openDatabase(url, { poolSize: 4 });
  const ownership = new PostgresOwnership({ db: nodeDb, heartbeatDb: openDatabase(url, { poolSize: 1 }), nodeId, address: `${nodeId}.test:3000`, timings });
  await ownership.start();
  const events = { claimed: 0, handedOver: 0, fencedCommit: 0, selfFenced: 0 };
  const hub = new GameHub(nodeDb, {
    ownership,
    commitIntervalMs: 5,
    ownershipEvents: {
      claimed: () => events.claimed++,
      handedOver: () => events.handedOver++,
      fencedCommit: () => events.fencedCommit++,
      selfFenced: () => events.selfFenced++,
    },
  });
  opened.push({ hub, db: nodeDb });
  return {
    hub,
    ownership,
    events,
    async lockPid() {
      const { rows } = await sql<{ pid: number }>`
        select lock.pid from pg_locks lock join nodes on lock.objid = nodes.lock_key::int::oid
        where lock.locktype = 'advisory' and lock.objsubid = 2 and nodes.node_id = ${nodeId}`.execute(db);
      return Number(rows[0].pid);
    },
  };
}

let games = 0;

/** A waiting game of two questions (20 s each), made at `createdAt`. */
async function newGame(createdAt = Date.now()): Promise<{ id: number; gameCode: string }> {
  games++;
  const quiz = await createQuiz(db, { title: `Owned ${games}`, description: "", timeLimit: 20, isPublic: false }, { clientId: "owner" });
  await addQuestion(db, { quizId: quiz.id, order: 0, text: "2 + 2?", answers: ["3", "4", "5", "6"], correctAnswerIndex: 1 });
  await addQuestion(db, { quizId: quiz.id, order: 1, text: "3 + 3?", answers: ["6", "7", "8", "9"], correctAnswerIndex: 0 });
  const game = await createGame(db, { quizId: quiz.id, hostId: null, creatorClientId: "host", hostClientId: "host" }, createdAt);
  return { id: game.id, gameCode: game.gameCode };
}

async function roomOf(node: Node, gameCode: string): Promise<GameRoom> {
  const room = await node.hub.getRoom(gameCode);
  if (!(room instanceof GameRoom)) throw new Error(`expected a room on this node, got ${JSON.stringify(room)}`);
  return room;
}

async function remoteKeyOf(gameId: number): Promise<string> {
  return (await db.selectFrom("games").select("remote_key").where("id", "=", gameId).executeTakeFirstOrThrow()).remote_key!;
}

const playerIdOf = (connection: RecordingConnection): number => connection.received.find((message) => message.type === "PLAYER_JOINED")!.payload.player.id;

/** The host (by the game's remote key) and two players join on `node`, and the first question opens. */
async function gameInQuestion(node: Node) {
  const game = await newGame();
  const room = await roomOf(node, game.gameCode);
  const host = socket("host");
  const ann = socket("ann");
  const bob = socket("bob");
  await room.joinAsHost(host, await remoteKeyOf(game.id));
  room.joinAsPlayer(ann, "Ann");
  room.joinAsPlayer(bob, "Bob");
  await expect.poll(() => bob.received.some((message) => message.type === "PLAYER_JOINED"), { timeout: 3000 }).toBe(true);
  room.start(host);
  await expect.poll(() => ann.received.some((message) => message.type === "QUESTION_STARTED"), { timeout: 3000 }).toBe(true);
  return { game, room, host, ann, bob };
}

async function answersOf(gameId: number, playerId?: number): Promise<number> {
  let query = db
    .selectFrom("answers")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("game_id", "=", gameId);
  if (playerId !== undefined) query = query.where("player_id", "=", playerId);
  return Number((await query.executeTakeFirstOrThrow()).count);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeWithPostgres("two nodes on one database", () => {
  beforeAll(async () => {
    postgres = await testPostgres();
    url = await postgres.freshDatabase("ownership");
    db = openDatabase(url, { poolSize: 4 });
  });

  afterAll(async () => {
    for (const node of opened) {
      await node.hub.close().catch(() => {});
      await node.db.destroy().catch(() => {});
    }
    await db?.destroy();
    await postgres?.release();
  });

  it("fence the stalled owner: resumed after a takeover, it commits 0 rows and closes its sockets with the reconnect code", async () => {
    const a = await startNode("fence-a");
    const b = await startNode("fence-b");
    const { game, room, host, ann, bob } = await gameInQuestion(a);
    room.answer(ann, playerIdOf(ann), { answerIndex: 1 });
    await expect.poll(() => ann.received.some((message) => message.type === "ANSWER_ACCEPTED"), { timeout: 3000 }).toBe(true);
    expect(await answersOf(game.id)).toBe(1);
    const before = await ownerRowOf(db, game.id);
    expect(before?.nodeId).toBe("fence-a");

    // A stalls: no heartbeat, and no timer of its own notices. B takes over once the lease has passed.
    a.ownership.suspend();
    expect(await b.hub.getRoom(game.gameCode)).toBeInstanceOf(GameElsewhere);
    await pause(FAST.leaseMs + 200);
    const taken = await roomOf(b, game.gameCode);
    const after = await ownerRowOf(db, game.id);
    expect(after).toEqual({ nodeId: "fence-b", epoch: before!.epoch + 1 });
    expect(taken.state.phase).toBe("question");

    // A goes on where it stopped: Bob's answer reaches its room, whose commit is fenced.
    const rowsBefore = await answersOf(game.id);
    room.answer(bob, playerIdOf(bob), { answerIndex: 1 });
    await expect.poll(() => bob.closedWith, { timeout: 3000 }).toEqual([CloseCode.SERVER_RESTARTING]);
    expect(ann.closedWith).toEqual([CloseCode.SERVER_RESTARTING]);
    expect(host.closedWith).toEqual([CloseCode.SERVER_RESTARTING]);
    expect(bob.received.some((message) => message.type === "ANSWER_ACCEPTED")).toBe(false);
    expect(await answersOf(game.id)).toBe(rowsBefore);
    expect(await answersOf(game.id, playerIdOf(bob))).toBe(0);
    expect(a.events.fencedCommit).toBe(1);
    // A forgot the room; the game is B's, whose room takes Bob's answer when he reconnects there.
    expect(a.hub.roomCount).toBe(0);
    const bobAgain = socket("bob");
    taken.joinAsPlayer(bobAgain, "Bob");
    await expect.poll(() => bobAgain.received.some((message) => message.type === "PLAYER_JOINED"), { timeout: 3000 }).toBe(true);
    taken.answer(bobAgain, playerIdOf(bobAgain), { answerIndex: 1 });
    await expect.poll(() => answersOf(game.id, playerIdOf(bob)), { timeout: 3000 }).toBe(1);

    // A's timers run again: its lease lapsed, so it fences itself, then takes its lock again and may own games.
    const fencesBefore = a.events.selfFenced;
    a.ownership.resume();
    expect(a.events.selfFenced).toBe(fencesBefore + 1);
    await expect.poll(() => a.ownership.holdsLease(), { timeout: 3000 }).toBe(true);
    expect(await a.hub.getRoom(game.gameCode)).toEqual(new GameElsewhere({ nodeId: "fence-b", address: "fence-b.test:3000" }));
  });

  it("make a node whose heartbeat hangs stop its rooms before any other node may claim them", async () => {
    const a = await startNode("hang-a");
    const b = await startNode("hang-b");
    const { game, ann } = await gameInQuestion(a);
    let closedAt = 0;
    const close = ann.close;
    ann.close = (code, reason) => {
      closedAt ||= Date.now();
      close(code, reason);
    };
    let claimedAt = 0;
    // A's heartbeat waits on its node row, which this transaction holds, while A's timers run on.
    await db.transaction().execute(async (trx) => {
      await sql`select 1 from nodes where node_id = 'hang-a' for update`.execute(trx);
      await expect
        .poll(
          async () => {
            if ((await b.hub.getRoom(game.gameCode)) instanceof GameRoom) claimedAt = Date.now();
            return claimedAt > 0;
          },
          { timeout: 5000, interval: 20 },
        )
        .toBe(true);
    });
    expect(ann.closedWith).toEqual([CloseCode.SERVER_RESTARTING]);
    expect(a.events.selfFenced).toBeGreaterThanOrEqual(1);
    expect(closedAt).toBeGreaterThan(0);
    expect(closedAt).toBeLessThan(claimedAt);
  });

  it("let another node claim at once when the owner is killed (its lock's session ends), long before the lease", async () => {
    // A lease of 30 s: a claim in less than that is the lock's doing, not the lease's.
    const slow = leaseTimings(1000, 30_000);
    const a = await startNode("kill-a", slow);
    const b = await startNode("kill-b", slow);
    const { game, room, ann } = await gameInQuestion(a);
    expect(await b.hub.getRoom(game.gameCode)).toBeInstanceOf(GameElsewhere);

    // kill -9 of A: nothing of A runs any more, and the server ends its sessions.
    a.ownership.suspend();
    const started = Date.now();
    await sql`select pg_terminate_backend(${await a.lockPid()})`.execute(db);
    await expect.poll(async () => (await b.hub.getRoom(game.gameCode)) instanceof GameRoom, { timeout: 5000, interval: 50 }).toBe(true);
    expect(Date.now() - started).toBeLessThan(slow.leaseMs / 3);
    expect((await ownerRowOf(db, game.id))?.nodeId).toBe("kill-b");
    // Nothing A's room would still try is stored.
    room.answer(ann, playerIdOf(ann), { answerIndex: 1 });
    await expect.poll(() => ann.closedWith, { timeout: 3000 }).toEqual([CloseCode.SERVER_RESTARTING]);
    expect(await answersOf(game.id)).toBe(0);
  });

  it("fence a node whose lock connection dies while it runs: all its rooms stop, and another node claims them", async () => {
    const slow = leaseTimings(1000, 30_000);
    const a = await startNode("cut-a", slow);
    const b = await startNode("cut-b", slow);
    const first = await gameInQuestion(a);
    const second = await gameInQuestion(a);
    await sql`select pg_terminate_backend(${await a.lockPid()})`.execute(db);
    // A's next heartbeat finds its session gone: every room of A stops, its sockets told to reconnect.
    await expect.poll(() => first.ann.closedWith, { timeout: 5000 }).toEqual([CloseCode.SERVER_RESTARTING]);
    expect(second.bob.closedWith).toEqual([CloseCode.SERVER_RESTARTING]);
    expect(a.events.selfFenced).toBeGreaterThanOrEqual(1);
    expect(a.hub.roomCount).toBe(0);
    // It takes a lock again and releases what still named it, so B claims at once.
    const taken = await roomOf(b, second.game.gameCode);
    expect(taken.state.phase).toBe("question");
    await expect.poll(() => a.ownership.holdsLease(), { timeout: 5000 }).toBe(true);
  });

  it("give a game loaded by two nodes at once exactly one owner, with an epoch that only grows", async () => {
    const game = await newGame();
    const epochs: number[] = [];
    for (let round = 0; round < 6; round++) {
      // Two fresh nodes each round: the winner hands the game over (a drain), which a node does once.
      const a = await startNode(`race-${round}-a`);
      const b = await startNode(`race-${round}-b`);
      const [fromA, fromB] = await Promise.all([a.hub.getRoom(game.gameCode), b.hub.getRoom(game.gameCode)]);
      expect([fromA, fromB].filter((result) => result instanceof GameRoom)).toHaveLength(1);
      const [winner, winnerId, loser] = fromA instanceof GameRoom ? [a, `race-${round}-a`, fromB] : [b, `race-${round}-b`, fromA];
      expect(loser).toEqual(new GameElsewhere({ nodeId: winnerId, address: `${winnerId}.test:3000` }));
      const row = await ownerRowOf(db, game.id);
      expect(row?.nodeId).toBe(winnerId);
      epochs.push(row!.epoch);
      await winner.hub.handOverAll(1000);
      expect((await ownerRowOf(db, game.id))?.nodeId).toBeNull();
    }
    expect(epochs).toEqual([...epochs].sort((x, y) => x - y));
    expect(new Set(epochs).size).toBe(epochs.length);
  });

  it("resume a question in progress on the new owner with the time it had left", async () => {
    const a = await startNode("resume-a");
    const b = await startNode("resume-b");
    const { game, room, ann } = await gameInQuestion(a);
    const endsAt = room.state.questionEndsAt;
    await pause(300);
    a.ownership.suspend();
    await pause(FAST.leaseMs + 200);
    const taken = await roomOf(b, game.gameCode);
    expect(taken.state.phase).toBe("question");
    expect(taken.state.questionIndex).toBe(0);
    // The deadline A set, not a fresh 20 s from the takeover.
    expect(taken.state.questionEndsAt).toBe(endsAt);
    expect(taken.state.deadline).toBe(endsAt);
    // The players rejoin on B and finish the question there.
    const annAgain = socket("ann");
    const bobAgain = socket("bob");
    taken.joinAsPlayer(annAgain, "Ann");
    taken.joinAsPlayer(bobAgain, "Bob");
    await expect.poll(() => bobAgain.received.some((message) => message.type === "PLAYER_JOINED"), { timeout: 3000 }).toBe(true);
    expect(playerIdOf(annAgain)).toBe(playerIdOf(ann));
    const rejoined = annAgain.received.find((message) => message.type === "QUESTION_STARTED");
    expect(rejoined?.payload.endsAt).toBe(endsAt);
    taken.answer(annAgain, playerIdOf(annAgain), { answerIndex: 1 });
    taken.answer(bobAgain, playerIdOf(bobAgain), { answerIndex: 0 });
    await expect.poll(() => taken.state.phase, { timeout: 3000 }).toBe("results");
    await expect.poll(() => answersOf(game.id), { timeout: 3000 }).toBe(2);
    a.ownership.resume();
  });

  it("hand a game over at its next safe point: the open question closes first, then commit, release, and the reconnect code", async () => {
    const a = await startNode("drain-a");
    const b = await startNode("drain-b");
    const { game, room, ann, bob } = await gameInQuestion(a);
    const handover = a.hub.handOverAll(10_000);
    await pause(200);
    // Mid-question: it waits, and the sockets stay.
    expect(ann.closedWith).toEqual([]);
    expect((await ownerRowOf(db, game.id))?.nodeId).toBe("drain-a");
    // While it drains, A claims no other game.
    const other = await newGame();
    expect(await a.hub.getRoom(other.gameCode)).toEqual(new GameElsewhere(null));

    room.answer(ann, playerIdOf(ann), { answerIndex: 1 });
    room.answer(bob, playerIdOf(bob), { answerIndex: 1 });
    await handover;
    expect(a.events.handedOver).toBe(1);
    // Both answers and the question's close were stored and told before the sockets closed.
    expect(await answersOf(game.id)).toBe(2);
    expect(ann.received.some((message) => message.type === "ANSWER_ACCEPTED")).toBe(true);
    expect(ann.received.some((message) => message.type === "ANSWER_RESULTS")).toBe(true);
    expect(ann.closedWith).toEqual([CloseCode.SERVER_RESTARTING]);
    const released = await ownerRowOf(db, game.id);
    expect(released?.nodeId).toBeNull();

    // B claims it at once (A's heartbeat is fresh: only the release lets it).
    const taken = await roomOf(b, game.gameCode);
    expect(taken.state.phase).toBe("results");
    expect((await ownerRowOf(db, game.id))?.epoch).toBe(released!.epoch + 1);
  });

  it("leave a waiting game another node runs open when a node sweeps the games nobody opened", async () => {
    const a = await startNode("sweep-a");
    const b = await startNode("sweep-b");
    // Made two hours ago and still waiting, but open on A: players may be in its lobby.
    const game = await newGame(Date.now() - 2 * 60 * 60_000);
    await roomOf(a, game.gameCode);
    await b.hub.sweep();
    const status = async () => (await db.selectFrom("games").select("status").where("id", "=", game.id).executeTakeFirstOrThrow()).status;
    expect(await status()).toBe("waiting");
    // Nobody's: the sweep closes it.
    await a.hub.handOverAll(0);
    await b.hub.sweep();
    expect(await status()).toBe("finished");
  });

  it("close a waiting game nobody opened when the node that claimed it died and never came back", async () => {
    const b = await startNode("sweep-survivor");
    const game = await newGame(Date.now() - 2 * 60 * 60_000);
    // A node that claimed it and was killed: its heartbeat an hour old, its lock held by nobody.
    const hourAgo = Date.now() - 60 * 60_000;
    await sql`insert into nodes (node_id, address, lock_key, heartbeat_at, started_at) values ('ghost', 'ghost.test:3000', 987654, ${hourAgo}, ${hourAgo})`.execute(
      db,
    );
    await sql`insert into game_owners (game_id, node_id, epoch, claimed_at) values (${game.id}, 'ghost', 1, ${hourAgo})`.execute(db);
    await b.hub.sweep();
    const { status } = await db.selectFrom("games").select("status").where("id", "=", game.id).executeTakeFirstOrThrow();
    expect(status).toBe("finished");
  });

  it("close a game whose row is gone for good, with its own code, while the game committed beside it is stored", async () => {
    const a = await startNode("gone-a");
    const { game, ann } = await gameInQuestion(a);
    const taken = await gameInQuestion(a);
    await db.deleteFrom("games").where("id", "=", game.id).execute();
    // Both rooms commit in one transaction of A's writer; the fence tells the gone game from the owned one.
    (await roomOf(a, taken.game.gameCode)).answer(taken.ann, playerIdOf(taken.ann), { answerIndex: 1 });
    const room = a.hub.liveRoom(game.gameCode)!;
    room.answer(ann, playerIdOf(ann), { answerIndex: 1 });
    await expect.poll(() => ann.closedWith, { timeout: 3000 }).toEqual([CloseCode.GAME_CLOSED]);
    await expect.poll(() => answersOf(taken.game.id), { timeout: 3000 }).toBe(1);
    expect(a.events.fencedCommit).toBe(0);
  });

  it("hand a question the host paused over at the drain's deadline: the new owner keeps it paused with the time it had left", async () => {
    const a = await startNode("paused-a");
    const b = await startNode("paused-b");
    const { game, room, host, ann } = await gameInQuestion(a);
    room.pause(host);
    await expect.poll(() => ann.received.some((message) => message.type === "QUESTION_PAUSED"), { timeout: 3000 }).toBe(true);
    const remainingMs: number = ann.received.find((message) => message.type === "QUESTION_PAUSED")!.payload.remainingMs;
    const started = Date.now();
    await a.hub.handOverAll(300);
    // A paused question never reaches a safe point by itself: the deadline hands it over.
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(ann.closedWith).toEqual([CloseCode.SERVER_RESTARTING]);
    expect((await ownerRowOf(db, game.id))?.nodeId).toBeNull();
    const taken = await roomOf(b, game.gameCode);
    expect(taken.state.phase).toBe("question");
    expect(taken.state.deadline).toBeNull();
    const annAgain = socket("ann");
    taken.joinAsPlayer(annAgain, "Ann");
    await expect.poll(() => annAgain.received.some((message) => message.type === "QUESTION_STARTED"), { timeout: 3000 }).toBe(true);
    expect(annAgain.received.find((message) => message.type === "QUESTION_STARTED")!.payload.pausedRemainingMs).toBe(remainingMs);
  });
});
