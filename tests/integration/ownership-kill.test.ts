/**
 * kill -9 of a game's owner, with real processes (docs/decisions/0052-game-ownership-and-fencing.md):
 * two built servers on one PostgreSQL; the game is opened on A, a question is open and a player's
 * answer acknowledged; A is killed with SIGKILL. Its session's advisory lock ends with its
 * connection, so B claims the game at once, far inside the 30 s lease this test gives the nodes:
 * the player, reconnecting to B, is back in the same question with the time it had left and the
 * answer A acknowledged, and the game goes on. Then SIGSTOP (a hang): B claims the game once A's
 * lease has passed; A, continued, stores nothing more (the answer it read meanwhile is neither
 * acknowledged nor stored) and closes its sockets with 4000. Runs in the SQLite pass too, on a
 * PostgreSQL of its own (tests/postgres.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CloseCode } from "#app/game/protocol";
import { openDatabase } from "#db/connection.server";
import { freePort } from "#tests/free-port";
import { testPostgres, type TestPostgres } from "../postgres";
import { SAMPLE_QUESTIONS, postAs, TestClient } from "./harness";
import { describeWithPostgres } from "./with-postgres";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const LEASE_MS = 30_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Node {
  url: string;
  child: ChildProcess;
  output: string[];
}

let postgres: TestPostgres;
let databaseUrl: string;
let dir: string;
const nodes: Node[] = [];

async function startNode(nodeId: string, timings = { heartbeatMs: 1000, leaseMs: LEASE_MS }): Promise<Node> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, [path.join(ROOT, "build/node/server.js")], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: dir,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_PATH: path.join(dir, `${nodeId}.sqlite`),
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: "ownership-kill-test-session-secret-0123456789",
      SEED_DEMO: "false",
      NODE_ID: nodeId,
      NODE_ADDRESS: `127.0.0.1:${port}`,
      NODE_HEARTBEAT_MS: String(timings.heartbeatMs),
      NODE_LEASE_MS: String(timings.leaseMs),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => output.push(String(chunk)));
  child.stderr!.on("data", (chunk) => output.push(String(chunk)));
  const node = { url: `http://127.0.0.1:${port}`, child, output };
  nodes.push(node);
  for (let tries = 0; ; tries++) {
    const ready = await fetch(`${node.url}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (ready === 200) return node;
    if (tries > 300 || child.exitCode !== null) throw new Error(`node ${nodeId} never became ready:\n${output.join("")}`);
    await sleep(100);
  }
}

/** A quiz and a game made over A's API, its host registered; returns its code and the host's client id. */
async function newGame(url: string, label: string): Promise<{ gameCode: string; hostClientId: string }> {
  const hostClientId = `host-${label}-${process.pid}`;
  const quiz = await postAs(
    url,
    "/api/quizzes",
    { title: `Quiz ${label}`, description: "For tests", timeLimit: 60, isPublic: true, creatorId: 1 },
    hostClientId,
  );
  for (const [order, question] of SAMPLE_QUESTIONS.entries()) await postAs(url, "/api/questions", { quizId: quiz.body.id, order, ...question }, hostClientId);
  const game = await postAs(url, "/api/games", { quizId: quiz.body.id, hostId: 1 }, hostClientId);
  expect(game.status).toBe(201);
  const { gameCode } = game.body as { gameCode: string };
  expect((await postAs(url, `/api/games/${gameCode}/register-host`, { clientId: hostClientId }, hostClientId)).status).toBe(200);
  return { gameCode, hostClientId };
}

/** Rejoins `clientId`'s player on `url`, again and again until a node there runs the game. */
async function rejoinWhenTaken(url: string, clientId: string, gameCode: string, nickname: string, withinMs: number) {
  const started = Date.now();
  for (;;) {
    expect(Date.now() - started).toBeLessThan(withinMs);
    const client = await TestClient.connect({ url }, clientId);
    client.send("JOIN_GAME", { gameCode, nickname });
    const snapshot = await client.next("GAME_SNAPSHOT", () => true, 3000).catch(() => null);
    if (snapshot) return { client, snapshot };
    await client.close().catch(() => {});
    await sleep(200);
  }
}

describeWithPostgres("kill -9 of a game's owner", () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-ownership-kill-"));
    postgres = await testPostgres();
    databaseUrl = await postgres.freshDatabase("ownership_kill");
  });

  afterAll(async () => {
    for (const node of nodes) {
      if (node.child.exitCode !== null || node.child.signalCode !== null) continue;
      node.child.kill("SIGCONT");
      node.child.kill("SIGKILL");
    }
    await Promise.all(
      nodes.map(
        (node) => new Promise((resolve) => (node.child.exitCode !== null || node.child.signalCode !== null ? resolve(null) : node.child.once("exit", resolve))),
      ),
    );
    await postgres?.release();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("lets another node take the game at once: the question goes on with its time left and the acknowledged answer kept", async () => {
    const a = await startNode("kill9-a");
    const b = await startNode("kill9-b");

    const hostClientId = `host-kill9-${process.pid}`;
    const quiz = await postAs(
      a.url,
      "/api/quizzes",
      { title: "Kill quiz", description: "For tests", timeLimit: 60, isPublic: true, creatorId: 1 },
      hostClientId,
    );
    for (const [order, question] of SAMPLE_QUESTIONS.entries())
      await postAs(a.url, "/api/questions", { quizId: quiz.body.id, order, ...question }, hostClientId);
    const game = await postAs(a.url, "/api/games", { quizId: quiz.body.id, hostId: 1 }, hostClientId);
    expect(game.status).toBe(201);
    const { gameCode } = game.body as { gameCode: string };
    expect((await postAs(a.url, `/api/games/${gameCode}/register-host`, { clientId: hostClientId }, hostClientId)).status).toBe(200);

    const host = await TestClient.connect(a, hostClientId);
    await host.joinAsHost(gameCode);
    const ann = await TestClient.connect(a);
    const bob = await TestClient.connect(a);
    const annId = await ann.joinAsPlayer(gameCode, "Ann");
    await bob.joinAsPlayer(gameCode, "Bob");
    host.send("START_GAME", { gameCode });
    const question = await ann.next("QUESTION_STARTED");
    ann.send("SUBMIT_ANSWER", { gameCode, playerId: annId, answerIndex: 1 });
    await ann.next("ANSWER_ACCEPTED");

    const killedAt = Date.now();
    a.child.kill("SIGKILL");
    expect(await ann.closedByServer(5000)).not.toBe(1000);

    // Ann reconnects, to B: B claims the game (A's lock went with its process) and she is back in the question.
    let annAgain: TestClient | null = null;
    let snapshot: Awaited<ReturnType<TestClient["next"]>> | null = null;
    while (!snapshot) {
      expect(Date.now() - killedAt).toBeLessThan(LEASE_MS / 3);
      annAgain = await TestClient.connect(b, ann.clientId);
      annAgain.send("JOIN_GAME", { gameCode, nickname: "Ann" });
      snapshot = await annAgain.next("GAME_SNAPSHOT", () => true, 3000).catch(() => null);
      if (!snapshot) await sleep(200);
    }
    expect(snapshot).toMatchObject({ phase: "question", questionNumber: 1 });
    const resumed = await annAgain!.next("QUESTION_STARTED");
    expect(resumed.endsAt).toBe(question.endsAt);
    // Her acknowledged answer is there: the question closes once Bob, the only one left, answers.
    const bobAgain = await TestClient.connect(b, bob.clientId);
    const bobId = await bobAgain.joinAsPlayer(gameCode, "Bob");
    const hostAgain = await TestClient.connect(b, hostClientId);
    await hostAgain.joinAsHost(gameCode);
    bobAgain.send("SUBMIT_ANSWER", { gameCode, playerId: bobId, answerIndex: 0 });
    await annAgain!.next("ANSWER_RESULTS");
    // Scored once: Ann's right answer, stored by A, counts in B's leaderboard.
    const leaderboard = await hostAgain.next("LEADERBOARD_UPDATE", () => true, 10_000);
    const standing = (nickname: string) => leaderboard.players.find((player) => player.nickname === nickname)?.score;
    expect(standing("Ann")).toBeGreaterThan(0);
    expect(standing("Bob")).toBe(0);
    await Promise.all([annAgain!.close(), bobAgain.close(), hostAgain.close()]);
  }, 60_000);

  it("fences a hung owner (SIGSTOP): once continued it stores nothing more and sends its sockets to reconnect", async () => {
    const timings = { heartbeatMs: 300, leaseMs: 1200 };
    const a = await startNode("stop-a", timings);
    const b = await startNode("stop-b", timings);
    const { gameCode, hostClientId } = await newGame(a.url, "stop");
    const host = await TestClient.connect(a, hostClientId);
    await host.joinAsHost(gameCode);
    const ann = await TestClient.connect(a);
    const bob = await TestClient.connect(a);
    await ann.joinAsPlayer(gameCode, "Ann");
    const bobId = await bob.joinAsPlayer(gameCode, "Bob");
    host.send("START_GAME", { gameCode });
    await bob.next("QUESTION_STARTED");

    a.child.kill("SIGSTOP");
    // Bob's answer reaches A's socket while A hangs; A reads it only once continued.
    bob.send("SUBMIT_ANSWER", { gameCode, playerId: bobId, answerIndex: 1 });
    // Ann goes to B, which takes the game once A's lease has passed.
    const { client: annOnB, snapshot } = await rejoinWhenTaken(b.url, ann.clientId, gameCode, "Ann", 15_000);
    expect(snapshot).toMatchObject({ phase: "question", questionNumber: 1 });

    a.child.kill("SIGCONT");
    expect(await bob.closedByServer(10_000)).toBe(CloseCode.SERVER_RESTARTING);
    expect(await host.closedByServer(10_000)).toBe(CloseCode.SERVER_RESTARTING);
    expect(bob.received.some((entry) => entry.message.type === "ANSWER_ACCEPTED")).toBe(false);
    const db = openDatabase(databaseUrl, { poolSize: 1 });
    try {
      const answers = () =>
        db
          .selectFrom("answers")
          .innerJoin("games", "games.id", "answers.game_id")
          .where("games.game_code", "=", gameCode)
          .select("answers.player_id")
          .execute();
      expect(await answers()).toEqual([]);
      // Bob answers again on B: stored once.
      const bobOnB = await TestClient.connect(b, bob.clientId);
      await bobOnB.joinAsPlayer(gameCode, "Bob");
      bobOnB.send("SUBMIT_ANSWER", { gameCode, playerId: bobId, answerIndex: 1 });
      await bobOnB.next("ANSWER_ACCEPTED");
      expect(await answers()).toEqual([{ player_id: bobId }]);
      await Promise.all([annOnB.close(), bobOnB.close()]);
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
