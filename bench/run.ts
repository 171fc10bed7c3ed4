/**
 * `npm run bench [-- --players N --questions Q]`: starts the production server (from the existing
 * build) on a loopback port with a fresh database, plays one game with N simulated players who
 * answer at random moments, and prints delivery and acknowledgement latencies. Figures, not tests.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import WebSocket from "ws";

const { values } = parseArgs({
  options: {
    players: { type: "string", default: "500" },
    questions: { type: "string", default: "5" },
    "time-limit": { type: "string", default: "10" },
  },
});
const playerCount = Number(values.players);
const questionCount = Number(values.questions);
const timeLimit = Number(values["time-limit"]);
const root = path.resolve(import.meta.dirname, "..");

if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
  console.error("No build found: run `npm run build` first.");
  process.exit(1);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  return { p50: round(percentile(sorted, 50)), p95: round(percentile(sorted, 95)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? NaN), n: sorted.length };
}

async function startServer(): Promise<{ url: string; stop: () => Promise<void>; pid: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-bench-"));
  const child = spawn(path.join(root, "node_modules/.bin/tsx"), ["server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_PATH: path.join(dir, "bench.sqlite"),
      SEED_DEMO: "false",
      RESULTS_DELAY_MS: "500",
      NEXT_QUESTION_SECONDS: "1",
      SESSION_SECRET: "bench-secret-bench-secret-bench-secret-00",
      // Every simulated player comes from this machine's one address.
      JOIN_LIMIT_PER_IP: "1000000",
      JOIN_LIMIT_PER_GAME: "1000000",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      const match = /running at (http:\/\/\S+)/.exec(chunk.toString());
      if (match) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function api(url: string, pathname: string, body: unknown, clientId: string) {
  const response = await fetch(url + pathname, { method: "POST", headers: { "content-type": "application/json", "x-client-id": clientId }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
  return response.json();
}

function open(url: string, clientId: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace("http", "ws")}/ws?clientId=${clientId}`);
    socket.once("open", () => resolve(socket));
    socket.once("error", reject);
  });
}

async function main() {
  const server = await startServer();
  const hostId = "bench-host";
  const quiz = await api(server.url, "/api/quizzes", { title: "Bench", timeLimit, isPublic: false }, hostId);
  for (let order = 0; order < questionCount; order++) {
    await api(server.url, "/api/questions", { quizId: quiz.id, text: `Q${order}`, answers: ["a", "b", "c", "d"], correctAnswerIndex: order % 4, order }, hostId);
  }
  const game = await api(server.url, "/api/games", { quizId: quiz.id }, hostId);
  await api(server.url, `/api/games/${game.gameCode}/register-host`, { clientId: hostId }, hostId);

  const host = await open(server.url, hostId);
  host.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode: game.gameCode, nickname: "__HOST__" } }));

  const deliveries: number[] = [];
  const acks: number[] = [];
  let sent = 0;
  let acknowledged = 0;
  let joined = 0;
  let finished = 0;
  const joinStart = performance.now();
  let allJoined!: () => void;
  const everyoneIn = new Promise<void>((resolve) => (allJoined = resolve));
  let allFinished!: () => void;
  const gameOver = new Promise<void>((resolve) => (allFinished = resolve));

  const sockets = await Promise.all(
    Array.from({ length: playerCount }, async (_, index) => {
      const socket = await open(server.url, `bench-${index}`);
      let playerId = 0;
      let answerSentAt = 0;
      socket.on("message", (data) => {
        const message = JSON.parse(data.toString());
        switch (message.type) {
          case "PLAYER_JOINED":
            playerId = message.payload.player.id;
            if (++joined === playerCount) allJoined();
            break;
          case "QUESTION_STARTED": {
            deliveries.push(Date.now() - message.payload.serverNow);
            const delay = Math.random() * (timeLimit * 1000 * 0.8);
            setTimeout(() => {
              answerSentAt = performance.now();
              sent++;
              socket.send(JSON.stringify({ type: "SUBMIT_ANSWER", payload: { gameCode: game.gameCode, playerId, answerIndex: Math.floor(Math.random() * 4) } }));
            }, delay);
            break;
          }
          case "ANSWER_ACCEPTED":
            acknowledged++;
            acks.push(performance.now() - answerSentAt);
            break;
          case "GAME_OVER":
            if (++finished === playerCount) allFinished();
            break;
        }
      });
      socket.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode: game.gameCode, nickname: `P${index}` } }));
      return socket;
    }),
  );
  await everyoneIn;
  const joinSeconds = (performance.now() - joinStart) / 1000;
  host.send(JSON.stringify({ type: "START_GAME", payload: { gameCode: game.gameCode } }));
  await gameOver;

  const results = await (await fetch(`${server.url}/api/games/${game.gameCode}/results`, { headers: { "x-client-id": hostId } })).json();
  const stored = results.players.reduce((sum: number, player: { answeredCount: number }) => sum + player.answeredCount, 0);
  const rows = {
    players: playerCount,
    questions: questionCount,
    joinSeconds: Number(joinSeconds.toFixed(2)),
    joinRatePerSecond: Math.round(playerCount / joinSeconds),
    questionDeliveryMs: summary(deliveries),
    answerAckMs: summary(acks),
    answersSent: sent,
    answersAcknowledged: acknowledged,
    answersInFinalScores: stored,
  };
  console.table({ ...rows, questionDeliveryMs: JSON.stringify(rows.questionDeliveryMs), answerAckMs: JSON.stringify(rows.answerAckMs) });
  fs.writeFileSync(path.join(root, "bench/results.json"), JSON.stringify({ machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`, ...rows }, null, 2));
  for (const socket of [host, ...sockets]) socket.close();
  await server.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
