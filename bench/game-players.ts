/**
 * The many-games mode's side of a load-generator process (bench/load-worker.ts runs it): for each
 * game it was dealt, a host on its own loopback address creates the quiz and the game over the HTTP
 * API and joins as host over the socket, then the game's players join, each from its own address
 * too (bench/loopback.ts). When the parent says so, each host starts its game at its moment; the
 * games then run by the server's own timers, every player answering every question at a random
 * moment of its window. It reports raw samples and per-game counts to the parent over IPC.
 *
 * Lean on purpose (the load generator shares two cores with the server): a frame's type is read
 * from its first bytes, and only the frames a player must act on (its own PLAYER_JOINED, a question,
 * an acknowledgement, an error) are parsed.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";
import { openClientSocket, type ClientSocket } from "./client-socket";
import { frameTypeOf } from "./lean-socket";
import { HOST_NICKNAME } from "#app/game/rules";
import type { QuestionKind } from "#app/game/question-kinds";
import type { GameTally, GamesSetupCommand, QuestionSamples, WorkerReport } from "./ipc";
import { gameAddresses, postJson } from "./loopback";
import { answerFor } from "./questions";
import { cookieOf } from "./cookie-jar";

/** Games whose host sets up at once in this process, and players of one game that connect at once. */
const SETUP_LANES = 5;
const PLAYER_CONNECT_LANES = 10;
const CONNECT_ATTEMPTS = 5;

interface LiveGame {
  game: number;
  code: string;
  host: ClientSocket;
  tally: GameTally;
}

let games: LiveGame[] = [];
let sockets: ClientSocket[] = [];
let startTimers: NodeJS.Timeout[] = [];

/** Samples of every game this process drives: the first question's apart, since every game's start can fall at one moment. */
let deliveries: QuestionSamples = { first: [], later: [] };
let acks: QuestionSamples = { first: [], later: [] };
let errors: string[] = [];
/** This process's own load while the games play: whether the generator, not the server, was late. */
let loopDelay: IntervalHistogram | null = null;
let cpuAtStart: NodeJS.CpuUsage | null = null;
/** Hosts and players still waiting for GAME_OVER (or cut off). */
let remaining = 0;
let finishedReported = false;

function report(message: WorkerReport): void {
  process.send!(message);
}

async function connectWithRetry(url: string, localAddress: string, cookie?: string): Promise<ClientSocket> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await openClientSocket(url, { localAddress, cookie });
    } catch (error) {
      if (attempt >= CONNECT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/** Runs `task` over the items, at most `lanes` at a time. */
async function inLanes<T>(items: readonly T[], lanes: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
}

function finishOne(): void {
  if (--remaining > 0 || finishedReported) return;
  finishedReported = true;
  const cpu = process.cpuUsage(cpuAtStart ?? undefined);
  loopDelay?.disable();
  report({
    event: "gamesFinished",
    at: Date.now(),
    games: games.map((game) => game.tally),
    deliveries,
    acks,
    errors: errors.slice(0, 50),
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    loopDelayP99Ms: loopDelay ? loopDelay.percentile(99) / 1e6 : NaN,
    loopDelayMaxMs: loopDelay ? loopDelay.max / 1e6 : NaN,
  });
}

function recordError(code: string, who: string, data: Buffer): void {
  const message = `${code} ${who}: ${JSON.parse(data.toString()).payload?.message ?? "?"}`;
  if (errors.length < 1000) errors.push(message);
}

/** The host: creates the quiz and the game from its own address, then joins as host and watches for the end. */
async function setUpHost(command: GamesSetupCommand, game: number): Promise<LiveGame> {
  const { host: address } = gameAddresses(game, command.playersPerGame);
  const clientId = `bench-g${game}-host`;
  const post = (pathname: string, body: unknown) => postJson(command.httpUrl, pathname, body, clientId, address);
  const quiz = await post("/api/quizzes", { title: `Capacity benchmark, game ${game + 1}`, timeLimit: command.timeLimitSeconds, isPublic: false });
  for (const body of command.questions) await post("/api/questions", { quizId: quiz.id, ...body });
  const { gameCode } = (await post("/api/games", { quizId: quiz.id })) as { gameCode: string };
  await post(`/api/games/${gameCode}/register-host`, { clientId });

  // With the host secret the server set when the game was made (docs/decisions/0044-shared-browsers.md).
  const host = await connectWithRetry(`${command.wsUrl}?clientId=${clientId}&game=${gameCode}`, address, cookieOf(clientId));
  sockets.push(host);
  const tally: GameTally = {
    game,
    code: gameCode,
    sent: 0,
    acknowledged: 0,
    strayAcks: 0,
    refused: 0,
    errors: 0,
    playersFinished: 0,
    unexpectedCloses: 0,
    hostSawGameOver: false,
  };
  let over = false;
  await new Promise<void>((resolve, reject) => {
    host.on("message", (data: Buffer) => {
      const type = frameTypeOf(data);
      if (type === "GAME_SNAPSHOT") resolve();
      else if (type === "ERROR") {
        tally.errors++;
        recordError(gameCode, "host", data);
        reject(new Error(`game ${gameCode}: the host was refused: ${errors.at(-1)}`));
      } else if (type === "GAME_OVER" && !over) {
        over = true;
        tally.hostSawGameOver = true;
        finishOne();
      }
    });
    host.on("close", () => {
      if (over) return;
      over = true;
      finishOne();
    });
    host.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode, nickname: HOST_NICKNAME } }));
  });
  return { game, code: gameCode, host, tally };
}

/** One player: joins, answers every question at a random moment of its window, counts its acknowledgements. */
function play(command: GamesSetupCommand, live: LiveGame, socket: ClientSocket, nickname: string): Promise<void> {
  const { tally, code: gameCode } = live;
  let playerId = 0;
  let answerSentAt = 0;
  /** The question number whose acknowledgement this player waits for; 0 when none. */
  let awaitingAck = 0;
  let answerTimer: NodeJS.Timeout | null = null;
  let over = false;
  return new Promise((joined, refused) => {
    socket.on("message", (data: Buffer) => {
      const receivedAt = Date.now();
      switch (frameTypeOf(data)) {
        case "PLAYER_JOINED":
          if (playerId === 0) {
            playerId = JSON.parse(data.toString()).payload.player.id;
            joined();
          }
          return;
        case "QUESTION_STARTED": {
          const { payload } = JSON.parse(data.toString());
          const questionNumber: number = payload.questionNumber;
          (questionNumber === 1 ? deliveries.first : deliveries.later).push(receivedAt - payload.serverNow);
          const { kind, answers } = payload.question as { kind: QuestionKind; answers?: string[] };
          // A random moment in the open window, leaving a tenth of it so a busy machine is not late.
          const window = payload.endsAt - payload.serverNow;
          answerTimer = setTimeout(
            () => {
              answerTimer = null;
              const answer = answerFor(kind, answers?.length ?? 0, command.keys[questionNumber - 1]);
              answerSentAt = performance.now();
              awaitingAck = questionNumber;
              tally.sent++;
              socket.send(JSON.stringify({ type: "SUBMIT_ANSWER", payload: { gameCode, playerId, ...answer, time: 0 } }));
            },
            Math.random() * window * 0.9,
          );
          return;
        }
        case "ANSWER_ACCEPTED":
          // The ack of the answer just sent; anything else (a repeat, an old question's) is counted apart.
          if (JSON.parse(data.toString()).payload.questionNumber !== awaitingAck) {
            tally.strayAcks++;
            return;
          }
          (awaitingAck === 1 ? acks.first : acks.later).push(performance.now() - answerSentAt);
          awaitingAck = 0;
          tally.acknowledged++;
          return;
        case "ERROR":
          tally.errors++;
          recordError(gameCode, nickname, data);
          // The answer waiting for its acknowledgement was refused (too late, most often).
          if (awaitingAck !== 0) {
            awaitingAck = 0;
            tally.refused++;
          }
          if (playerId === 0) refused(new Error(`game ${gameCode}: ${nickname} could not join: ${errors.at(-1)}`));
          return;
        case "GAME_OVER":
          if (over) return;
          over = true;
          if (answerTimer) clearTimeout(answerTimer);
          tally.playersFinished++;
          finishOne();
          return;
      }
    });
    socket.on("close", () => {
      if (over) return;
      // A player cut off will not see the end: count it, and do not wait for it.
      over = true;
      if (answerTimer) clearTimeout(answerTimer);
      tally.unexpectedCloses++;
      finishOne();
    });
    socket.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode, nickname } }));
  });
}

/** Sets up this process's games and joins their players; reports `gamesReady` once every player is in its lobby. */
export async function setUpGames(command: GamesSetupCommand): Promise<void> {
  games = [];
  sockets = [];
  deliveries = { first: [], later: [] };
  acks = { first: [], later: [] };
  errors = [];
  remaining = command.games.length * (command.playersPerGame + 1);
  finishedReported = false;
  const ready: LiveGame[] = [];
  await inLanes(command.games, SETUP_LANES, async (game) => {
    const live = await setUpHost(command, game);
    const { players } = gameAddresses(game, command.playersPerGame);
    await inLanes(players, PLAYER_CONNECT_LANES, async (address, player) => {
      const socket = await connectWithRetry(`${command.wsUrl}?clientId=bench-g${game}-p${player}&game=${live.code}`, address);
      sockets.push(socket);
      await play(command, live, socket, `P${player + 1}`);
    });
    ready.push(live);
  });
  games = ready.sort((a, b) => a.game - b.game);
  report({ event: "gamesReady", at: Date.now(), games: games.map(({ game, code }) => ({ game, code })) });
}

/** Each host sends START_GAME at `at + offsetsMs[game]` (epoch ms). */
export function startGames(at: number, offsetsMs: number[]): void {
  cpuAtStart = process.cpuUsage();
  loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  startTimers = games.map((live) =>
    setTimeout(
      () => live.host.send(JSON.stringify({ type: "START_GAME", payload: { gameCode: live.code } })),
      Math.max(0, at + offsetsMs[live.game] - Date.now()),
    ),
  );
}

export function closeGames(): void {
  // Sockets closed here are not players cut off during a game.
  finishedReported = true;
  for (const timer of startTimers) clearTimeout(timer);
  loopDelay?.disable();
  for (const socket of sockets) socket.terminate();
  startTimers = [];
  sockets = [];
  games = [];
}
