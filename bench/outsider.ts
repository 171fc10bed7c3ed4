/**
 * One run of the outsider's measurement (`npm run bench -- --outsider --players N`, issue 28): as
 * someone trying the product from outside would time it. The players are plain `ws` clients spread
 * over forked worker processes (bench/outsider-worker.ts; `--client lean` for the bench's own), the
 * host is a `ws` client of its own in this process, and a question's delivery is timed from the
 * moment the host sends its command (START_GAME for the first question, NEXT_QUESTION from the
 * leaderboard for the others) to the moment each player has the question, on the machine's
 * monotonic clock, which every process shares (bench/monotonic.ts). The same host and players
 * then time a bare `ws` server that broadcasts on the host's command (bench/outsider-server.ts).
 *
 * The bench's other modes time a question from the `serverNow` it carries, which the engine sets
 * when it opens the question: after the host's command was read, before the commit. This mode keeps
 * that figure too, and splits each question's time into what the clocks show of its path: the
 * command until `serverNow` (read, parsed, handled), `serverNow` until the host has the question
 * (the commit before it is sent, then the first write), and the host until the players' p99 (the
 * writes to every socket and their reading). The bare server's broadcast is split the same way.
 */
import WebSocket from "ws";
import { HOST_NICKNAME } from "#app/game/rules";
import { BROADCAST_BYTES, slices } from "./baseline";
import { clientKind } from "./client-socket";
import { withCookies } from "./cookie-jar";
import { benchServerEnv, startGameServer } from "./game-server";
import { machineDescription } from "./many-games";
import { monotonicMs, wallMinusMonotonicMs } from "./monotonic";
import type { OutsiderCommand, OutsiderReport, Receipts } from "./outsider-ipc";
import { api } from "./player-weight";
import { Reporter, forkScript, log, root, sleep, within } from "./processes";
import { benchQuestions } from "./questions";
import { formatLatency, median, summarize, withRuns, type LatencySummary } from "./stats";

type Worker = Reporter<OutsiderCommand, OutsiderReport>;

export interface OutsiderOptions {
  playerCount: number;
  questionCount: number;
  timeLimitSeconds: number;
  workerCount: number;
  /** How long the host waits, once its leaderboard (or the lobby) is there, before it sends the next command. */
  settleMs: number;
  /** Whether the players answer each question (at a random moment of its window). */
  answers: boolean;
  serverNodeArgs: string[];
  /** Extra variables for the server (e.g. SQLITE_SYNCHRONOUS=normal for a study). */
  serverEnv: Record<string, string>;
}

/** Medians over the rounds (the bare server's) or questions (the game's) of each part of the path, ms. */
export interface PathFigures {
  /** The host's command sent, until `serverNow` (the engine's clock when it opened the question; whole ms). */
  commandToServerNow: number;
  /** `serverNow` until the host had the message: for the game, the commit before a question is sent. */
  serverNowToHost: number;
  /** The host had it, until the players' p99 had it: the writes to every socket and their reading. */
  hostToPlayersP99: number;
}

/** One round's or question's figures, to find which one the p99 of all of them comes from. */
export interface RoundFigures extends PathFigures {
  p99: number;
  /** When the host sent the command, on the monotonic clock (ms since boot): a server's CPU profile (`--profile`) counts on the same clock. */
  commandAt: number;
}

export interface OutsiderFigures {
  /** The largest distance between this process's monotonic clock and a worker's, as each worker's reply bounds it (ms). */
  clockCheckMs: number;
  bare: { delivery: LatencySummary; sinceServerNow: LatencySummary; path: PathFigures; rounds: RoundFigures[] };
  game: {
    delivery: LatencySummary;
    /** START_GAME: the game's start and its first question, one commit. */
    first: LatencySummary;
    /** NEXT_QUESTION from the leaderboard. */
    later: LatencySummary;
    sinceServerNow: LatencySummary;
    /** Questions 2 on. */
    path: PathFigures;
    questions: RoundFigures[];
  };
  /** Delivery p99, the game's over the bare server's, from the host's command. */
  ratioP99: number;
  ratioLaterP99: number;
  /** The same, from `serverNow`, as the bench's other modes time it. */
  ratioSinceServerNowP99: number;
  answersSent: number;
  answersAcknowledged: number;
  playersFinished: number;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** Bounds each worker's clock against this process's: the reply's time lies between the send and the receipt. */
async function checkClocks(workers: Worker[]): Promise<number> {
  let worst = 0;
  for (const worker of workers) {
    let best = Infinity;
    for (let attempt = 0; attempt < 5; attempt++) {
      const reply = worker.next("clock");
      const sentAt = monotonicMs();
      worker.send({ cmd: "clock" });
      const { at } = await reply;
      const receivedAt = monotonicMs();
      // The worker's reading can be off from this clock by at most this much: 0 when the clocks are one.
      const outside = Math.max(0, sentAt - at, at - receivedAt);
      best = Math.min(best, outside);
    }
    worst = Math.max(worst, best);
  }
  return worst;
}

async function collect(workers: Worker[]): Promise<Array<Extract<OutsiderReport, { event: "samples" }>>> {
  const reports = [];
  for (const worker of workers) {
    const next = worker.next("samples");
    worker.send({ cmd: "collect" });
    reports.push(await next);
  }
  return reports;
}

async function closeAll(workers: Worker[]): Promise<void> {
  await Promise.all(
    workers.map((worker) => {
      const closed = worker.next("closed");
      worker.send({ cmd: "close" });
      return closed;
    }),
  );
}

function merge(reports: Array<{ receipts: Receipts }>, pick: "receipts"): Receipts;
function merge(reports: Array<{ sinceServerNow: Receipts }>, pick: "sinceServerNow"): Receipts;
function merge(reports: Array<Record<string, Receipts>>, pick: string): Receipts {
  const merged: Receipts = {};
  for (const report of reports) for (const [round, times] of Object.entries(report[pick])) (merged[Number(round)] ??= []).push(...times);
  return merged;
}

/** Each round's (or question's) arrivals less its command's moment. */
function sinceCommand(receipts: Receipts, sentAt: Map<number, number>, rounds: number[]): number[] {
  return rounds.flatMap((round) => (receipts[round] ?? []).map((at) => at - sentAt.get(round)!));
}

interface HostSighting {
  /** Monotonic time the host had the message. */
  at: number;
  /** The message's `serverNow`, placed on the monotonic clock. */
  serverNowAt: number;
}

/** Each round's delivery p99 from the command, and its path. */
function roundsOf(rounds: number[], sentAt: Map<number, number>, host: Map<number, HostSighting>, receipts: Receipts): RoundFigures[] {
  return rounds.map((round) => {
    const sighting = host.get(round);
    const sent = sentAt.get(round)!;
    const p99 = summarize(receipts[round] ?? []).p99;
    return {
      p99: round1(p99 - sent),
      commandAt: sent,
      commandToServerNow: sighting ? round1(sighting.serverNowAt - sent) : NaN,
      serverNowToHost: sighting ? round1(sighting.at - sighting.serverNowAt) : NaN,
      hostToPlayersP99: sighting ? round1(p99 - sighting.at) : NaN,
    };
  });
}

/** The median of each part of the path over the rounds. */
function pathOf(rounds: RoundFigures[]): PathFigures {
  const part = (pick: (round: RoundFigures) => number) => round1(median(rounds.map(pick).filter(Number.isFinite)));
  return {
    commandToServerNow: part((round) => round.commandToServerNow),
    serverNowToHost: part((round) => round.serverNowToHost),
    hostToPlayersP99: part((round) => round.hostToPlayersP99),
  };
}

/** The bare server's floor: `rounds` commands from the host, each broadcast to every player. */
async function measureBare(workers: Worker[], options: OutsiderOptions) {
  const bare = new Reporter<{ cmd: "stop" }, { event: "listening"; port: number }>(forkScript("outsider-server.ts"), "outsider's bare server");
  try {
    const { port } = await bare.next("listening");
    const url = `ws://127.0.0.1:${port}`;
    const parts = slices(options.playerCount, workers.length);
    await Promise.all(
      parts.map((slice, index) => {
        const ready = workers[index].next("ready");
        workers[index].send({ cmd: "bare", url, count: slice.count });
        return ready;
      }),
    );
    const host = new WebSocket(`${url}/?host=1`, { perMessageDeflate: false });
    await new Promise((resolve, reject) => host.once("open", resolve).once("error", reject));
    const offset = wallMinusMonotonicMs();
    const sightings = new Map<number, HostSighting>();
    host.on("message", (data: Buffer) => {
      const at = monotonicMs();
      const { round, serverNow } = JSON.parse(data.toString()).payload;
      sightings.set(round, { at, serverNowAt: serverNow - offset });
    });
    log(`outsider, bare: ${options.playerCount} sockets open; ${options.questionCount} commands from the host, a ${BROADCAST_BYTES}-byte broadcast each`);
    const sentAt = new Map<number, number>();
    const rounds = Array.from({ length: options.questionCount }, (_, index) => index + 1);
    for (const round of rounds) {
      await sleep(options.settleMs);
      sentAt.set(round, monotonicMs());
      host.send(JSON.stringify({ round }));
      await sleep(1500);
    }
    host.terminate();
    const reports = await collect(workers.slice(0, parts.length));
    await closeAll(workers.slice(0, parts.length));
    const receipts = merge(reports, "receipts");
    const each = roundsOf(rounds, sentAt, sightings, receipts);
    return {
      delivery: summarize(sinceCommand(receipts, sentAt, rounds)),
      sinceServerNow: summarize(Object.values(merge(reports, "sinceServerNow")).flat()),
      path: pathOf(each),
      rounds: each,
    };
  } finally {
    bare.send({ cmd: "stop" });
    await new Promise((resolve) => bare.child.once("exit", resolve));
  }
}

/** The product: one game, the host driving it question by question. */
async function measureGame(workers: Worker[], serverUrl: string, options: OutsiderOptions) {
  const hostId = "outsider-host";
  const questions = benchQuestions("choice", options.questionCount, null);
  const quiz = await api(serverUrl, "/api/quizzes", { title: "Outsider's benchmark", timeLimit: options.timeLimitSeconds, isPublic: false }, hostId);
  for (const question of questions) await api(serverUrl, "/api/questions", { quizId: quiz.id, ...question.body }, hostId);
  const { gameCode } = await api(serverUrl, "/api/games", { quizId: quiz.id }, hostId);
  await api(serverUrl, `/api/games/${gameCode}/register-host`, { clientId: hostId }, hostId);
  const wsUrl = `${serverUrl.replace(/^http/, "ws")}/ws`;

  const host = new WebSocket(`${wsUrl}?clientId=${hostId}&game=${gameCode}`, { perMessageDeflate: false, headers: withCookies(hostId, {}) });
  await new Promise((resolve, reject) => host.once("open", resolve).once("error", reject));
  const offset = wallMinusMonotonicMs();
  const sightings = new Map<number, HostSighting>();
  /** The next leaderboard (or the podium) the host waits for. */
  let shown: (() => void) | null = null;
  const seen = new Promise<void>((resolve) => {
    host.on("message", (data: Buffer) => {
      const at = monotonicMs();
      const text = data.toString("latin1", 0, 40);
      if (text.startsWith('{"type":"GAME_SNAPSHOT"')) resolve();
      else if (text.startsWith('{"type":"QUESTION_STARTED"')) {
        const { questionNumber, serverNow } = JSON.parse(data.toString()).payload;
        sightings.set(questionNumber, { at, serverNowAt: serverNow - offset });
      } else if (text.startsWith('{"type":"LEADERBOARD_UPDATE"') || text.startsWith('{"type":"GAME_OVER"')) {
        shown?.();
        shown = null;
      }
    });
  });
  host.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode, nickname: HOST_NICKNAME } }));
  await within(seen, 10_000, "the host's snapshot");

  const parts = slices(options.playerCount, workers.length);
  const keys = questions.map((question) => question.key);
  await within(
    Promise.all(
      parts.map((slice, index) => {
        const ready = workers[index].next("ready");
        workers[index].send({ cmd: "game", url: wsUrl, gameCode, keys, answers: options.answers, ...slice });
        return ready;
      }),
    ),
    60_000 + options.playerCount * 10,
    "every player to join",
  );
  log(`outsider, game ${gameCode}: ${options.playerCount} players joined; the host drives ${options.questionCount} questions`);

  const sentAt = new Map<number, number>();
  const questionMs = (options.timeLimitSeconds + 30) * 1000;
  for (let number = 1; number <= options.questionCount + 1; number++) {
    const leaderboard = new Promise<void>((resolve) => (shown = resolve));
    await sleep(options.settleMs);
    sentAt.set(number, monotonicMs());
    // After the last leaderboard, the host's Next shows the podium.
    host.send(JSON.stringify({ type: number === 1 ? "START_GAME" : "NEXT_QUESTION", payload: { gameCode } }));
    if (number <= options.questionCount) await within(leaderboard, questionMs, `question ${number}'s leaderboard`);
  }
  await sleep(2000);
  host.terminate();
  const reports = await collect(workers.slice(0, parts.length));
  await closeAll(workers.slice(0, parts.length));
  const receipts = merge(reports, "receipts");
  const all = Array.from({ length: options.questionCount }, (_, index) => index + 1);
  const later = all.slice(1);
  const errors = reports.flatMap((report) => report.errors);
  const questionsOf = roundsOf(all, sentAt, sightings, receipts);
  if (errors.length > 0) log(`outsider, first errors: ${[...new Set(errors)].slice(0, 5).join(" | ")}`);
  return {
    delivery: summarize(sinceCommand(receipts, sentAt, all)),
    first: summarize(sinceCommand(receipts, sentAt, [1])),
    later: summarize(sinceCommand(receipts, sentAt, later)),
    sinceServerNow: summarize(Object.values(merge(reports, "sinceServerNow")).flat()),
    path: pathOf(questionsOf.slice(1)),
    questions: questionsOf,
    answersSent: reports.reduce((sum, report) => sum + report.sent, 0),
    answersAcknowledged: reports.reduce((sum, report) => sum + report.acknowledged, 0),
    playersFinished: reports.reduce((sum, report) => sum + report.finished, 0),
  };
}

/** One run: a fresh server and workers, the bare server's floor, then the game. */
export async function measureOutsider(options: OutsiderOptions): Promise<OutsiderFigures> {
  const server = await startGameServer({
    root,
    nodeArgs: options.serverNodeArgs,
    // The leaderboard waits (up to the 60 s the configuration allows) for the host's Next, as on a night where the host runs the game.
    env: { ...benchServerEnv(options.playerCount * 10, options.playerCount), NEXT_QUESTION_SECONDS: "60", ...options.serverEnv },
  });
  const workers: Worker[] = Array.from(
    { length: options.workerCount },
    (_, index) => new Reporter(forkScript("outsider-worker.ts"), `outsider worker ${index + 1}`),
  );
  log(`outsider: server ${server.url} (pid ${server.pid}); ${options.playerCount} players over ${options.workerCount} processes (${clientKind()} client)`);
  try {
    const clockCheckMs = await checkClocks(workers);
    const bare = await measureBare(workers, options);
    log(`outsider, bare: from the host's command ${formatLatency(bare.delivery)}`);
    const game = await measureGame(workers, server.url, options);
    log(`outsider, game: from the host's command ${formatLatency(game.delivery)}`);
    return {
      clockCheckMs: round1(clockCheckMs),
      bare,
      game: { delivery: game.delivery, first: game.first, later: game.later, sinceServerNow: game.sinceServerNow, path: game.path, questions: game.questions },
      ratioP99: Math.round((game.delivery.p99 / bare.delivery.p99) * 100) / 100,
      ratioLaterP99: Math.round((game.later.p99 / bare.delivery.p99) * 100) / 100,
      ratioSinceServerNowP99: Math.round((game.sinceServerNow.p99 / bare.sinceServerNow.p99) * 100) / 100,
      answersSent: game.answersSent,
      answersAcknowledged: game.answersAcknowledged,
      playersFinished: game.playersFinished,
    };
  } finally {
    for (const worker of workers) worker.stop();
    await server.stop();
  }
}

// ------------------------------------------------------------------ report

export function describeOutsider(options: OutsiderOptions): string {
  return (
    `${options.playerCount} players (${clientKind()} client) over ${options.workerCount} worker processes, the host in the runner; ` +
    `${options.questionCount} questions (time limit ${options.timeLimitSeconds} s${options.answers ? ", every player answering" : ", no answers"}), ` +
    `the host's next command ${options.settleMs} ms after its leaderboard; ${machineDescription()}`
  );
}

/** "p99 84 (1 + 0.1 + 83)" for each round: its p99 from the command, and the three parts of its path. */
const eachRound = (rounds: RoundFigures[]) =>
  rounds.map((round) => `${round.p99} (${round.commandToServerNow} + ${round.serverNowToHost} + ${round.hostToPlayersP99})`).join(", ") + " ms";

const pathLine = (path: PathFigures) =>
  `command → serverNow ${path.commandToServerNow} · serverNow → host ${path.serverNowToHost} · host → players p99 ${path.hostToPlayersP99} ms`;

export function outsiderRows(figures: OutsiderFigures): Array<[string, string]> {
  return [
    ["clocks", `one monotonic clock; every worker's reply within ${figures.clockCheckMs} ms of it`],
    ["bare ws, from the command", formatLatency(figures.bare.delivery)],
    ["bare ws, path (medians)", pathLine(figures.bare.path)],
    ["bare ws, each command: p99 (path)", eachRound(figures.bare.rounds)],
    ["game, from the command", formatLatency(figures.game.delivery)],
    ["  question 1 (START_GAME)", formatLatency(figures.game.first)],
    ["  questions 2+ (NEXT_QUESTION)", formatLatency(figures.game.later)],
    ["game, path (questions 2+, medians)", pathLine(figures.game.path)],
    ["game, each question: p99 (path)", eachRound(figures.game.questions)],
    ["delivery p99 / bare ws", `${figures.ratioP99}× (questions 2+: ${figures.ratioLaterP99}×)`],
    [
      "from serverNow (the bench's way)",
      `game ${formatLatency(figures.game.sinceServerNow)}; bare ${formatLatency(figures.bare.sinceServerNow)}; ${figures.ratioSinceServerNowP99}×`,
    ],
    ["answers", `${figures.answersSent} sent, ${figures.answersAcknowledged} acknowledged; ${figures.playersFinished} players saw the podium`],
  ];
}

export function outsiderMedianRows(runs: OutsiderFigures[], medians: OutsiderFigures): Array<[string, string]> {
  const of = (pick: (figures: OutsiderFigures) => number) => withRuns(pick(medians), runs.map(pick));
  const latency = (pick: (figures: OutsiderFigures) => LatencySummary) =>
    (["p50", "p95", "p99"] as const).map((p) => `${p} ${of((figures) => pick(figures)[p])}`).join(" · ") + " ms";
  const path = (pick: (figures: OutsiderFigures) => PathFigures) =>
    `command → serverNow ${of((figures) => pick(figures).commandToServerNow)} · serverNow → host ${of((figures) => pick(figures).serverNowToHost)} · host → players p99 ${of((figures) => pick(figures).hostToPlayersP99)} ms`;
  return [
    ["runs", `${runs.length}, each on a fresh server and database; the median of each figure (each run's in parentheses)`],
    ["bare ws, from the command", latency((figures) => figures.bare.delivery)],
    ["bare ws, path", path((figures) => figures.bare.path)],
    ["game, from the command", latency((figures) => figures.game.delivery)],
    ["  questions 2+", latency((figures) => figures.game.later)],
    ["game, path (questions 2+)", path((figures) => figures.game.path)],
    ["delivery p99 / bare ws", `${of((figures) => figures.ratioP99)}× (questions 2+: ${of((figures) => figures.ratioLaterP99)}×)`],
    ["from serverNow (the bench's way)", `${of((figures) => figures.ratioSinceServerNowP99)}×`],
    ["answers sent / acknowledged", `${of((figures) => figures.answersSent)} / ${of((figures) => figures.answersAcknowledged)}`],
  ];
}
