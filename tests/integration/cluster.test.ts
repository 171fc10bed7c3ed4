/**
 * A cluster of real processes (issue 28, "Tests"): a throwaway PostgreSQL, three nodes of the
 * production build and the consistent-hash proxy (scripts/cluster-lib.ts, the parts of `npm run
 * cluster`), played by clients that reconnect as the browser does (bench/failover-client.ts).
 *
 * - One game's host, display and players spread over the nodes, some sockets opened straight to a
 *   node that does not own the game: every message kind reaches each role, in the game's order.
 * - kill -9 of the game's owner in the middle of each of its 10 questions: another node takes it
 *   over, each question goes on with the time it had left (the same `endsAt`), the game finishes,
 *   and every acknowledged answer is in the final scores exactly once.
 * - SIGSTOP of the owner (a hang): another node takes the game over and the players are back
 *   while it hangs; once continued, the hung node acknowledges nothing more and closes its sockets
 *   with 4000.
 * - SIGTERM (a rolling deploy's drain): no client of the game sees an ERROR, only 4000 closes and
 *   its return; a game another node owns sees no disconnect at all.
 *
 * Minutes of CPU on two cores: in the heavy project (tests/heavy-tests.ts, `npm run test:heavy`).
 * docs/decisions/0052-game-ownership-and-fencing.md says what is claimed, fenced and handed over.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FailoverClient, type Close, type ReceivedMessage } from "../../bench/failover-client";
import { gameSocketUrl, hostHeaders, makeGame, type MadeGame } from "../../bench/failover-game";
import { benchServerEnv } from "../../bench/game-server";
import { answerFor } from "../../bench/questions";
import { SERVER, startLocalCluster, type ClusterNodeHandle, type LocalCluster } from "../../scripts/cluster-lib";

/**
 * Whether a node forwards a socket for a game another node owns (docs/decisions/0056-forwarding-and-signals.md).
 * Without it, such a socket is closed with 4000 and its client comes back through the proxy, which
 * this test then checks instead (false runs it so, against a build from before forwarding).
 */
const FORWARDING = true;

const QUESTION_SECONDS = 10;
const NODE_ENV: Record<string, string> = {
  ...benchServerEnv(1000, 100),
  SEED_DEMO: "false",
  LOG_LEVEL: "info",
  // Drains that end within a question's time, so the test does not wait 20 s per SIGTERM.
  DRAIN_SECONDS: "12",
};

/** Each node's last lines, printed when a test fails. */
const nodeLines = new Map<string, string[]>();
function keepLine(nodeId: string, line: string): void {
  const lines = nodeLines.get(nodeId) ?? [];
  lines.push(line);
  if (lines.length > 400) lines.shift();
  nodeLines.set(nodeId, lines);
}

let cluster: LocalCluster;
const clients: FailoverClient[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, check: () => T | Promise<T>, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs / 1000} s`);
    await sleep(50);
  }
}

interface Played {
  game: MadeGame;
  host: FailoverClient;
  display: FailoverClient;
  players: FailoverClient[];
  /** The players whose first socket went straight to a node that did not own the game. */
  direct: Set<FailoverClient>;
  /** The node each client's sockets go straight to (the display and the direct players). */
  straightTo: Map<FailoverClient, string>;
  everyone: FailoverClient[];
}

/**
 * A game with its host (through the proxy), its display and `playerCount` players, every other one
 * (and the display) opened straight to a node that does not own the game. Players answer each
 * question once, at a random moment between a tenth and nine tenths of its time.
 */
async function openGame(playerCount: number, questionCount: number): Promise<Played> {
  try {
    return await openGameOrFail(playerCount, questionCount);
  } catch (error) {
    throw withNodeLines(error);
  }
}

async function openGameOrFail(playerCount: number, questionCount: number): Promise<Played> {
  const proxy = cluster.proxyUrl;
  const game = await makeGame(proxy, { hostId: `host-${randomUUID()}`, questionCount, timeLimitSeconds: QUESTION_SECONDS });
  const { gameCode } = game;
  const host = new FailoverClient({
    url: () => gameSocketUrl(proxy, game.hostId, gameCode),
    headers: hostHeaders(game.hostId),
    join: { type: "JOIN_GAME", payload: { gameCode, nickname: "__HOST__" } },
    keepMessages: true,
  });
  clients.push(host);
  host.start();
  await until("the host's snapshot", () => host.snapshot);
  const owner = (await ownerNow(gameCode)).nodeId;
  const others = cluster.nodes.filter((node) => node.id !== owner);
  /** A socket straight to `node` first; after that, where a browser behind the balancer would reconnect. */
  const directUrl = (node: ClusterNodeHandle, clientId: string) => (attempt: { socket: number }) =>
    gameSocketUrl(attempt.socket === 0 || (FORWARDING && node.running()) ? node.url : proxy, clientId, gameCode);

  const keys = await fetchDisplayKey(gameCode, game.hostId);
  const displayNode = others[0]!;
  const display = new FailoverClient({
    url: directUrl(displayNode, `display-${randomUUID()}`),
    join: { type: "WATCH_GAME", payload: { gameCode, key: keys } },
    keepMessages: true,
  });
  clients.push(display);
  display.start();

  const players: FailoverClient[] = [];
  const direct = new Set<FailoverClient>();
  const straightTo = new Map<FailoverClient, string>([[display, displayNode.id]]);
  for (let i = 0; i < playerCount; i++) {
    const clientId = `player-${i}-${randomUUID()}`;
    const straight = i % 2 === 1;
    const player = new FailoverClient({
      url: straight ? directUrl(others[i % others.length]!, clientId) : () => gameSocketUrl(proxy, clientId, gameCode),
      join: { type: "JOIN_GAME", payload: { gameCode, nickname: `P${i}` } },
      keepMessages: true,
      answer: (question, resent) => {
        const window = question.endsAt - question.serverNow;
        const delayMs = resent ? 200 : window * (0.1 + Math.random() * 0.8);
        return { fields: answerFor(question.question.kind, question.question.answers?.length ?? 4, game.keys[question.questionNumber - 1]), delayMs };
      },
    });
    if (straight) {
      direct.add(player);
      straightTo.set(player, others[i % others.length]!.id);
    }
    players.push(player);
    clients.push(player);
    player.start();
  }
  await until("every player and the display in the lobby", () => display.snapshot && players.every((player) => player.snapshot && player.playerId !== null));
  await until("the host to hear of every player", () => host.messages.filter((m) => m.type === "PLAYER_JOINED").length >= playerCount);
  // Settled: until forwarding, a socket opened straight to a non-owner was sent away with 4000 and came back through the proxy.
  await until(
    "every socket settled on its node",
    () => [host, display, ...players].every((client) => client.open) && [display, ...direct].every((client) => FORWARDING || client.returns.length >= 1),
  );
  return { game, host, display, players, direct, straightTo, everyone: [host, display, ...players] };
}

async function fetchDisplayKey(gameCode: string, hostId: string): Promise<string> {
  const { fetchScreenKeys } = await import("../../bench/screens");
  return (await fetchScreenKeys(cluster.proxyUrl, gameCode, hostId)).displayKey;
}

function messagesOf(client: FailoverClient, type: string): ReceivedMessage[] {
  return client.messages.filter((message) => message.type === type);
}

/** The question open now as the host sees it (its number), once its QUESTION_STARTED has come. */
async function questionOpen(host: FailoverClient, questionNumber: number): Promise<ReceivedMessage> {
  return until(
    `question ${questionNumber}`,
    () => host.messages.find((m) => m.type === "QUESTION_STARTED" && m.payload.questionNumber === questionNumber),
    60_000,
  );
}

/**
 * The game's order as one client lived it: the place of each message in the game (question number,
 * then the step within it). Within one socket the places never go back; a socket opened after a
 * drop starts with the catch-up of the step the game is at, which is not before the last one seen.
 */
function gameStep(message: ReceivedMessage): [number, number] | null {
  const n = message.payload?.questionNumber;
  switch (message.type) {
    case "GAME_STARTED":
      return [0, 9];
    case "QUESTION_STARTED":
      return [n, 0];
    case "QUESTION_PAUSED":
    case "QUESTION_RESUMED":
    case "ANSWER_ACCEPTED":
    case "ANSWER_PROGRESS":
      return [n, 1];
    case "ANSWER_RESULTS":
      return [n, 2];
    case "LEADERBOARD_UPDATE":
      return [n, 3];
    case "GAME_OVER":
      return [Number.MAX_SAFE_INTEGER, 0];
    default:
      return null;
  }
}

function expectInGameOrder(client: FailoverClient, who: string): void {
  let last: [number, number] = [-1, 0];
  let socket = 0;
  for (const message of client.messages) {
    const step = gameStep(message);
    if (!step) continue;
    // A new socket's catch-up tells the question again from its start (QUESTION_STARTED), never an earlier question.
    if (message.socket !== socket) {
      socket = message.socket;
      last = [last[0], -1];
    }
    const before = step[0] < last[0] || (step[0] === last[0] && step[1] < last[1]);
    expect(before, `${who}: ${message.type} ${JSON.stringify(step)} after ${JSON.stringify(last)}`).toBe(false);
    last = step;
  }
}

/** The answers and scores stored for a game, per player id. */
async function storedScores(gameCode: string) {
  const answers = await cluster.query<{ player_id: string; question_index: string; points: string }>(
    `select a.player_id, a.question_index, a.points from answers a join games g on g.id = a.game_id where g.game_code = $1`,
    [gameCode],
  );
  const players = await cluster.query<{ id: string; nickname: string; score: string }>(
    `select p.id, p.nickname, p.score from players p join games g on g.id = p.game_id where g.game_code = $1`,
    [gameCode],
  );
  return {
    answers: answers.map((row) => ({ playerId: Number(row.player_id), questionIndex: Number(row.question_index), points: Number(row.points) })),
    players,
  };
}

/** Every acknowledged answer stored once, and every stored score the sum of that player's stored points, as GAME_OVER told it. */
async function expectAcksInScores(played: Played): Promise<{ acknowledged: number; stored: number }> {
  const { answers, players } = await storedScores(played.game.gameCode);
  let acknowledged = 0;
  for (const player of played.players) {
    for (const [questionNumber] of player.acks) {
      acknowledged++;
      const rows = answers.filter((answer) => answer.playerId === player.playerId && answer.questionIndex === questionNumber - 1);
      expect(rows, `P${player.playerId}'s acknowledged answer to question ${questionNumber}`).toHaveLength(1);
    }
  }
  for (const row of players) {
    const points = answers.filter((answer) => answer.playerId === Number(row.id)).reduce((sum, answer) => sum + answer.points, 0);
    expect(Number(row.score), `${row.nickname}'s score against its stored answers`).toBe(points);
    const told = played.players.find((player) => player.playerId === Number(row.id))!.gameOver.you;
    expect(told.score, `${row.nickname}'s score in GAME_OVER`).toBe(Number(row.score));
  }
  return { acknowledged, stored: answers.length };
}

/** The nodes' last lines written to a file beside the error, and how often each fenced itself. */
function withNodeLines(error: unknown): Error {
  const file = path.join(os.tmpdir(), `cluster-test-nodes-${process.pid}.log`);
  fs.writeFileSync(file, [...nodeLines].map(([nodeId, lines]) => `--- ${nodeId}\n${lines.join("\n")}`).join("\n"));
  const fenced = [...nodeLines].map(([nodeId, lines]) => `${nodeId} ${lines.filter((line) => line.includes("node_self_fenced")).length}`).join(", ");
  const message = error instanceof Error ? error.message : String(error);
  return new Error(`${message}\n(self-fences in the nodes' last lines: ${fenced}; their lines: ${file})`, { cause: error });
}

/** The game's owner, once some node owns it (a node that fenced itself releases its games until a client comes back). */
function ownerNow(gameCode: string) {
  return until(`an owner for ${gameCode}`, () => cluster.ownerOf(gameCode));
}

describe("a cluster of three nodes", () => {
  beforeAll(async () => {
    expect(fs.existsSync(SERVER), "the build (npm run build)").toBe(true);
    cluster = await startLocalCluster({ nodes: 3, env: NODE_ENV, output: keepLine, postgres: { fsync: false } });
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) client.terminate();
    await cluster?.stop();
  }, 120_000);

  it("plays one game across the nodes: every message kind reaches each role, in the game's order", async () => {
    const played = await openGame(6, 3);
    const { host, display, players, game } = played;
    const { gameCode } = game;
    host.send("LOCK_GAME", { gameCode, locked: true });
    await until("the lobby locked for everyone", () => played.everyone.every((client) => messagesOf(client, "LOBBY_LOCKED").length > 0));
    host.send("LOCK_GAME", { gameCode, locked: false });
    host.send("START_GAME", { gameCode });
    await questionOpen(host, 1);
    host.send("PAUSE_QUESTION", { gameCode });
    await until("the pause for everyone", () => played.everyone.every((client) => messagesOf(client, "QUESTION_PAUSED").length > 0));
    host.send("RESUME_QUESTION", { gameCode });
    await until("the podium for everyone", () => played.everyone.every((client) => client.gameOver), 90_000);

    const kinds = (client: FailoverClient) => new Set(client.messages.map((message) => message.type));
    const lived = [
      "GAME_SNAPSHOT",
      "LOBBY_LOCKED",
      "GAME_STARTED",
      "QUESTION_STARTED",
      "QUESTION_PAUSED",
      "QUESTION_RESUMED",
      "ANSWER_RESULTS",
      "LEADERBOARD_UPDATE",
      "GAME_OVER",
    ];
    expect([...kinds(host)]).toEqual(expect.arrayContaining([...lived, "PLAYER_JOINED", "ANSWER_PROGRESS"]));
    expect([...kinds(display)]).toEqual(expect.arrayContaining([...lived, "ANSWER_PROGRESS"]));
    for (const player of players) expect([...kinds(player)]).toEqual(expect.arrayContaining([...lived, "PLAYER_JOINED", "ANSWER_ACCEPTED"]));
    for (const [i, client] of played.everyone.entries()) {
      expectInGameOrder(client, `client ${i}`);
      expect(client.errors, `client ${i}'s errors`).toEqual([]);
      // Each question, its results and its leaderboard once per socket: nothing twice, nothing missing.
      for (const questionNumber of [1, 2, 3])
        expect(messagesOf(client, "QUESTION_STARTED").some((m) => m.payload.questionNumber === questionNumber)).toBe(true);
    }
    for (const player of [display, ...played.direct]) {
      // Sent away with 4000 ("the game is on another server") and back through the proxy, until forwarding; forwarded to the owner then.
      expect(player.closes.every((close) => close.code === 4000)).toBe(true);
      if (!FORWARDING) expect(player.closes.length).toBeGreaterThanOrEqual(1);
    }
    if (FORWARDING) {
      let forwarded = 0;
      for (const node of cluster.nodes) forwarded += (await node.metrics()).get("quiz_night_forwarded_sockets_total") ?? 0;
      expect(forwarded).toBeGreaterThanOrEqual(played.direct.size + 1);
    }
    await expectAcksInScores(played);
  }, 180_000);

  it("goes on after kill -9 of the game's owner in each of its 10 questions: the time left kept, every acknowledged answer scored once", async () => {
    const questionCount = 10;
    const played = await openGame(8, questionCount);
    const { host, players, game } = played;
    host.send("START_GAME", { gameCode: game.gameCode });
    const owners: string[] = [];
    let restarting: Promise<void> = Promise.resolve();
    try {
      for (let questionNumber = 1; questionNumber <= questionCount; questionNumber++) {
        const opened = await questionOpen(host, questionNumber);
        await restarting;
        // A few answers in: the question is well under way, most of its players still to answer.
        await sleep(Math.max(0, opened.payload.endsAt - opened.payload.serverNow) * 0.3);
        const owner = await ownerNow(game.gameCode);
        const node = cluster.node(owner.nodeId);
        const killedAt = performance.now();
        await node.kill();
        await until(
          `every client back after killing ${node.id} in question ${questionNumber}`,
          () => played.everyone.every((client) => client.returns.some((back) => back.close.at >= killedAt)),
          30_000,
        );
        const taken = await ownerNow(game.gameCode);
        expect(taken.nodeId, "another node owns the game").not.toBe(node.id);
        expect(taken.epoch).toBeGreaterThan(owner.epoch);
        owners.push(`${node.id} → ${taken.nodeId}`);
        // The question goes on with the time it had left: the same end as before, for everyone.
        for (const client of played.everyone) {
          const catchUp = client.messages.find((m) => m.type === "QUESTION_STARTED" && m.at > killedAt && m.payload.questionNumber === questionNumber);
          if (catchUp) expect(catchUp.payload.endsAt).toBe(opened.payload.endsAt);
        }
        restarting = node.restart();
      }
      await until("the podium for everyone", () => played.everyone.every((client) => client.gameOver), 90_000);
      await restarting;
    } catch (error) {
      throw withNodeLines(error);
    }
    expect(owners).toHaveLength(questionCount);
    for (const [i, client] of played.everyone.entries()) {
      expect(client.gaveUp, `client ${i} gave up`).toBe(false);
      expectInGameOrder(client, `client ${i}`);
    }
    // Every player answered every question, and each answer was acknowledged.
    for (const player of players) {
      const missing = Array.from({ length: questionCount }, (_, i) => i + 1).filter((n) => !player.acks.has(n));
      const story = missing.map((n) => {
        const times = player.messages.filter((m) => m.payload?.questionNumber === n).map((m) => `${m.type}@${Math.round(m.at)}#${m.socket}`);
        return `question ${n}: sent ${player.sent.get(n) ?? 0}, messages ${times.join(" ")}, closes ${player.closes.map((c) => `${c.code}@${Math.round(c.at)}`).join(" ")}, errors ${JSON.stringify(player.errors)}`;
      });
      expect(story, `P${player.playerId}: questions without an acknowledged answer`).toEqual([]);
    }
    const { acknowledged, stored } = await expectAcksInScores(played);
    expect(acknowledged).toBe(players.length * questionCount);
    expect(stored).toBe(acknowledged);
  }, 600_000);

  it("takes over from a hung owner (SIGSTOP) once a socket reaches another node, and fences it: continued, it acknowledges nothing and closes its sockets with 4000", async () => {
    const played = await openGame(6, 3);
    const { host, game } = played;
    host.send("START_GAME", { gameCode: game.gameCode });
    const opened = await questionOpen(host, 1);
    await sleep((opened.payload.endsAt - opened.payload.serverNow) * 0.2);
    const owner = await ownerNow(game.gameCode);
    const node = cluster.node(owner.nodeId);
    const onHungNode = played.everyone.filter((client) => client.open);
    const pausedAt = performance.now();
    node.pause();
    let late: FailoverClient | null = null;
    try {
      // Once the proxy has taken the hung node out (its /readyz does not answer): a socket sent to
      // it before then would wait on it, as a browser's would.
      await until("the proxy to take the hung node out", () => !cluster.proxy.liveNodes().includes(node.id));
      // A player joining late (or any socket reconnecting) goes through the proxy to another node,
      // which claims the game once the hung owner's lease has lapsed.
      const lateId = `late-${randomUUID()}`;
      late = new FailoverClient({
        url: () => gameSocketUrl(cluster.proxyUrl, lateId, game.gameCode),
        join: { type: "JOIN_GAME", payload: { gameCode: game.gameCode, nickname: "Late" } },
        keepMessages: true,
      });
      clients.push(late);
      late.start();
      const taken = await until("another node to own the game", async () => {
        const now = await cluster.ownerOf(game.gameCode);
        return now && now.nodeId !== node.id ? now : null;
      });
      expect(taken.epoch).toBeGreaterThan(owner.epoch);
      await until("the late player in the game on the new owner", () => late!.snapshot);
    } catch (error) {
      throw withNodeLines(error);
    } finally {
      node.resume();
    }
    const resumedAt = performance.now();
    // Once continued, the hung node sends no acknowledgement on the sockets it still held, and closes them with 4000.
    // Most are closed before that, while it hangs, without a close frame (1006): by the proxy once the
    // node's /readyz stopped answering (scripts/cluster-proxy.ts), or by the node that carried them
    // to it once another node owned the game (server/socket/forward.ts).
    await until("the hung node's sockets closed", () => onHungNode.every((client) => client.closes.some((close) => close.at >= pausedAt)), 15_000);
    for (const client of onHungNode) {
      const close = client.closes.find((c) => c.at >= pausedAt)!;
      expect(close.code).toBe(close.at >= resumedAt ? 4000 : 1006);
      expect(client.messages.filter((m) => m.socket === close.socket && m.at >= resumedAt && m.type === "ANSWER_ACCEPTED")).toEqual([]);
    }
    expect((await node.metrics()).get("quiz_night_games_owned")).toBe(0);
    await until("the podium for everyone", () => [...played.everyone, late!].every((client) => client.gameOver), 90_000);
    await expectAcksInScores({ ...played, players: [...played.players, late!] });
  }, 180_000);

  it("brings the players of a hung owner (SIGSTOP) back to the game on another node while it hangs", async () => {
    const played = await openGame(6, 3);
    const { host, game } = played;
    host.send("START_GAME", { gameCode: game.gameCode });
    const opened = await questionOpen(host, 1);
    await sleep((opened.payload.endsAt - opened.payload.serverNow) * 0.2);
    const node = cluster.node((await ownerNow(game.gameCode)).nodeId);
    const pausedAt = performance.now();
    node.pause();
    try {
      // Nothing but the players' own sockets: the proxy has taken the hung node out (its /readyz
      // does not answer), and the issue asks for the game on another node within 10 s.
      await until(
        "every client back in the game while the owner hangs",
        () => played.everyone.every((client) => client.returns.some((back) => back.close.at >= pausedAt)),
        20_000,
      );
    } finally {
      node.resume();
    }
    await until("the podium for everyone", () => played.everyone.every((client) => client.gameOver), 90_000);
  }, 180_000);

  it("drains on SIGTERM: the game's clients see no error, only 4000 and their return; a game on another node sees no disconnect", async () => {
    const drained = await openGame(6, 3);
    const owner = (await ownerNow(drained.game.gameCode)).nodeId;
    // A second game on another node (the codes hash over the nodes; a few tries find one elsewhere).
    let bystander: Played | null = null;
    for (let attempt = 0; attempt < 8 && !bystander; attempt++) {
      const candidate = await openGame(4, 3);
      if ((await ownerNow(candidate.game.gameCode)).nodeId !== owner) bystander = candidate;
      else for (const client of candidate.everyone) client.stop();
    }
    expect(bystander, "a game on another node").not.toBeNull();
    // Their first sockets straight to a non-owner were sent on to the proxy before the drain (openGame): only later closes count.
    const before = new Map([...drained.everyone, ...bystander!.everyone].map((client) => [client, client.closes.length]));
    drained.host.send("START_GAME", { gameCode: drained.game.gameCode });
    bystander!.host.send("START_GAME", { gameCode: bystander!.game.gameCode });
    const opened = await questionOpen(drained.host, 1);
    await sleep((opened.payload.endsAt - opened.payload.serverNow) * 0.3);
    const node = cluster.node(owner);
    const ended = await node.terminate();
    expect(ended.code, "a clean exit after the drain").toBe(0);
    await until("the podium for both games", () => [...drained.everyone, ...bystander!.everyone].every((client) => client.gameOver), 90_000);
    const later = (client: FailoverClient): Close[] => client.closes.slice(before.get(client));
    for (const [i, client] of drained.everyone.entries()) {
      expect(client.errors, `drained client ${i}'s errors`).toEqual([]);
      expect(
        later(client)
          .map((close) => close.code)
          .filter((code) => code !== 4000),
        `drained client ${i}'s closes`,
      ).toEqual([]);
      expect(client.gaveUp).toBe(false);
    }
    for (const [i, client] of bystander!.everyone.entries()) {
      expect(client.errors).toEqual([]);
      // A socket carried by the drained node to its owner ends with that node (its bytes went through
      // it) and comes back; every other socket of the other game stays as it was.
      if (FORWARDING && bystander!.straightTo.get(client) === owner)
        expect(later(client).length, `bystander client ${i}, forwarded by the drained node`).toBeLessThanOrEqual(1);
      else expect(later(client), `bystander client ${i}'s closes`).toEqual([]);
    }
    await expectAcksInScores(drained);
    await expectAcksInScores(bystander!);
    await node.restart();
  }, 240_000);
});
