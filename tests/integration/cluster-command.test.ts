/**
 * `npm run cluster` end to end (scripts/cluster.ts, issue 28 "Run it"): the command as a person
 * runs it, from the production build, with a real PostgreSQL from Debian's binaries and two real
 * node processes behind its proxy. It prints the URL; a quiz and a game made over the API (whose
 * requests go round robin, so both nodes read and write the one database) are played through the
 * proxy by a host and two players whose sockets name the game, with a player on each node straight
 * (the node that does not own the game forwards that socket); Ctrl-C (SIGINT) stops everything:
 * the command exits 0, and no node, proxy or PostgreSQL is left listening. Without PostgreSQL's
 * programs it is skipped, saying so, unless REQUIRE_POSTGRES_TESTS=1 (CI).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import WebSocket from "ws";
import { freePort } from "#tests/free-port";
import { startLocalCluster } from "../../scripts/cluster-lib";
import { SAMPLE_QUESTIONS } from "./harness";
import { describeWithPostgres } from "./with-postgres";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const NODES = 2;
/** The nodes inherit it, so the test reads each node's /metrics. */
const METRICS_TOKEN = "cluster-command-test-metrics-token";

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** A port P with P+1..P+NODES free too: the command puts its proxy on P and the nodes after it. */
async function freePortRun(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await freePort();
    const next = await Promise.all(Array.from({ length: NODES }, (_, i) => listening(port + 1 + i)));
    if (port + NODES < 65536 && next.every((busy) => !busy)) return port;
  }
  throw new Error("no run of free ports found");
}

/** A game socket as the browser opens it, naming its game, that keeps what the server sends. */
class GameSocket {
  readonly messages: { type: string; payload: any }[] = [];
  private constructor(readonly socket: WebSocket) {
    socket.on("message", (data) => this.messages.push(JSON.parse(String(data)) as { type: string; payload: any }));
  }

  static async open(base: string, clientId: string, gameCode: string, cookie = `quiz_client_id=${clientId}`): Promise<GameSocket> {
    const socket = new WebSocket(`${base.replace(/^http/, "ws")}/ws?clientId=${clientId}&game=${gameCode}`, { headers: { origin: base, cookie } });
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    return new GameSocket(socket);
  }

  send(type: string, payload: unknown): void {
    this.socket.send(JSON.stringify({ type, payload }));
  }

  /** The first message of `type` (matching `where`) received so far or within 10 s. */
  async next(type: string, where: (payload: any) => boolean = () => true): Promise<any> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = this.messages.find((message) => message.type === type && where(message.payload));
      if (found) return found.payload;
      if (Date.now() > deadline) throw new Error(`no ${type} within 10 s; got ${this.messages.map((message) => message.type).join(", ")}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describeWithPostgres("npm run cluster", () => {
  let command: ChildProcess;
  let output = "";
  let url: string;
  let port: number;
  const sockets: GameSocket[] = [];

  beforeAll(async () => {
    expect(fs.existsSync(path.join(ROOT, "build/node/server.js")), "the build (npm run build)").toBe(true);
    port = await freePortRun();
    // What `npm run cluster` runs after its build.
    command = spawn(process.execPath, ["--import", "tsx", "scripts/cluster.ts", "--nodes", String(NODES), "--port", String(port), "--host", "127.0.0.1"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      // The nodes inherit it: a 2 s drain instead of a cluster's 20, so the Ctrl-C below, with the
      // game still open, ends in seconds (docs/deployment.md, "Several nodes").
      env: { ...process.env, DRAIN_SECONDS: "2", METRICS_TOKEN },
    });
    command.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    command.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 90_000;
    while (!/^Open (http:\/\/\S+)/m.test(output)) {
      if (command.exitCode !== null) throw new Error(`npm run cluster exited with ${command.exitCode}:\n${output}`);
      if (Date.now() > deadline) throw new Error(`npm run cluster printed no URL within 90 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    url = /^Open (http:\/\/\S+)/m.exec(output)![1]!;
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.socket.terminate();
    if (command && command.exitCode === null && command.signalCode === null) {
      command.kill("SIGINT");
      await new Promise((resolve) => command.once("exit", resolve));
    }
  });

  it("prints its URL, where every node is live behind the proxy", async () => {
    expect(url).toBe(`http://127.0.0.1:${port}`);
    for (let i = 1; i <= NODES; i++) expect(output).toContain(`node-${i}: http://127.0.0.1:${port + i}`);
    const reply = await fetch(`${url}/healthz`);
    expect(reply.status).toBe(200);
    for (let i = 1; i <= NODES; i++) expect((await fetch(`http://127.0.0.1:${port + i}/readyz`)).status).toBe(200);
  });

  it("plays a game made over the API (any node) through the proxy, its sockets naming it", async () => {
    const hostClientId = `host-${randomUUID()}`;
    // The host's browser keeps the cookies it is given (its host secret, docs/decisions/0044) for its socket.
    const hostCookies = new Map([["quiz_client_id", hostClientId]]);
    const cookieHeader = () => [...hostCookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const api = async (pathname: string, body: unknown) => {
      const reply = await fetch(`${url}${pathname}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: url, cookie: cookieHeader() },
        body: JSON.stringify(body),
      });
      for (const line of reply.headers.getSetCookie()) {
        const pair = line.split(";")[0]!;
        hostCookies.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
      }
      return { status: reply.status, body: (await reply.json()) as any };
    };
    const quiz = await api("/api/quizzes", { title: "Across nodes", description: "", timeLimit: 30, isPublic: false });
    expect(quiz.status).toBe(201);
    for (const [order, question] of SAMPLE_QUESTIONS.entries()) {
      expect((await api("/api/questions", { quizId: quiz.body.id, order, ...question })).status).toBe(201);
    }
    const game = await api("/api/games", { quizId: quiz.body.id });
    expect(game.status).toBe(201);
    const gameCode = game.body.gameCode as string;
    expect((await api(`/api/games/${gameCode}/register-host`, { clientId: hostClientId })).status).toBe(200);

    const host = await GameSocket.open(url, hostClientId, gameCode, cookieHeader());
    sockets.push(host);
    host.send("JOIN_GAME", { gameCode, nickname: "__HOST__" });
    expect(await host.next("GAME_SNAPSHOT", (payload) => payload.role === "host")).toMatchObject({ gameCode, phase: "lobby" });
    const players = await Promise.all(["Ann", "Bob"].map(() => GameSocket.open(url, `player-${randomUUID()}`, gameCode)));
    sockets.push(...players);
    for (const [i, player] of players.entries()) {
      player.send("JOIN_GAME", { gameCode, nickname: ["Ann", "Bob"][i] });
      await host.next("PLAYER_JOINED", (payload) => payload.player.nickname === ["Ann", "Bob"][i]);
    }
    // A phone whose socket reaches each node straight (a stale hash, a round-robin balancer): the
    // node that does not own the game passes it on to the one that does (docs/decisions/0056).
    for (let i = 1; i <= NODES; i++) {
      const direct = await GameSocket.open(`http://127.0.0.1:${port + i}`, `direct-${i}-${randomUUID()}`, gameCode);
      sockets.push(direct);
      direct.send("JOIN_GAME", { gameCode, nickname: `Direct ${i}` });
      await host.next("PLAYER_JOINED", (payload) => payload.player.nickname === `Direct ${i}`);
    }
    let forwarded = 0;
    for (let i = 1; i <= NODES; i++) {
      const metrics = await (await fetch(`http://127.0.0.1:${port + i}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      forwarded += Number(/^quiz_night_forwarded_sockets_total (\d+)/m.exec(metrics)?.[1] ?? 0);
    }
    expect(forwarded).toBe(NODES - 1);

    host.send("START_GAME", { gameCode });
    for (const player of players) expect(await player.next("QUESTION_STARTED")).toMatchObject({ questionNumber: 1 });
    const ann = await players[0]!.next("PLAYER_JOINED", (payload) => payload.player.nickname === "Ann");
    players[0]!.send("SUBMIT_ANSWER", { gameCode, playerId: ann.player.id, answerIndex: 1 });
    expect(await players[0]!.next("ANSWER_ACCEPTED")).toEqual({ questionNumber: 1, answerIndex: 1 });
  });

  it("stops everything on Ctrl-C (SIGINT): exits 0, and nothing is left listening", async () => {
    const postgresPort = Number(/postgres:\/\/\S+@127\.0\.0\.1:(\d+)\//.exec(output)?.[1]);
    expect(postgresPort).toBeGreaterThan(0);
    const exited = new Promise<number | null>((resolve) => command.once("exit", (code) => resolve(code)));
    command.kill("SIGINT");
    expect(await exited, output.slice(-2000)).toBe(0);
    expect(output).toContain("Stopped.");
    const ports = [port, ...Array.from({ length: NODES }, (_, i) => port + 1 + i), postgresPort];
    expect(await Promise.all(ports.map(listening))).toEqual(ports.map(() => false));
  }, 60_000);
});

describeWithPostgres("a cluster's nodes on ports chosen free", () => {
  it("start a node again on another port when its own was taken between the choice and its start", async () => {
    // The first port handed out is held by another process by the time the node binds it.
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
    const taken = (squatter.address() as net.AddressInfo).port;
    let handedOut = 0;
    const choosePort = () => (handedOut++ === 0 ? Promise.resolve(taken) : freePort());
    const lines: string[] = [];
    const cluster = await startLocalCluster({ nodes: 1, choosePort, log: (line) => lines.push(line), postgres: { fsync: false } });
    try {
      const node = cluster.node("node-1");
      expect(node.port).not.toBe(taken);
      expect((await fetch(`${node.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${cluster.proxyUrl}/healthz`)).status).toBe(200);
      expect(lines.join("\n")).toContain(`port ${taken} was taken meanwhile`);
    } finally {
      await cluster.stop();
      squatter.close();
    }
  }, 90_000);
});
