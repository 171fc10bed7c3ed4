/**
 * One run of the many-games mode (`npm run bench -- --games G --players-per-game P [--stagger S]`):
 * a fresh production server on a fresh database, G games of P players each, every host and player on
 * its own loopback address (bench/loopback.ts), all games started at the same moment (the worst case
 * of a Friday 8 pm) or spread evenly over S seconds.
 *
 * The load workers (bench/load-worker.ts with bench/game-players.ts) are dealt whole games in turn:
 * each game's host creates its quiz and game over the HTTP API and joins as host, its players join,
 * and once every player of every game is in its lobby the hosts start their games at their moments.
 * The games then run by the server's own timers to the podium.
 *
 * Figures: question delivery (the server's `serverNow` to arrival) and answer acknowledgement
 * (SUBMIT_ANSWER to ANSWER_ACCEPTED) percentiles over all games; lost answers (sent but never
 * acknowledged, or acknowledged but not in the answers table of the server's database read after
 * the games); games finished (the host and every player saw GAME_OVER); the server's CPU time
 * (utime + stime from /proc/PID/stat) while the games play, per player-question; and its RSS: idle
 * (freshly started, before any game is created) against the peak during setup and play, per player.
 *
 * With `--nodes N` the same load is played through the proxy of a local cluster of N nodes on one
 * PostgreSQL (bench/bench-target.ts): the server's figures are then the nodes' together (CPU and
 * RSS summed), the lost answers are read from that PostgreSQL, and each node's own CPU, RSS, games
 * owned at the end and forwarded sockets are printed beside them.
 */
import os from "node:os";
import { openDatabase } from "#db/connection.server";
import { measureBaseline } from "./baseline";
import { benchServerEnv } from "./game-server";
import type { BenchDatabase } from "./bench-database";
import {
  ProcessWatch,
  clusterFigures,
  clusterMedianRows,
  clusterRows,
  describeTarget,
  ownCpuSeconds,
  serverLabel,
  startBenchTarget,
  sumOver,
  type BenchTarget,
  type ClusterFigures,
} from "./bench-target";
import { assignGames, lostAnswers, startOffsetsMs, type LostAnswers } from "./games-plan";
import type { GameTally, ParentCommand, WorkerReport } from "./ipc";
import { gameAddresses } from "./loopback";
import { runPagePasses, type PagePassOptions, type PagePasses } from "./page-passes";
import { Reporter, forkScript, log, sleep, within } from "./processes";
import type { BenchQuestion } from "./questions";
import { MIB, formatLatency, summarize, withRuns, type LatencySummary } from "./stats";
import { clientKind } from "./client-socket";
import { wallMinusMonotonicMs } from "./monotonic";

type Worker = Reporter<ParentCommand, WorkerReport>;

export interface ManyGamesOptions {
  games: number;
  playersPerGame: number;
  questions: BenchQuestion[];
  timeLimitSeconds: number;
  staggerSeconds: number;
  workers: number;
  /** Broadcasts of the bare `ws` baseline to as many sockets as the games have hosts and players. */
  baselineBroadcasts: number;
  /** Answer windows of the bare server's immediate echo (the floor of the answer ack under the same burst); 0 skips them. */
  echoRounds: number;
  /** Where the server keeps its data (bench/bench-database.ts); a cluster's is PostgreSQL. */
  database: BenchDatabase;
  /** 1: one server; 2 or more: a local cluster behind the consistent-hash proxy (bench/bench-target.ts). */
  nodes: number;
  /** A cluster's existing, empty database instead of a throwaway PostgreSQL. */
  databaseUrl?: string;
  /** Arguments for the server's `node` (`--server-node-arg`, and a CPU profile's with `--profile`). */
  serverNodeArgs: string[];
  pages: PagePassOptions;
}

/** One run's figures: numbers only, so each one's median over the runs can be taken. */
export interface ManyGamesFigures {
  /** From the first host's request to the last player in its lobby, every game created. */
  setupSeconds: number;
  /** From the common start to the last game's podium. */
  playSeconds: number;
  questionDeliveryMs: LatencySummary;
  answerAckMs: LatencySummary;
  /** The first question: with every game started at one moment, every game's broadcast falls together. */
  firstQuestionDeliveryMs: LatencySummary;
  firstQuestionAckMs: LatencySummary;
  laterQuestionsDeliveryMs: LatencySummary;
  laterQuestionsAckMs: LatencySummary;
  /** A bare `ws` server's broadcast to as many sockets, from the same load workers. */
  baselineDeliveryMs: LatencySummary;
  /** Question delivery p99 over the baseline's. */
  deliveryP99OverBaseline: number;
  /**
   * The bare server's immediate echo of an answer from every socket, at a random moment of a
   * window as long as a question's, after a broadcast to all of them: the floor of the answer
   * acknowledgement under the same burst (NaN figures when `--echo-rounds 0`).
   */
  echoAckMs: LatencySummary;
  /** Answer ack p99 over the echo's. */
  ackP99OverEcho: number;
  answersSent: number;
  answersAcknowledged: number;
  answersStored: number;
  lostAnswers: number;
  /** Sent but never acknowledged. */
  lostUnacknowledged: number;
  /** Acknowledged but not stored. */
  lostNotStored: number;
  /** Of the unacknowledged: refused with an ERROR (too late, most often). */
  answersRefused: number;
  strayAcks: number;
  errorMessages: number;
  socketsClosedEarly: number;
  /** The host and every player saw GAME_OVER. */
  gamesFinished: number;
  /** Games whose row in the database says finished. */
  gamesFinishedStored: number;
  /** A cluster's: every node's together. */
  serverCpuSecondsSetup: number;
  serverCpuSecondsPlaying: number;
  /** Server CPU while playing, divided by players × questions. */
  serverCpuMsPerPlayerQuestion: number;
  /** A cluster's: the sum of each node's (its peaks need not fall at one moment). */
  serverIdleRssMiB: number;
  serverPeakRssMiB: number;
  /** (peak − idle) / players. */
  serverRssPerPlayerKiB: number;
  /** The load workers' CPU time while playing, all together. */
  generatorCpuSecondsPlaying: number;
  /** The worst of the workers' event loop delay p99 while playing. */
  generatorLoopDelayP99Ms: number;
  /** With `--nodes`: each node's figures and the proxy's. */
  cluster?: ClusterFigures;
}

export interface ManyGamesRun {
  figures: ManyGamesFigures;
  /** The first ERROR messages the hosts and players received, with their game. */
  firstErrors: string[];
  /** The games' common start on the machine's monotonic clock (bench/monotonic.ts), on which a server's CPU profile (`--profile`) counts too. */
  startedAtMonotonicMs: number;
  pages: PagePasses;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const round3 = (value: number) => Math.round(value * 1000) / 1000;

async function startServer(options: ManyGamesOptions): Promise<BenchTarget> {
  const players = options.games * options.playersPerGame;
  // Every client has its own address, so the defaults would do; generous all the same, so that a
  // limit is never what is measured (a cluster's nodes get the same).
  return startBenchTarget({
    nodes: options.nodes,
    database: options.database,
    databaseUrl: options.databaseUrl,
    nodeArgs: options.serverNodeArgs,
    env: benchServerEnv(Math.max(10_000, players * 10), options.playersPerGame),
  });
}

/** What the server's database holds of each game after the run (its SQLite file, or its PostgreSQL database): its answers and whether it finished. */
async function storedGames(databaseLocation: string): Promise<Map<string, { answers: number; finished: boolean }>> {
  const db = openDatabase(databaseLocation);
  try {
    const rows = await db
      .selectFrom("games")
      .select((eb) => [
        "games.game_code as code",
        "games.status as status",
        eb.selectFrom("answers").whereRef("answers.game_id", "=", "games.id").select(eb.fn.countAll<number>().as("count")).as("answers"),
      ])
      .execute();
    return new Map(rows.map((row) => [row.code, { answers: Number(row.answers), finished: row.status === "finished" }]));
  } finally {
    await db.destroy();
  }
}

export async function runManyGames(options: ManyGamesOptions): Promise<ManyGamesRun> {
  const { games, playersPerGame, questions, timeLimitSeconds, staggerSeconds } = options;
  const players = games * playersPerGame;
  const dealt = assignGames(games, options.workers);
  const server = await startServer(options);
  const workers: Worker[] = dealt.map((_, index) => new Reporter(forkScript("load-worker.ts"), `load worker ${index + 1}`));
  const lastAddress = gameAddresses(games - 1, playersPerGame).players.at(-1) ?? gameAddresses(games - 1, playersPerGame).host;
  log(
    `${describeTarget(server)}; ${games} games × ${playersPerGame} players over ${workers.length} load-generator processes, clients on 127.1.0.1-${lastAddress}`,
  );
  const watch = new ProcessWatch(server.processes);
  try {
    // Hosts receive every question too: the games' broadcasts reach players + hosts.
    const baseline = await measureBaseline(workers, {
      sockets: games * (playersPerGame + 1),
      broadcasts: options.baselineBroadcasts,
      echo: { rounds: options.echoRounds, windowMs: timeLimitSeconds * 1000 },
    });
    log(`baseline delivery ${formatLatency(baseline.delivery)}${baseline.echoAck ? `; its echo of every answer ${formatLatency(baseline.echoAck)}` : ""}`);
    // Idle: the freshly started server (or nodes), settled, before any game exists.
    await sleep(1000);
    const idle = watch.sample();
    if (idle.size < server.processes.length) throw new Error("cannot read the server's /proc entry (the many-games figures need Linux)");
    watch.watchPeaks(idle, { kernelPeak: true });

    const wsUrl = `${server.url.replace(/^http/, "ws")}/ws`;
    const setupStart = Date.now();
    const ready = workers.map((worker) => worker.next("gamesReady"));
    workers.forEach((worker, index) =>
      worker.send({
        cmd: "setupGames",
        httpUrl: server.url,
        wsUrl,
        games: dealt[index],
        playersPerGame,
        timeLimitSeconds,
        questions: questions.map((question) => question.body),
        keys: questions.map((question) => question.key),
      }),
    );
    const readyReports = await within(Promise.all(ready), 120_000 + players * 20, "every game to be set up and every player to join");
    const setupSeconds = (Math.max(...readyReports.map((report) => report.at)) - setupStart) / 1000;
    log(`${games} games created and ${players} players in their lobbies after ${setupSeconds.toFixed(1)} s; starting ${describeStart(games, staggerSeconds)}`);

    const finished = workers.map((worker) => worker.next("gamesFinished"));
    // A moment ahead, so that every worker has the command before the first start.
    const startAt = Date.now() + 500;
    workers.forEach((worker) => worker.send({ cmd: "startGames", at: startAt, offsetsMs: startOffsetsMs(games, staggerSeconds) }));
    await sleep(Math.max(0, startAt - Date.now()));
    const startedAtMonotonicMs = startAt - wallMinusMonotonicMs();
    const beforePlay = watch.sample();
    const proxyCpuBefore = ownCpuSeconds();
    const playMs = staggerSeconds * 1000 + questions.length * (timeLimitSeconds + 10) * 1000 + 60_000;
    const reports = await within(Promise.all(finished), playMs, "every game to finish");
    const afterPlay = watch.sample();
    const proxyCpuSecondsPlaying = ownCpuSeconds() - proxyCpuBefore;
    const playSeconds = (Math.max(...reports.map((report) => report.at)) - startAt) / 1000;

    const stored = await storedGames(server.databaseLocation);
    const peaks = watch.stopPeaks();
    const cpu = (samples: typeof idle) => sumOver(server.processes, samples, (sample) => sample.cpuSeconds);
    const idleRssBytes = sumOver(server.processes, idle, (sample) => sample.rssBytes);
    const peakRssBytes = server.processes.reduce((sum, { id }) => sum + (peaks.get(id) ?? NaN), 0);

    const tallies: GameTally[] = reports.flatMap((report) => report.games);
    const perGame = tallies.map((tally) => ({ sent: tally.sent, acknowledged: tally.acknowledged, stored: stored.get(tally.code)?.answers ?? 0 }));
    const lost: LostAnswers = lostAnswers(perGame);
    const sum = (pick: (tally: GameTally) => number) => tallies.reduce((total, tally) => total + pick(tally), 0);
    const cpuPlaying = cpu(afterPlay) - cpu(beforePlay);
    const cluster = await clusterFigures(
      server,
      { idle, before: beforePlay, after: afterPlay, peaks, proxyCpuSecondsPlaying },
      tallies.map((tally) => tally.code),
    );
    const questionDeliveryMs = summarize(reports.flatMap((report) => [...report.deliveries.first, ...report.deliveries.later]));
    const answerAckMs = summarize(reports.flatMap((report) => [...report.acks.first, ...report.acks.later]));
    const echoAckMs = baseline.echoAck ?? summarize([]);
    const figures: ManyGamesFigures = {
      setupSeconds: round1(setupSeconds),
      playSeconds: round1(playSeconds),
      questionDeliveryMs,
      answerAckMs,
      firstQuestionDeliveryMs: summarize(reports.flatMap((report) => report.deliveries.first)),
      firstQuestionAckMs: summarize(reports.flatMap((report) => report.acks.first)),
      laterQuestionsDeliveryMs: summarize(reports.flatMap((report) => report.deliveries.later)),
      laterQuestionsAckMs: summarize(reports.flatMap((report) => report.acks.later)),
      baselineDeliveryMs: baseline.delivery,
      deliveryP99OverBaseline: Math.round((questionDeliveryMs.p99 / baseline.delivery.p99) * 100) / 100,
      echoAckMs,
      ackP99OverEcho: Math.round((answerAckMs.p99 / echoAckMs.p99) * 100) / 100,
      answersSent: sum((tally) => tally.sent),
      answersAcknowledged: sum((tally) => tally.acknowledged),
      answersStored: perGame.reduce((total, game) => total + game.stored, 0),
      lostAnswers: lost.total,
      lostUnacknowledged: lost.unacknowledged,
      lostNotStored: lost.notStored,
      answersRefused: sum((tally) => tally.refused),
      strayAcks: sum((tally) => tally.strayAcks),
      errorMessages: sum((tally) => tally.errors),
      socketsClosedEarly: sum((tally) => tally.unexpectedCloses),
      gamesFinished: tallies.filter((tally) => tally.hostSawGameOver && tally.playersFinished === playersPerGame).length,
      gamesFinishedStored: tallies.filter((tally) => stored.get(tally.code)?.finished).length,
      serverCpuSecondsSetup: round1(cpu(beforePlay) - cpu(idle)),
      serverCpuSecondsPlaying: round1(cpuPlaying),
      serverCpuMsPerPlayerQuestion: round3((cpuPlaying * 1000) / (players * questions.length)),
      serverIdleRssMiB: round1(idleRssBytes / MIB),
      serverPeakRssMiB: round1(peakRssBytes / MIB),
      serverRssPerPlayerKiB: round1((peakRssBytes - idleRssBytes) / players / 1024),
      generatorCpuSecondsPlaying: round1(reports.reduce((total, report) => total + report.cpuSeconds, 0)),
      generatorLoopDelayP99Ms: round1(Math.max(...reports.map((report) => report.loopDelayP99Ms))),
      ...(cluster ? { cluster } : {}),
    };
    await Promise.all(
      workers.map((worker) => {
        const closed = worker.next("closed");
        worker.send({ cmd: "close" });
        return closed;
      }),
    );
    const pages = await runPagePasses(server.url, options.pages);
    return { figures, firstErrors: reports.flatMap((report) => report.errors).slice(0, 5), startedAtMonotonicMs, pages };
  } finally {
    watch.stopPeaks();
    for (const worker of workers) worker.stop();
    await server.stop();
  }
}

function describeStart(games: number, staggerSeconds: number): string {
  return staggerSeconds > 0 ? `the games' starts spread evenly over ${staggerSeconds} s` : `all ${games} games at the same moment`;
}

// ------------------------------------------------------------------ report

export function machineDescription(): string {
  return `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

/** The settings line of the table: what was played, and how. */
export function describeManyGames(options: ManyGamesOptions, kindsLabel: string): string {
  const last = gameAddresses(options.games - 1, options.playersPerGame);
  return (
    `${options.games} games × ${options.playersPerGame} players × ${options.questions.length} questions (time limit ${options.timeLimitSeconds} s, ${kindsLabel}), ` +
    `${describeStart(options.games, options.staggerSeconds)}; ${Math.min(options.workers, options.games)} load-generator processes (${clientKind()} client); ` +
    `every host and player on its own address (127.1.0.1-${last.players.at(-1) ?? last.host})`
  );
}

const laterQuestionsLabel = (options: ManyGamesOptions) => (options.questions.length === 2 ? "question 2" : `questions 2-${options.questions.length}`);

export function manyGamesRows(options: ManyGamesOptions, figures: ManyGamesFigures): Array<[string, string]> {
  const players = options.games * options.playersPerGame;
  return [
    ["setup", `${options.games} games created and ${players} players in their lobbies after ${figures.setupSeconds} s`],
    ["question delivery", formatLatency(figures.questionDeliveryMs)],
    ["bare ws broadcast", `${formatLatency(figures.baselineDeliveryMs)} to ${options.games * (options.playersPerGame + 1)} sockets`],
    ["delivery p99 / baseline", `${figures.deliveryP99OverBaseline}×`],
    ["answer ack", formatLatency(figures.answerAckMs)],
    ["bare ws echo of every answer", `${formatLatency(figures.echoAckMs)}, ${options.echoRounds} answer windows of ${options.timeLimitSeconds} s`],
    ["answer ack p99 / echo", `${figures.ackP99OverEcho}× (target: p99 under 250 ms, or within 1.25× of the echo where the echo is slower)`],
    [
      `question 1${options.staggerSeconds === 0 ? " (all games at once)" : ""}`,
      `delivery ${formatLatency(figures.firstQuestionDeliveryMs)}; ack ${formatLatency(figures.firstQuestionAckMs)}`,
    ],
    [laterQuestionsLabel(options), `delivery ${formatLatency(figures.laterQuestionsDeliveryMs)}; ack ${formatLatency(figures.laterQuestionsAckMs)}`],
    [
      "answers",
      `${figures.answersSent} sent, ${figures.answersAcknowledged} acknowledged, ${figures.answersStored} stored; ` +
        `lost ${figures.lostAnswers}${figures.lostAnswers > 0 ? ` (${figures.lostUnacknowledged} never acknowledged, of which ${figures.answersRefused} refused with an ERROR; ${figures.lostNotStored} acknowledged but not stored)  <-- LOST` : ""}` +
        `${figures.strayAcks > 0 ? `, ${figures.strayAcks} stray acks` : ""}`,
    ],
    [
      "games finished",
      `${figures.gamesFinished}/${options.games}${figures.gamesFinished < options.games ? "  <-- UNFINISHED" : ""} (host and every player saw GAME_OVER; ${figures.gamesFinishedStored} finished in the database), last podium ${figures.playSeconds} s after the start`,
    ],
    [
      serverLabel(options.nodes, "CPU"),
      `${figures.serverCpuSecondsSetup} s setup, ${figures.serverCpuSecondsPlaying} s playing: ${figures.serverCpuMsPerPlayerQuestion} ms per player-question`,
    ],
    [
      serverLabel(options.nodes, "RSS"),
      `${figures.serverIdleRssMiB} MiB idle, ${figures.serverPeakRssMiB} MiB peak, ${figures.serverRssPerPlayerKiB} KiB per player`,
    ],
    ...(figures.cluster ? clusterRows(figures.cluster, options.games) : []),
    ["errors / dropped", `${figures.errorMessages} ERROR messages, ${figures.socketsClosedEarly} sockets closed early`],
    [
      "load generator",
      `${figures.generatorCpuSecondsPlaying} s CPU playing (all workers), event loop delay p99 ${figures.generatorLoopDelayP99Ms} ms (the worst worker)`,
    ],
  ];
}

/** The median of each figure over the runs, with every run's own value beside it. */
export function manyGamesMedianRows(options: ManyGamesOptions, runs: ManyGamesFigures[], medians: ManyGamesFigures): Array<[string, string]> {
  const of = (pick: (figures: ManyGamesFigures) => number) => withRuns(pick(medians), runs.map(pick));
  const latency = (pick: (figures: ManyGamesFigures) => LatencySummary) =>
    (["p50", "p95", "p99"] as const).map((p) => `${p} ${of((figures) => pick(figures)[p])}`).join(" · ") + " ms";
  return [
    ["runs", `${runs.length}, each on a fresh ${options.nodes > 1 ? "cluster" : "server"} and database; the median of each figure (each run's in parentheses)`],
    ["setup", `${of((figures) => figures.setupSeconds)} s`],
    ["question delivery", latency((figures) => figures.questionDeliveryMs)],
    ["bare ws broadcast", latency((figures) => figures.baselineDeliveryMs)],
    ["delivery p99 / baseline", `${of((figures) => figures.deliveryP99OverBaseline)}×`],
    ["answer ack", latency((figures) => figures.answerAckMs)],
    ["bare ws echo of every answer", latency((figures) => figures.echoAckMs)],
    ["answer ack p99 / echo", `${of((figures) => figures.ackP99OverEcho)}×`],
    ["question 1 delivery / ack", `${latency((figures) => figures.firstQuestionDeliveryMs)} / ${latency((figures) => figures.firstQuestionAckMs)}`],
    [
      `${laterQuestionsLabel(options)} delivery / ack`,
      `${latency((figures) => figures.laterQuestionsDeliveryMs)} / ${latency((figures) => figures.laterQuestionsAckMs)}`,
    ],
    ["lost answers", of((figures) => figures.lostAnswers)],
    ["games finished", `${of((figures) => figures.gamesFinished)} of ${options.games}`],
    [`${serverLabel(options.nodes, "CPU")} per player-question`, `${of((figures) => figures.serverCpuMsPerPlayerQuestion)} ms`],
    [`${serverLabel(options.nodes, "RSS")} idle / peak`, `${of((figures) => figures.serverIdleRssMiB)} / ${of((figures) => figures.serverPeakRssMiB)} MiB`],
    [`${serverLabel(options.nodes, "RSS")} per player`, `${of((figures) => figures.serverRssPerPlayerKiB)} KiB`],
    ...(medians.cluster
      ? clusterMedianRows(
          runs.map((figures) => figures.cluster!),
          medians.cluster,
        )
      : []),
    [
      "load generator",
      `${of((figures) => figures.generatorCpuSecondsPlaying)} s CPU playing, event loop delay p99 ${of((figures) => figures.generatorLoopDelayP99Ms)} ms`,
    ],
  ];
}
