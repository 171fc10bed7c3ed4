/**
 * A node's drain on SIGTERM (issue 28, server/drain.ts), on the built server in a process of its
 * own: /readyz answers 503 at once while /healthz and the live game go on, a new socket for a game
 * the node does not hold is closed with 4000, and when DRAIN_SECONDS are over the game's sockets
 * are closed with 4000 and the process exits cleanly, before its deadline's forced exit.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CloseCode } from "#app/game/protocol";
import { SHUTDOWN_SECONDS } from "#server/drain";
import { freePort } from "#tests/free-port";
import { SAMPLE_QUESTIONS, postAs, TestClient } from "./harness";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DRAIN_SECONDS = 3;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A game with its host registered, on a server the harness did not start. */
async function createGame(url: string): Promise<{ gameCode: string; hostClientId: string }> {
  const hostClientId = `host-drain-${process.pid}`;
  const quiz = await postAs(url, "/api/quizzes", { title: "Drain quiz", description: "For tests", timeLimit: 30, isPublic: true, creatorId: 1 }, hostClientId);
  for (const [order, question] of SAMPLE_QUESTIONS.entries()) await postAs(url, "/api/questions", { quizId: quiz.body.id, order, ...question }, hostClientId);
  const game = await postAs(url, "/api/games", { quizId: quiz.body.id, hostId: 1 }, hostClientId);
  expect(game.status).toBe(201);
  expect((await postAs(url, `/api/games/${game.body.gameCode}/register-host`, { clientId: hostClientId }, hostClientId)).status).toBe(200);
  return { gameCode: game.body.gameCode, hostClientId };
}

/** Opens a socket and resolves with the code it is closed with. */
async function closeCodeOf(url: string): Promise<number> {
  const socket = new WebSocket(url);
  return new Promise((resolve, reject) => {
    socket.once("close", (code) => resolve(code));
    socket.once("error", reject);
  });
}

describe("SIGTERM drains the node, then stops it", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-drain-"));
  const output: string[] = [];
  let child: ChildProcess;
  let url: string;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [path.join(ROOT, "build/node/server.js")], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: dir,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        DATABASE_PATH: path.join(dir, "quiz.sqlite"),
        SESSION_SECRET: "drain-test-session-secret-0123456789abcdef",
        SEED_DEMO: "false",
        DRAIN_SECONDS: String(DRAIN_SECONDS),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (chunk) => output.push(String(chunk)));
    child.stderr!.on("data", (chunk) => output.push(String(chunk)));
    exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    for (let tries = 0; ; tries++) {
      const ready = await fetch(`${url}/readyz`).then(
        (response) => response.status,
        () => 0,
      );
      if (ready === 200) break;
      if (tries > 300) throw new Error(`the server never became ready:\n${output.join("")}`);
      await sleep(100);
    }
  });

  afterAll(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers 503 on /readyz while it serves its game, turns away sockets for other games with 4000, and exits cleanly in time", async () => {
    expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: "ready" });
    const { gameCode, hostClientId } = await createGame(url);
    const host = await TestClient.connect({ url }, hostClientId);
    const player = await TestClient.connect({ url });
    await host.joinAsHost(gameCode);
    await player.joinAsPlayer(gameCode, "Ann");

    const signalledAt = Date.now();
    child.kill("SIGTERM");
    let readyz: Response;
    do readyz = await fetch(`${url}/readyz`);
    while (readyz.status === 200);
    expect(readyz.status).toBe(503);
    expect(await readyz.json()).toEqual({ status: "not ready", reason: "draining" });
    // Liveness is not readiness: a draining node is not to be restarted.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    // Its live game goes on.
    host.send("START_GAME", { gameCode });
    await player.next("QUESTION_STARTED");
    // A player of that game still reaches it; a socket for another game, or none, is sent elsewhere.
    const wsUrl = `${url.replace("http", "ws")}/ws`;
    const held = new WebSocket(`${wsUrl}?clientId=late-player&game=${gameCode}`);
    await new Promise<void>((resolve, reject) => {
      held.once("open", () => resolve());
      held.once("error", reject);
    });
    const heldJoined = new Promise<void>((resolve) =>
      held.on("message", (data) => {
        if ((JSON.parse(String(data)) as { type: string }).type === "GAME_SNAPSHOT") resolve();
      }),
    );
    held.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode, nickname: "Late" } }));
    await heldJoined;
    expect(await closeCodeOf(`${wsUrl}?clientId=elsewhere&game=ZZZ234`)).toBe(CloseCode.SERVER_RESTARTING);
    expect(await closeCodeOf(`${wsUrl}?clientId=nowhere`)).toBe(CloseCode.SERVER_RESTARTING);

    // Then the shutdown: every socket of the game closed with 4000, and a clean exit (0: not the deadline's forced 1).
    const heldClosed = new Promise<number>((resolve) => held.once("close", (code) => resolve(code)));
    expect(await player.closedByServer(15_000)).toBe(CloseCode.SERVER_RESTARTING);
    expect(await host.closedByServer(15_000)).toBe(CloseCode.SERVER_RESTARTING);
    expect(await heldClosed).toBe(CloseCode.SERVER_RESTARTING);
    const exit = await Promise.race([exited, sleep((DRAIN_SECONDS + SHUTDOWN_SECONDS + 5) * 1000).then(() => null)]);
    expect(exit, output.join("")).toEqual({ code: 0, signal: null });
    // The game was served for the drain, not closed at the signal.
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(DRAIN_SECONDS * 1000);
    expect(output.join("")).toContain('"event":"drain_started"');
  }, 60_000);
});
