/**
 * `npm run bench [-- --players N --questions Q --time-limit S --workers W --kinds choice|mixed --pictures --no-display-remote --runs R --client lean|ws --database sqlite|postgres|both --nodes N --database-url URL --server-node-arg=ARG]`
 * `npm run bench -- --games G --players-per-game P [--stagger S --questions Q --time-limit S --workers W --kinds choice|mixed --runs R --client lean|ws --echo-rounds N --database sqlite|postgres|both --nodes N --database-url URL --server-node-arg=ARG]`
 * `npm run bench -- --outsider [--players N --questions Q --time-limit S --workers W --runs R --client ws|lean --settle-ms MS --no-answers --server-env NAME=VALUE]`
 * `npm run bench -- --nodes N --kill-owner-at Q|--hang-owner-at Q [--players P --questions Q --time-limit S --workers W --runs R --database-url URL]`
 *
 * Starts the production server (from the existing build; it builds once only when there is none)
 * on a loopback port with a fresh database, plus a bare `ws` baseline server, and drives both from
 * a load generator spread over several worker processes. It measures the baseline's broadcast, then
 * plays one game with N players who each answer at a random moment of every question, then runs a
 * short autocannon pass over the first pages and API a player hits, then measures what a phone
 * downloads from a join link to its first answer (bench/player-weight.ts, `--weight-runs 0` skips it), then
 * Lighthouse's scores for `/`, `/join` and a live `/play/CODE` (bench/lighthouse.ts, `--lighthouse-runs 0` skips it). Prints a table and writes
 * bench/results.json. Figures, not tests: nothing here passes or fails on speed; only lost answers
 * make it exit non-zero.
 *
 * `--database postgres` runs the server on a fresh database of a throwaway PostgreSQL instead of its
 * SQLite file (bench/bench-database.ts); `--database both` runs each run on one then the other, so
 * that both meet the same machine, and prints the medians of each.
 *
 * `--nodes N` (2 or more) plays the single-game or many-games mode's same load through the proxy of
 * a local cluster of N nodes on one PostgreSQL (a throwaway one, or `--database-url`), as `npm run
 * cluster` starts it (bench/bench-target.ts): the same figures, the nodes' CPU and RSS summed, and
 * each node's CPU time over the play, RSS, games owned at the end and forwarded sockets besides.
 *
 * `--kinds mixed` plays the six question kinds in rotation (12 questions, every kind twice, unless
 * --questions says otherwise) instead of four-option choice questions, each player answering each
 * kind plausibly (bench/questions.ts). `--pictures` uploads a generated PNG, puts it on the first
 * half of the questions and turns pictures on for players: the figure "question frame max bytes"
 * then shows that a picture round sends only the picture's id through the socket.
 *
 * The game is played with a projector's display and the host's phone attached, as on a quiz night
 * with a projector (docs/decisions/0032-display-and-remote.md; on by default, `--no-display-remote`
 * plays it with the host's connection alone, as the bench did before). Their keys come from the
 * host's lobby page, as the host's browser gets them; the display watches (WATCH_GAME with the
 * display key) and the remote joins as host with the remote key and starts the game (the game then
 * moves on by its own timers, as it always did here, so no Next is pressed). The table prints what
 * each received over the game (frames and bytes, from the lobby to the podium) and its question
 * delivery, beside the players' (bench/screens.ts).
 *
 * `--games G --players-per-game P` is the many-games mode (bench/many-games.ts): G games of P players
 * on one server, every host and player on its own loopback address, all started at the same moment
 * or spread over `--stagger S` seconds; no display or remote there. Its baseline broadcasts to as
 * many sockets as the games' hosts and players together, and the first question's figures are
 * printed apart from the later ones' (with no stagger, every game's first question opens at once).
 * After its broadcasts the bare server also opens `--echo-rounds` answer windows (default 2) as long
 * as a question's: every socket answers once at a random moment of each, and the bare server
 * acknowledges at once; the answer ack's p99 is printed over that echo's.
 *
 * `--runs R` repeats the whole measurement R times, each on a fresh server and database, prints each
 * run's table and then the median of each figure with every run's value, and writes the runs and the
 * medians to results.json (a single run of the single-game mode writes what it always did).
 *
 * `--client lean|ws` picks the simulated players' WebSocket client, for the game and the bare `ws`
 * baseline alike (bench/client-socket.ts): `lean`, the default, or `ws`'s own, as an outsider would.
 *
 * `--outsider` times a game as an outsider would (bench/outsider.ts): `ws`'s own clients (unless
 * `--client lean`) in worker processes, the host in this process driving the game question by
 * question, each question timed from the moment the host sent its command, against a bare `ws`
 * server that broadcasts on the host's command; `--server-env NAME=VALUE` (repeatable) starts the
 * server with a variable set, for studies such as `SQLITE_SYNCHRONOUS=normal`.
 *
 * `--nodes N --kill-owner-at Q` is the failover mode (bench/failover.ts): a local cluster of N nodes
 * on PostgreSQL (a throwaway one from Debian's binaries, or `--database-url`) behind the
 * consistent-hash proxy, one game whose players reconnect as the browser does, and its owner
 * killed (kill -9) 30 % into question Q; `--hang-owner-at Q` stops it (SIGSTOP) instead. It prints
 * how long the players took to be back in the game, when another node owned it, the acknowledged
 * answers lost or counted twice, the forwarded sockets and each node's CPU time.
 *
 * This file is the runner: its command line, the runs of each mode, their medians and results.json.
 * One run of the single-game mode is bench/single-game.ts (its table and results.json entry in
 * bench/single-game-figures.ts); one of the many-games mode, bench/many-games.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { CLIENT_KINDS } from "./client-socket";
import { defaultWorkerCount } from "./games-plan";
import {
  describeManyGames,
  machineDescription,
  manyGamesMedianRows,
  manyGamesRows,
  runManyGames,
  type ManyGamesFigures,
  type ManyGamesOptions,
} from "./many-games";
import { describeFailover, failoverMedianRows, failoverRows, measureFailover, type FailoverFigures, type FailoverOptions, type FailoverRun } from "./failover";
import { describeOutsider, measureOutsider, outsiderMedianRows, outsiderRows, type OutsiderFigures, type OutsiderOptions } from "./outsider";
import { pagePassResults, pagePassRows } from "./page-passes";
import { ensureBuild, log, root } from "./processes";
import { KINDS_SETTINGS, benchQuestions, type KindsSetting } from "./questions";
import { measureSingleGame, type SingleGameOptions, type SingleGameRun } from "./single-game";
import { medianFigures, withRuns, type LatencySummary } from "./stats";
import { stopBenchPostgres, type BenchDatabase } from "./bench-database";
import { benchSetup, targetLabel } from "./bench-mode";
import { clusterMedianRows, serverLabel } from "./bench-target";

const { values } = parseArgs({
  allowNegative: true,
  options: {
    /** The single-game mode: one game of N players (2000 when neither this nor --games is given). */
    players: { type: "string" },
    /** The many-games mode: G games at once, of --players-per-game players each. */
    games: { type: "string" },
    "players-per-game": { type: "string", default: "20" },
    /** Many games: their starts spread evenly over S seconds (0: all at the same moment). */
    stagger: { type: "string", default: "0" },
    /** The whole measurement R times, each on a fresh server and database; the median of each figure is printed. */
    runs: { type: "string", default: "1" },
    /** 5 for `--kinds choice`, 12 (every kind twice) for `--kinds mixed`. */
    questions: { type: "string" },
    /** `choice`: four-option choice questions, as the bench always played; `mixed`: the six kinds in rotation. */
    kinds: { type: "string", default: "choice" },
    /** A generated picture on the first half of the questions, shown on players' devices too. */
    pictures: { type: "boolean", default: false },
    "time-limit": { type: "string", default: "10" },
    workers: { type: "string" },
    "baseline-broadcasts": { type: "string", default: "5" },
    /** Many games: answer windows of the bare server's immediate echo, the floor of the answer ack (0 skips them). */
    "echo-rounds": { type: "string", default: "2" },
    "http-seconds": { type: "string", default: "5" },
    "http-connections": { type: "string", default: "10" },
    /** Phones (Chromium) that join and answer, for what a player downloads; 0 skips it. */
    "weight-runs": { type: "string", default: "3" },
    /** Lighthouse runs of each page (the median per category is printed); 0 skips it. */
    "lighthouse-runs": { type: "string", default: "3" },
    out: { type: "string", default: "bench/results.json" },
    /** A display (the projector) and a remote (the host's phone) attached to the game; `--no-display-remote` leaves them out. */
    "display-remote": { type: "boolean", default: true },
    /** Writes a V8 CPU profile of the server to bench/profiles/ (open it in Chrome DevTools). */
    profile: { type: "boolean", default: false },
    /** The simulated players' WebSocket client (bench/client-socket.ts): `lean`, the bench's own (the default), or `ws`'s (the default of --outsider). */
    client: { type: "string" },
    /** The outsider's measurement (bench/outsider.ts): `ws` clients in worker processes, each question timed from the host's command. */
    outsider: { type: "boolean", default: false },
    /** --outsider: how long the host waits after its leaderboard (or the lobby) before its next command. */
    "settle-ms": { type: "string", default: "1000" },
    /** --outsider: every player answers each question at a random moment of its window (`--no-answers`: none does). */
    answers: { type: "boolean", default: true },
    /** --outsider: NAME=VALUE for the server's environment (repeatable), e.g. `--server-env SQLITE_SYNCHRONOUS=normal`. */
    "server-env": { type: "string", multiple: true, default: [] },
    /** An argument for the server's `node` (repeatable), e.g. `--server-node-arg=--heap-growing-percent=0` for V8's own heap growth (docs/decisions/0039-heap-growth.md). */
    "server-node-arg": { type: "string", multiple: true, default: [] },
    /** Nodes of a local cluster on PostgreSQL behind the consistent-hash proxy (bench/bench-target.ts, scripts/cluster-lib.ts): 2 or more for the single-game and many-games modes' load on a cluster, and for the failover mode. */
    nodes: { type: "string", default: "1" },
    /**
     * The single-game and many-games modes: `sqlite` (the default), `postgres` (a fresh database on a
     * throwaway PostgreSQL, bench/bench-database.ts) or `both`, each run on one then the other.
     */
    database: { type: "string" },
    /** An existing, empty PostgreSQL database for the cluster (`--nodes` 2 or more) instead of a throwaway one. */
    "database-url": { type: "string" },
    /** The failover mode: kill -9 of the game's owner 30 % into question Q. */
    "kill-owner-at": { type: "string" },
    /** The failover mode: SIGSTOP of the game's owner 30 % into question Q (continued once replaced). */
    "hang-owner-at": { type: "string" },
  },
});
if (!(KINDS_SETTINGS as readonly string[]).includes(values.kinds!)) {
  throw new Error(`--kinds must be one of ${KINDS_SETTINGS.join(", ")} (got ${values.kinds}).`);
}
const kinds = values.kinds as KindsSetting;
const outsider = values.outsider!;
const client = values.client ?? (outsider ? "ws" : "lean");
if (!(CLIENT_KINDS as readonly string[]).includes(client)) throw new Error(`--client must be one of ${CLIENT_KINDS.join(", ")} (got ${client}).`);
// The load workers are forked with this environment (bench/processes.ts) and open their sockets by it.
process.env.BENCH_CLIENT = client;
// One node on SQLite, on PostgreSQL, or both in turn in one run (`both`: run 1 on each, then run 2 on
// each, ...), or a cluster of --nodes on PostgreSQL; which mode, and the combinations refused (bench/bench-mode.ts).
const setup = benchSetup({
  nodes: values.nodes!,
  games: values.games,
  outsider,
  killOwnerAt: values["kill-owner-at"],
  hangOwnerAt: values["hang-owner-at"],
  database: values.database,
  databaseUrl: values["database-url"],
  runs: Number(values.runs),
});
const manyGames = setup.mode === "many games";
const failover = setup.mode === "failover";
const nodeCount = setup.nodes;
const faultAt = values["kill-owner-at"] ?? values["hang-owner-at"];
const benchDatabases: BenchDatabase[] = setup.databases;
/** What each run's table says it was played on: `sqlite`, `postgres` or `3 nodes on postgres`. */
const labelOf = (database: BenchDatabase) => targetLabel(database, nodeCount);
if (manyGames && values.players !== undefined) throw new Error("--players is the single-game mode; with --games give --players-per-game.");
if (manyGames && values.pictures) throw new Error("--pictures is for the single-game mode.");
const withPictures = values.pictures!;
const withScreens = values["display-remote"]!;
const gameCount = Number(values.games ?? 1);
const playersPerGame = Number(values["players-per-game"]);
const staggerSeconds = Number(values.stagger);
const playerCount = manyGames ? gameCount * playersPerGame : Number(values.players ?? (failover ? 200 : 2000));
const questionCount = Number(values.questions ?? (kinds === "mixed" ? 12 : failover ? Math.max(5, Number(faultAt) + 1) : 5));
const timeLimitSeconds = Number(values["time-limit"]);
/** About 2,500 sockets per load-generator process keeps each one's event loop responsive (a host is a socket too). */
const workerCount = Number(values.workers ?? defaultWorkerCount(manyGames ? gameCount * (playersPerGame + 1) : playerCount));
const baselineBroadcasts = Number(values["baseline-broadcasts"]);
const httpSeconds = Number(values["http-seconds"]);
const httpConnections = Number(values["http-connections"]);
const runCount = Number(values.runs);
for (const [name, value] of Object.entries({
  playerCount,
  gameCount,
  playersPerGame,
  questionCount,
  timeLimitSeconds,
  workerCount,
  baselineBroadcasts,
  runCount,
})) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1 (got ${value}).`);
}
if (!(staggerSeconds >= 0)) throw new Error(`--stagger must be 0 or more seconds (got ${values.stagger}).`);
const lighthouseRuns = Number(values["lighthouse-runs"]);
if (!Number.isInteger(lighthouseRuns) || lighthouseRuns < 0) throw new Error(`--lighthouse-runs must be a whole number (got ${values["lighthouse-runs"]}).`);
const pageOptions = { httpSeconds, httpConnections, weightRuns: Number(values["weight-runs"]), lighthouseRuns };
/** The command as typed after `npm run bench`, printed with the figures and kept in results.json. */
const command = `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim();

/** What the server's `node` is started with: the arguments given, and the profiler's when asked for. */
const serverNodeArgs = [...values["server-node-arg"]!, ...(values.profile ? ["--cpu-prof", `--cpu-prof-dir=${path.join(root, "bench/profiles")}`] : [])];

/** The single-game mode's settings (bench/single-game.ts). */
const singleGameOptions: SingleGameOptions = {
  playerCount,
  questionCount,
  timeLimitSeconds,
  kinds,
  withPictures,
  withScreens,
  workerCount,
  baselineBroadcasts,
  serverNodeArgs,
  pages: pageOptions,
  command,
  database: "sqlite",
  nodes: nodeCount,
  databaseUrl: setup.databaseUrl,
};

// ------------------------------------------------------------------ report

function printTable(rows: Array<[string, string]>): void {
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value}`);
}

/** The single-game mode: one run writes what results.json always held; more runs, or two databases, write each run and the medians. */
async function mainSingleGame(): Promise<void> {
  const runs = new Map<BenchDatabase, SingleGameRun[]>(benchDatabases.map((database) => [database, []]));
  const many = runCount > 1 || benchDatabases.length > 1;
  for (let run = 1; run <= runCount; run++) {
    for (const database of benchDatabases) {
      const label = `run ${run} of ${runCount} on ${labelOf(database)}`;
      if (many) log(label);
      const outcome = await measureSingleGame({ ...singleGameOptions, database });
      runs.get(database)!.push(outcome);
      if (many) console.log(`\n${label}`);
      printTable(many || nodeCount > 1 ? [["command", command], ["database", labelOf(database)], ...outcome.rows] : outcome.rows);
    }
  }
  await stopBenchPostgres();
  if (!many) {
    writeResults(runs.get(benchDatabases[0])![0].results);
  } else {
    const byDatabase = benchDatabases.map((database) => {
      const results = runs.get(database)!.map((run) => run.results);
      const medians = medianFigures(results) as unknown as (typeof results)[number];
      printSingleGameMedians(database, results, medians);
      return { database, runs: results, median: medians };
    });
    writeResults({ date: new Date().toISOString(), command, machine: machineDescription(), mode: "single game", databases: byDatabase });
  }
  if ([...runs.values()].flat().some((run) => !run.answersAllKept)) {
    log("answers were lost: sent, acknowledged and stored differ");
    process.exitCode = 1;
  }
}

type SingleGameFigures = SingleGameRun["results"];

function printSingleGameMedians(database: BenchDatabase, results: SingleGameFigures[], medians: SingleGameFigures): void {
  const of = (pick: (figures: SingleGameFigures) => number, unit = "") =>
    withRuns(pick(medians), results.map(pick), (value) => `${Math.round(value * 100) / 100}${unit}`);
  const latency = (pick: (figures: SingleGameFigures) => LatencySummary) =>
    (["p50", "p95", "p99"] as const).map((p) => `${p} ${of((figures) => pick(figures)[p])}`).join(" · ") + " ms";
  console.log(`\nmedians of ${results.length} runs on ${labelOf(database)}`);
  printTable([
    ["command", command],
    ["database", labelOf(database)],
    ["runs", `${results.length}, each on a fresh ${nodeCount > 1 ? "cluster" : "server"} and database; the median of each figure (each run's in parentheses)`],
    ["join", `${of((figures) => figures.joinSeconds, " s")}`],
    ["question delivery", latency((figures) => figures.questionDeliveryMs)],
    ["bare ws broadcast", latency((figures) => figures.baselineBroadcastMs)],
    ["delivery p99 / baseline", of((figures) => figures.deliveryP99RatioToBaseline, "×")],
    ["answer ack", latency((figures) => figures.answerAckMs)],
    ["answers lost (sent − stored)", of((figures) => figures.answersSent - figures.answersInFinalScores)],
    [
      `${serverLabel(nodeCount, "CPU")} joining / playing`,
      `${of((figures) => figures.serverCpuSecondsJoining, " s")} / ${of((figures) => figures.serverCpuSecondsPlaying, " s")}`,
    ],
    [
      `${serverLabel(nodeCount, "RSS")} idle / per player`,
      `${of((figures) => figures.serverIdleRssMiB, " MiB")} / ${of((figures) => figures.serverRssPerPlayerKiB, " KiB")}`,
    ],
    ...(medians.cluster
      ? clusterMedianRows(
          results.map((figures) => figures.cluster!),
          medians.cluster,
        )
      : []),
  ]);
}

/** The many-games mode (bench/many-games.ts). */
async function mainManyGames(): Promise<void> {
  const options: ManyGamesOptions = {
    games: gameCount,
    playersPerGame,
    questions: benchQuestions(kinds, questionCount, null),
    timeLimitSeconds,
    staggerSeconds,
    workers: workerCount,
    baselineBroadcasts,
    echoRounds: Number(values["echo-rounds"]),
    serverNodeArgs,
    pages: pageOptions,
    database: "sqlite",
    nodes: nodeCount,
    databaseUrl: setup.databaseUrl,
  };
  if (!Number.isInteger(options.echoRounds) || options.echoRounds < 0) throw new Error(`--echo-rounds must be a whole number (got ${values["echo-rounds"]}).`);
  const settings = describeManyGames(options, `kinds ${kinds}`);
  type PerRun = { figures: ManyGamesFigures; firstErrors: string[]; startedAtMonotonicMs: number; pages: ReturnType<typeof pagePassResults> };
  const perRun = new Map<BenchDatabase, PerRun[]>(benchDatabases.map((database) => [database, []]));
  for (let run = 1; run <= runCount; run++) {
    for (const database of benchDatabases) {
      const label = `run ${run} of ${runCount} on ${labelOf(database)}`;
      log(label);
      const outcome = await runManyGames({ ...options, database });
      perRun.get(database)!.push({
        figures: outcome.figures,
        firstErrors: outcome.firstErrors,
        startedAtMonotonicMs: outcome.startedAtMonotonicMs,
        pages: pagePassResults(outcome.pages),
      });
      console.log(`\n${label}`);
      printTable([
        ["command", command],
        ["machine", machineDescription()],
        ["database", labelOf(database)],
        ["games", settings],
        ...manyGamesRows(options, outcome.figures),
        ...pagePassRows(outcome.pages, lighthouseRuns),
      ]);
      if (outcome.firstErrors.length > 0) log(`first errors: ${outcome.firstErrors.join(" | ")}`);
    }
  }
  await stopBenchPostgres();
  const byDatabase = benchDatabases.map((database) => {
    const runs = perRun.get(database)!;
    const figures = runs.map((run) => run.figures);
    const medians = medianFigures(figures) as unknown as ManyGamesFigures;
    if (runCount > 1) {
      console.log(`\nmedians of ${runCount} runs on ${labelOf(database)}`);
      printTable([["command", command], ["database", labelOf(database)], ["games", settings], ...manyGamesMedianRows(options, figures, medians)]);
    }
    return { database, runs, median: medians };
  });
  writeResults({
    date: new Date().toISOString(),
    command,
    machine: machineDescription(),
    mode: "many games",
    nodes: nodeCount,
    games: gameCount,
    playersPerGame,
    players: playerCount,
    questions: questionCount,
    kinds,
    timeLimitSeconds,
    staggerSeconds,
    loadGeneratorProcesses: Math.min(workerCount, gameCount),
    ...(byDatabase.length === 1 ? { runs: byDatabase[0].runs, median: byDatabase[0].median } : { databases: byDatabase }),
  });
  if ([...perRun.values()].flat().some((run) => run.figures.lostAnswers > 0)) {
    log("answers were lost: sent but not acknowledged, or acknowledged but not stored");
    process.exitCode = 1;
  }
}

/** The failover mode (bench/failover.ts). */
async function mainFailover(): Promise<void> {
  const options: FailoverOptions = {
    nodes: nodeCount,
    playerCount,
    questionCount,
    timeLimitSeconds,
    workerCount,
    fault: values["kill-owner-at"] !== undefined ? "kill" : "hang",
    atQuestion: Number(faultAt),
    databaseUrl: setup.databaseUrl,
    serverNodeArgs,
  };
  if (!Number.isInteger(options.atQuestion) || options.atQuestion < 1 || options.atQuestion > questionCount) {
    throw new Error(`--${options.fault}-owner-at must be a question from 1 to ${questionCount} (got ${faultAt}).`);
  }
  const runs: FailoverRun[] = [];
  for (let run = 1; run <= runCount; run++) {
    log(`run ${run} of ${runCount}`);
    runs.push(await measureFailover(options));
    console.log(`\nrun ${run} of ${runCount}`);
    printTable([["command", command], ["failover", describeFailover(options)], ...failoverRows(runs.at(-1)!)]);
  }
  const medians = medianFigures(runs.map((run) => run.figures)) as unknown as FailoverFigures;
  if (runCount > 1) {
    console.log(`\nmedians of ${runCount} runs`);
    printTable([["command", command], ["failover", describeFailover(options)], ...failoverMedianRows(runs, medians)]);
  }
  writeResults({
    date: new Date().toISOString(),
    command,
    machine: machineDescription(),
    mode: "failover",
    options: { ...options, databaseUrl: undefined },
    runs,
    median: medians,
  });
  if (runs.some((run) => run.figures.answersLost > 0 || run.figures.answersCountedTwice > 0)) {
    log("acknowledged answers were lost or counted twice");
    process.exitCode = 1;
  }
}

/** The outsider's measurement (bench/outsider.ts). */
async function mainOutsider(): Promise<void> {
  const serverEnv = Object.fromEntries(
    values["server-env"]!.map((pair) => {
      const at = pair.indexOf("=");
      if (at <= 0) throw new Error(`--server-env takes NAME=VALUE (got ${pair}).`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
  const settleMs = Number(values["settle-ms"]);
  if (!(settleMs >= 0)) throw new Error(`--settle-ms must be 0 or more (got ${values["settle-ms"]}).`);
  const options: OutsiderOptions = {
    playerCount,
    questionCount,
    timeLimitSeconds,
    workerCount,
    settleMs,
    answers: values.answers!,
    serverNodeArgs,
    serverEnv,
  };
  const runs: OutsiderFigures[] = [];
  for (let run = 1; run <= runCount; run++) {
    log(`run ${run} of ${runCount}`);
    runs.push(await measureOutsider(options));
    console.log(`\nrun ${run} of ${runCount}`);
    printTable([["command", command], ["outsider", describeOutsider(options)], ...outsiderRows(runs.at(-1)!)]);
  }
  const medians = medianFigures(runs) as unknown as OutsiderFigures;
  if (runCount > 1) {
    console.log(`\nmedians of ${runCount} runs`);
    printTable([["command", command], ["outsider", describeOutsider(options)], ...outsiderMedianRows(runs, medians)]);
  }
  writeResults({ date: new Date().toISOString(), command, machine: machineDescription(), mode: "outsider", options, runs, median: medians });
}

function writeResults(results: object): void {
  fs.writeFileSync(path.resolve(root, values.out!), `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote ${values.out}`);
}

async function main(): Promise<void> {
  ensureBuild();
  await (failover ? mainFailover() : outsider ? mainOutsider() : manyGames ? mainManyGames() : mainSingleGame());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
