/**
 * What a forwarded socket adds (issue 28's acceptance: "a forwarded socket adds under 3 ms to
 * delivery p99"; docs/decisions/0056-forwarding-and-signals.md). Two nodes of the build on one
 * throwaway PostgreSQL (scripts/local-postgres.ts); one game owned by node A; half its players
 * connect to A, half to B, which forwards them to A. Every question reaches both halves from the
 * same broadcast on A, so the two halves' figures differ by the hop alone:
 *
 * - delivery: QUESTION_STARTED's arrival less the owner's `serverNow` in it (one clock: one machine);
 * - ack: SUBMIT_ANSWER's send to its ANSWER_ACCEPTED (a round trip, so the hop twice).
 *
 *   npx tsx bench/forwarded.ts [--players 200] [--questions 10] [--runs 3] [--client lean|ws]
 *
 * Prints each run's figures and the medians of the runs. The first question of each game is kept
 * apart (docs/decisions/0055-where-the-outsiders-ratio-went.md: it is the slowest).
 */
import { parseArgs } from "node:util";
import { startLocalPostgres } from "../scripts/local-postgres";
import { HOST_NICKNAME } from "#app/game/rules";
import { openClientSocket, type ClientSocket } from "./client-socket";
import { frameTypeOf } from "./lean-socket";
import { benchServerEnv, startGameServer, type GameServer } from "./game-server";
import { loopbackAddress, postJson } from "./loopback";
import { cookieOf } from "./cookie-jar";
import { benchQuestions } from "./questions";
import { ensureBuild, log, root, within } from "./processes";
import { median, summarize, type LatencySummary } from "./stats";
import { freePort } from "../tests/free-port";

const { values: args } = parseArgs({
  options: {
    players: { type: "string", default: "200" },
    questions: { type: "string", default: "10" },
    runs: { type: "string", default: "3" },
    client: { type: "string", default: "lean" },
  },
});
const PLAYERS = Number(args.players);
const QUESTIONS = Number(args.questions);
const RUNS = Number(args.runs);
// bench/client-socket.ts reads the client kind from the environment, as the load workers do.
process.env.BENCH_CLIENT = args.client;

/** Each player answers at a random moment this long after the question reached it. */
const ANSWER_AFTER_MS = 500;

type Path = "direct" | "forwarded";
interface PathSamples {
  deliveryFirst: number[];
  delivery: number[];
  ack: number[];
}
type RunSamples = Record<Path, PathSamples>;

async function startNode(databaseUrl: string, nodeId: string): Promise<GameServer> {
  const port = await freePort();
  return startGameServer({
    root,
    env: {
      ...benchServerEnv(100_000, PLAYERS),
      DATABASE_URL: databaseUrl,
      NODE_ID: nodeId,
      PORT: String(port),
      NODE_ADDRESS: `127.0.0.1:${port}`,
    },
  });
}

const wsUrl = (server: GameServer, clientId: string, gameCode: string) =>
  `${server.url.replace("http", "ws")}/ws?clientId=${encodeURIComponent(clientId)}&game=${gameCode}`;

async function playOneGame(nodeA: GameServer, nodeB: GameServer, run: number): Promise<RunSamples> {
  const hostId = `bench-host-${run}`;
  const hostAddress = loopbackAddress(0);
  const post = (pathname: string, body: unknown) => postJson(nodeA.url, pathname, body, hostId, hostAddress);
  const questions = benchQuestions("choice", QUESTIONS, null);
  const quiz = (await post("/api/quizzes", { title: "Forwarding benchmark", timeLimit: 20, isPublic: false })) as { id: number };
  for (const question of questions) await post("/api/questions", { quizId: quiz.id, ...question.body });
  const { gameCode } = (await post("/api/games", { quizId: quiz.id })) as { gameCode: string };
  await post(`/api/games/${gameCode}/register-host`, { clientId: hostId });

  // The host on A first: A claims the game and owns it.
  const host = await openClientSocket(wsUrl(nodeA, hostId, gameCode), { localAddress: hostAddress, cookie: cookieOf(hostId) });
  const hostReady = new Promise<void>((resolve) => host.on("message", (data: Buffer) => frameTypeOf(data) === "GAME_SNAPSHOT" && resolve()));
  host.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode, nickname: HOST_NICKNAME } }));
  await within(hostReady, 10_000, "the host's snapshot");

  const samples: RunSamples = {
    direct: { deliveryFirst: [], delivery: [], ack: [] },
    forwarded: { deliveryFirst: [], delivery: [], ack: [] },
  };
  const sockets: ClientSocket[] = [];
  let over = 0;
  let allOver: () => void = () => {};
  const gameOver = new Promise<void>((resolve) => (allOver = resolve));

  const join = async (index: number) => {
    const path: Path = index % 2 === 0 ? "direct" : "forwarded";
    const clientId = `bench-player-${run}-${index}`;
    const socket = await openClientSocket(wsUrl(path === "direct" ? nodeA : nodeB, clientId, gameCode), { localAddress: loopbackAddress(index + 1) });
    sockets.push(socket);
    let playerId = 0;
    let ackFrom = 0;
    await new Promise<void>((joined) => {
      socket.on("message", (data: Buffer) => {
        // Sub-millisecond, on the clock `serverNow` is read from (Date.now, on the same machine).
        const receivedAt = performance.timeOrigin + performance.now();
        switch (frameTypeOf(data)) {
          case "PLAYER_JOINED":
            if (playerId === 0) {
              playerId = JSON.parse(data.toString()).payload.player.id;
              joined();
            }
            return;
          case "QUESTION_STARTED": {
            const { payload } = JSON.parse(data.toString());
            (payload.questionNumber === 1 ? samples[path].deliveryFirst : samples[path].delivery).push(receivedAt - payload.serverNow);
            // Answered a moment later, at random: the answers sent by the first to hear the question
            // must not hold back this process's reading of the others'. The question closes when
            // everyone has answered, and the game goes on.
            setTimeout(() => {
              ackFrom = performance.now();
              socket.send(JSON.stringify({ type: "SUBMIT_ANSWER", payload: { gameCode, playerId, answerIndex: 0, time: 0 } }));
            }, ANSWER_AFTER_MS * Math.random());
            return;
          }
          case "ANSWER_ACCEPTED":
            samples[path].ack.push(performance.now() - ackFrom);
            return;
          case "GAME_OVER":
            if (++over === PLAYERS) allOver();
            return;
        }
      });
      socket.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode, nickname: `P${index}` } }));
    });
  };
  for (let start = 0; start < PLAYERS; start += 20) {
    await within(Promise.all(Array.from({ length: Math.min(20, PLAYERS - start) }, (_, offset) => join(start + offset))), 30_000, "players joining");
  }
  host.send(JSON.stringify({ type: "START_GAME", payload: { gameCode } }));
  await within(gameOver, QUESTIONS * 30_000, "the game's end");
  for (const socket of [host, ...sockets]) socket.close();
  return samples;
}

function line(name: string, summary: LatencySummary): string {
  return `${name.padEnd(28)} p50 ${String(summary.p50).padStart(6)} · p99 ${String(summary.p99).padStart(6)} · max ${String(summary.max).padStart(6)} ms (n=${summary.n})`;
}

async function main(): Promise<void> {
  ensureBuild();
  log("starting a throwaway PostgreSQL");
  const postgres = await startLocalPostgres({ fsync: false, settings: { max_connections: "200" } });
  const figures: { deliveryAdded: number; ackAdded: number; direct: number; forwarded: number }[] = [];
  try {
    for (let run = 1; run <= RUNS; run++) {
      const databaseUrl = await postgres.createDatabase(`forwarded_bench_${run}`);
      const nodeA = await startNode(databaseUrl, "node-a");
      const nodeB = await startNode(databaseUrl, "node-b");
      try {
        log(`run ${run}/${RUNS}: ${PLAYERS} players (half through node B), ${QUESTIONS} questions, client ${args.client}`);
        const samples = await playOneGame(nodeA, nodeB, run);
        const summary = (path: Path) => ({
          first: summarize(samples[path].deliveryFirst),
          delivery: summarize(samples[path].delivery),
          ack: summarize(samples[path].ack),
        });
        const direct = summary("direct");
        const forwarded = summary("forwarded");
        console.log(`\nrun ${run}`);
        console.log(line("delivery, direct", direct.delivery));
        console.log(line("delivery, forwarded", forwarded.delivery));
        console.log(line("first question, direct", direct.first));
        console.log(line("first question, forwarded", forwarded.first));
        console.log(line("answer ack, direct", direct.ack));
        console.log(line("answer ack, forwarded", forwarded.ack));
        const deliveryAdded = Math.round((forwarded.delivery.p99 - direct.delivery.p99) * 10) / 10;
        const ackAdded = Math.round((forwarded.ack.p99 - direct.ack.p99) * 10) / 10;
        console.log(`forwarding adds ${deliveryAdded} ms to delivery p99, ${ackAdded} ms to answer ack p99 (a round trip: two hops)`);
        figures.push({ deliveryAdded, ackAdded, direct: direct.delivery.p99, forwarded: forwarded.delivery.p99 });
      } finally {
        await Promise.all([nodeB.stop(), nodeA.stop()]);
      }
    }
  } finally {
    await postgres.stop();
  }
  console.log(`\nmedians of ${RUNS} runs (${PLAYERS} players, ${QUESTIONS} questions, client ${args.client}):`);
  console.log(`delivery p99: direct ${median(figures.map((figure) => figure.direct))} ms, forwarded ${median(figures.map((figure) => figure.forwarded))} ms`);
  console.log(
    `forwarding adds to delivery p99: ${median(figures.map((figure) => figure.deliveryAdded))} ms (runs: ${figures.map((figure) => figure.deliveryAdded).join(", ")})`,
  );
  console.log(
    `forwarding adds to answer ack p99: ${median(figures.map((figure) => figure.ackAdded))} ms (runs: ${figures.map((figure) => figure.ackAdded).join(", ")})`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
