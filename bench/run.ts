/**
 * `npm run bench [-- --players N --questions Q --time-limit S --workers W --kinds choice|mixed --pictures --no-display-remote --runs R --server-node-arg=ARG]`
 * `npm run bench -- --games G --players-per-game P [--stagger S --questions Q --time-limit S --workers W --kinds choice|mixed --runs R --server-node-arg=ARG]`
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
 *
 * `--runs R` repeats the whole measurement R times, each on a fresh server and database, prints each
 * run's table and then the median of each figure with every run's value, and writes the runs and the
 * medians to results.json (a single run of the single-game mode writes what it always did).
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import WebSocket from "ws";
import { HOST_NICKNAME } from "#app/game/rules";
import { benchServerEnv, startGameServer, type GameServer } from "./game-server";
import { defaultWorkerCount } from "./games-plan";
import { api } from "./player-weight";
import type { ParentCommand, WorkerReport } from "./ipc";
import { BROADCAST_BYTES, measureBaseline, slices, type BaselineFigures } from "./baseline";
import {
  describeManyGames,
  machineDescription,
  manyGamesMedianRows,
  manyGamesRows,
  runManyGames,
  type ManyGamesFigures,
  type ManyGamesOptions,
} from "./many-games";
import { pagePassResults, pagePassRows, runPagePasses, type PagePasses } from "./page-passes";
import { benchPng } from "./png";
import { Reporter, ensureBuild, forkScript, log, root, sleep, within } from "./processes";
import { Screen, fetchScreenKeys, formatScreen, type ScreenFigures } from "./screens";
import { KINDS_SETTINGS, benchQuestions, questionsWithPicture, type KindsSetting } from "./questions";
import { MIB, formatLatency, medianFigures, sampleProcess, summarize, withRuns, type LatencySummary } from "./stats";
import { withCookies } from "./cookie-jar";

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
    /** An argument for the server's `node` (repeatable), e.g. `--server-node-arg=--heap-growing-percent=0` for V8's own heap growth (docs/decisions/0039-heap-growth.md). */
    "server-node-arg": { type: "string", multiple: true, default: [] },
  },
});
if (!(KINDS_SETTINGS as readonly string[]).includes(values.kinds!)) {
  throw new Error(`--kinds must be one of ${KINDS_SETTINGS.join(", ")} (got ${values.kinds}).`);
}
const kinds = values.kinds as KindsSetting;
const manyGames = values.games !== undefined;
if (manyGames && values.players !== undefined) throw new Error("--players is the single-game mode; with --games give --players-per-game.");
if (manyGames && values.pictures) throw new Error("--pictures is for the single-game mode.");
const withPictures = values.pictures!;
const withScreens = values["display-remote"]!;
const gameCount = Number(values.games ?? 1);
const playersPerGame = Number(values["players-per-game"]);
const staggerSeconds = Number(values.stagger);
const playerCount = manyGames ? gameCount * playersPerGame : Number(values.players ?? 2000);
const questionCount = Number(values.questions ?? (kinds === "mixed" ? 12 : 5));
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

/** The real server on a fresh database; join limits lifted (every player is 127.0.0.1). */
function startBenchServer(): Promise<GameServer> {
  return startGameServer({
    root,
    nodeArgs: serverNodeArgs,
    env: benchServerEnv(playerCount * 10, playerCount),
  });
}

type Worker = Reporter<ParentCommand, WorkerReport>;

// ------------------------------------------------------------------ the game

interface Picture {
  id: string;
  /** The PNG uploaded. */
  uploadBytes: number;
  /** The renditions players and the host fetch over HTTP from /images/:id. */
  smallBytes: number;
  largeBytes: number;
}

/** Uploads a generated PNG as a host would (multipart field `image`) and measures what the server serves back. */
async function uploadPicture(url: string, clientId: string): Promise<Picture> {
  const png = benchPng();
  const form = new FormData();
  form.append("image", new Blob([new Uint8Array(png)], { type: "image/png" }), "bench.png");
  const response = await fetch(`${url}/api/images`, { method: "POST", headers: { "x-client-id": clientId }, body: form });
  if (!response.ok) throw new Error(`/api/images: ${response.status} ${await response.text()}`);
  const { id, url: largeUrl, smallUrl } = (await response.json()) as { id: string; url: string; smallUrl: string };
  const size = async (pathname: string) => {
    const image = await fetch(url + pathname);
    if (!image.ok) throw new Error(`${pathname}: ${image.status}`);
    return (await image.arrayBuffer()).byteLength;
  };
  return { id, uploadBytes: png.byteLength, smallBytes: await size(smallUrl), largeBytes: await size(largeUrl) };
}

interface GameFigures {
  joinSeconds: number;
  delivery: LatencySummary;
  ack: LatencySummary;
  ackByKind: Record<string, LatencySummary>;
  deliveryByKind: Record<string, LatencySummary>;
  picture: Picture | null;
  sent: number;
  acknowledged: number;
  strayAcks: number;
  inFinalScores: number;
  errors: string[];
  unexpectedCloses: number;
  questionStartedBytes: number;
  cpuSecondsJoining: number;
  cpuSecondsPlaying: number;
  idleRssBytes: number;
  peakRssBytes: number;
  /** The projector's display and the host's phone, when attached. */
  display: ScreenFigures | null;
  remote: ScreenFigures | null;
}

async function playGame(server: GameServer, workers: Worker[]): Promise<GameFigures> {
  const hostId = "bench-host";
  const quiz = await api(server.url, "/api/quizzes", { title: "Capacity benchmark", timeLimit: timeLimitSeconds, isPublic: false }, hostId);
  const picture = withPictures ? await uploadPicture(server.url, hostId) : null;
  const questions = benchQuestions(kinds, questionCount, picture?.id ?? null);
  for (const question of questions) await api(server.url, "/api/questions", { quizId: quiz.id, ...question.body }, hostId);
  const { gameCode } = await api(server.url, "/api/games", { quizId: quiz.id }, hostId);
  await api(server.url, `/api/games/${gameCode}/register-host`, { clientId: hostId }, hostId);

  const wsUrl = `${server.url.replace(/^http/, "ws")}/ws`;
  // With the host secret the server set when the game was made (docs/decisions/0044-shared-browsers.md).
  const host = new WebSocket(`${wsUrl}?clientId=${hostId}`, { perMessageDeflate: false, headers: withCookies(hostId, {}) });
  await new Promise((resolve, reject) => host.once("open", resolve).once("error", reject));
  const hostReady = new Promise<void>((resolve) => {
    host.on("message", (data: Buffer) => {
      if (data.toString().startsWith('{"type":"GAME_SNAPSHOT"')) resolve();
    });
  });
  host.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode, nickname: HOST_NICKNAME } }));
  await hostReady;
  // Players are told to show the picture too: the most a QUESTION_STARTED carries for it (its id).
  if (picture) host.send(JSON.stringify({ type: "SET_PICTURES_ON_PLAYERS", payload: { gameCode, enabled: true } }));
  // The projector and the host's phone are there before the players, as on the night.
  let display: Screen | null = null;
  let remote: Screen | null = null;
  if (withScreens) {
    const { displayKey, remoteKey } = await fetchScreenKeys(server.url, gameCode, hostId);
    display = await Screen.open("display", wsUrl, "bench-display");
    await within(display.join(gameCode, { display: displayKey }), 10_000, "the display's snapshot");
    remote = await Screen.open("remote", wsUrl, "bench-remote");
    await within(remote.join(gameCode, { remote: remoteKey }), 10_000, "the remote's snapshot");
  }

  const idle = sampleProcess(server.pid);
  let peakRssBytes = idle?.rssBytes ?? 0;
  const rssSampler = setInterval(() => {
    peakRssBytes = Math.max(peakRssBytes, sampleProcess(server.pid)?.rssBytes ?? 0);
  }, 100);

  try {
    const parts = slices(playerCount, workers.length);
    const joinStart = Date.now();
    const joined = parts.map((_, index) => workers[index].next("joined"));
    const finished = parts.map((_, index) => workers[index].next("finished"));
    const keys = questions.map((question) => question.key);
    parts.forEach((slice, index) => workers[index].send({ cmd: "play", url: wsUrl, gameCode, keys, ...slice }));
    const joinReports = await within(Promise.all(joined), 60_000 + playerCount * 10, "all players to join");
    const joinEnd = Math.max(...joinReports.map((report) => report.at));
    const joinSeconds = (joinEnd - joinStart) / 1000;
    const afterJoin = sampleProcess(server.pid);
    log(`game ${gameCode}: ${playerCount} players joined in ${joinSeconds.toFixed(2)} s; playing ${questionCount} questions`);

    // The remote runs the game when it is there; the host's own connection otherwise.
    if (remote) remote.send("START_GAME", { gameCode });
    else host.send(JSON.stringify({ type: "START_GAME", payload: { gameCode } }));
    const gameMs = questionCount * (timeLimitSeconds + 10) * 1000 + 60_000;
    const reports = await within(Promise.all(finished), gameMs, "the game to finish");
    const afterGame = sampleProcess(server.pid);
    // A screen that never sees the podium is reported as such (the table says MISSING), not waited for.
    if (display && remote) await Promise.race([Promise.all([display.gameOver, remote.gameOver]), sleep(30_000)]);

    const results = await (await fetch(`${server.url}/api/games/${gameCode}/results`, { headers: withCookies(hostId, { "x-client-id": hostId }) })).json();
    const inFinalScores = results.players.reduce((sum: number, player: { answeredCount: number }) => sum + player.answeredCount, 0);
    peakRssBytes = Math.max(peakRssBytes, sampleProcess(server.pid)?.rssBytes ?? 0);
    const ackKinds = [...new Set(questions.map((question) => question.kind))];
    const acksOf = (kind: string) => reports.flatMap((report) => report.acksByKind[kind] ?? []);
    return {
      joinSeconds,
      delivery: summarize(reports.flatMap((report) => report.deliveries)),
      ack: summarize(reports.flatMap((report) => Object.values(report.acksByKind).flat())),
      ackByKind: Object.fromEntries(ackKinds.map((kind) => [kind, summarize(acksOf(kind))])),
      deliveryByKind: Object.fromEntries(ackKinds.map((kind) => [kind, summarize(reports.flatMap((report) => report.deliveriesByKind[kind] ?? []))])),
      picture,
      sent: reports.reduce((sum, report) => sum + report.sent, 0),
      acknowledged: reports.reduce((sum, report) => sum + report.acknowledged, 0),
      strayAcks: reports.reduce((sum, report) => sum + report.strayAcks, 0),
      inFinalScores,
      errors: reports.flatMap((report) => report.errors),
      unexpectedCloses: reports.reduce((sum, report) => sum + report.unexpectedCloses, 0),
      questionStartedBytes: Math.max(...reports.map((report) => report.questionStartedBytes)),
      cpuSecondsJoining: (afterJoin?.cpuSeconds ?? NaN) - (idle?.cpuSeconds ?? NaN),
      cpuSecondsPlaying: (afterGame?.cpuSeconds ?? NaN) - (afterJoin?.cpuSeconds ?? NaN),
      idleRssBytes: idle?.rssBytes ?? NaN,
      peakRssBytes,
      display: display?.figures() ?? null,
      remote: remote?.figures() ?? null,
    };
  } finally {
    clearInterval(rssSampler);
    host.terminate();
    display?.close();
    remote?.close();
    await Promise.all(
      workers.map((worker) => {
        const closed = worker.next("closed");
        worker.send({ cmd: "close" });
        return closed;
      }),
    );
  }
}

// ------------------------------------------------------------------ report

const round1 = (value: number) => Math.round(value * 10) / 10;

/** Whether a display or remote saw the whole game: every question, the podium, no ERROR. */
function screenProblems(figures: ScreenFigures): string {
  const problems = [
    figures.questionsSeen === questionCount ? null : `saw ${figures.questionsSeen} of ${questionCount} questions  <-- MISSING`,
    figures.sawGameOver ? null : "no podium  <-- MISSING",
    figures.errors.length > 0 ? `${figures.errors.length} ERROR messages (${figures.errors[0]})` : null,
  ].filter(Boolean);
  return problems.length > 0 ? problems.join(", ") : `every question and the podium, no ERROR`;
}

function printTable(rows: Array<[string, string]>): void {
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value}`);
}

interface SingleGameRun {
  rows: Array<[string, string]>;
  /** What results.json has always held for one run. */
  results: ReturnType<typeof singleGameResults>;
  answersAllKept: boolean;
}

/** One run of the single-game mode: a fresh server and load workers, the baseline, the game, the page passes. */
async function measureSingleGame(): Promise<SingleGameRun> {
  const server = await startBenchServer();
  const workers: Worker[] = Array.from({ length: workerCount }, (_, index) => new Reporter(forkScript("load-worker.ts"), `load worker ${index + 1}`));
  log(
    `server ${server.url} (pid ${server.pid}); ${playerCount} players over ${workerCount} load-generator processes; kinds ${kinds}${withPictures ? ", pictures" : ""}`,
  );
  let baseline: BaselineFigures;
  let game: GameFigures;
  let pages: PagePasses;
  try {
    baseline = await measureBaseline(workers, { sockets: playerCount, broadcasts: baselineBroadcasts });
    log(`baseline delivery ${formatLatency(baseline.delivery)}`);
    game = await playGame(server, workers);
    pages = await runPagePasses(server.url, pageOptions);
  } finally {
    for (const worker of workers) worker.stop();
    await server.stop();
  }

  const deliveryRatioP99 = game.delivery.p99 / baseline.delivery.p99;
  const rssPerPlayerKiB = (game.peakRssBytes - game.idleRssBytes) / playerCount / 1024;
  const answersAllKept = game.sent === game.acknowledged && game.acknowledged === game.inFinalScores;
  const picturesOn = game.picture ? questionsWithPicture(questionCount) : 0;
  const kindsLabel = `kinds ${kinds}${game.picture ? `, a picture on ${picturesOn} of ${questionCount}` : ""}`;
  const machine = machineDescription();

  const rows: Array<[string, string]> = [
    ["machine", machine],
    ["players × questions", `${playerCount} × ${questionCount} (time limit ${timeLimitSeconds} s, ${kindsLabel}), ${workerCount} load-generator processes`],
    ["join", `${playerCount} in the lobby after ${game.joinSeconds.toFixed(2)} s (${Math.round(playerCount / game.joinSeconds)} players/s)`],
    ["question delivery", formatLatency(game.delivery)],
    ["bare ws broadcast", `${formatLatency(baseline.delivery)}, ${baseline.received}/${baseline.expected} received`],
    ["delivery p99 / baseline", `${deliveryRatioP99.toFixed(2)}× (QUESTION_STARTED ${game.questionStartedBytes} B vs ${BROADCAST_BYTES} B)`],
    [
      "question frame max bytes",
      `${game.questionStartedBytes} B${
        game.picture
          ? ` with a picture on players (picture over HTTP: ${game.picture.uploadBytes} B PNG uploaded, ${game.picture.smallBytes} B small / ${game.picture.largeBytes} B large WebP)`
          : " (no pictures)"
      }`,
    ],
    ...(game.display && game.remote
      ? ([
          ["display (projector)", `${formatScreen(game.display)}; ${screenProblems(game.display)}`],
          ["display question delivery", formatLatency(game.display.delivery)],
          ["remote (host's phone)", `${formatScreen(game.remote)}; ${screenProblems(game.remote)}`],
          ["remote question delivery", formatLatency(game.remote.delivery)],
        ] as Array<[string, string]>)
      : [["display and remote", "not attached (--no-display-remote)"] as [string, string]]),
    ["answer ack", formatLatency(game.ack)],
    ...(kinds === "mixed"
      ? [
          [
            "question delivery p99 by kind",
            Object.entries(game.deliveryByKind)
              .map(([kind, delivery]) => `${kind} ${delivery.p99}`)
              .join(" · ") + " ms",
          ] as [string, string],
          [
            "answer ack p99 by kind",
            Object.entries(game.ackByKind)
              .map(([kind, ack]) => `${kind} ${ack.p99}`)
              .join(" · ") + " ms",
          ] as [string, string],
        ]
      : []),
    [
      "answers",
      `${game.sent} sent, ${game.acknowledged} acknowledged, ${game.inFinalScores} in the final scores${answersAllKept ? "" : "  <-- MISMATCH"}${
        game.strayAcks > 0 ? `, ${game.strayAcks} stray acks` : ""
      }`,
    ],
    ["server CPU", `${round1(game.cpuSecondsJoining)} s joining, ${round1(game.cpuSecondsPlaying)} s playing`],
    [
      "server RSS",
      `${Math.round(game.idleRssBytes / MIB)} MiB idle, ${Math.round(game.peakRssBytes / MIB)} MiB peak, ${round1(rssPerPlayerKiB)} KiB per player`,
    ],
    ["errors / dropped", `${game.errors.length} ERROR messages, ${game.unexpectedCloses} sockets closed early`],
    ...pagePassRows(pages, lighthouseRuns),
  ];
  if (game.errors.length > 0) log(`first errors: ${[...new Set(game.errors)].slice(0, 5).join(" | ")}`);
  return { rows, results: singleGameResults(game, baseline, pages, machine, deliveryRatioP99, rssPerPlayerKiB, picturesOn), answersAllKept };
}

function singleGameResults(
  game: GameFigures,
  baseline: BaselineFigures,
  pages: PagePasses,
  machine: string,
  deliveryRatioP99: number,
  rssPerPlayerKiB: number,
  picturesOn: number,
) {
  return {
    date: new Date().toISOString(),
    displayAndRemote: withScreens,
    machine,
    command,
    players: playerCount,
    questions: questionCount,
    kinds,
    questionKinds: Object.keys(game.ackByKind),
    picturesOnQuestions: picturesOn,
    picture: game.picture,
    timeLimitSeconds,
    loadGeneratorProcesses: workerCount,
    joinSeconds: Number(game.joinSeconds.toFixed(2)),
    joinRatePerSecond: Math.round(playerCount / game.joinSeconds),
    questionDeliveryMs: game.delivery,
    baselineBroadcastMs: baseline.delivery,
    deliveryP99RatioToBaseline: Number(deliveryRatioP99.toFixed(2)),
    questionStartedBytes: game.questionStartedBytes,
    /** The largest QUESTION_STARTED frame a player received (the same figure; named for docs/capacity.md). */
    questionFrameMaxBytes: game.questionStartedBytes,
    baselineBroadcastBytes: BROADCAST_BYTES,
    answerAckMs: game.ack,
    answerAckMsByKind: game.ackByKind,
    questionDeliveryMsByKind: game.deliveryByKind,
    answersSent: game.sent,
    answersAcknowledged: game.acknowledged,
    strayAcks: game.strayAcks,
    answersInFinalScores: game.inFinalScores,
    errorMessages: game.errors.length,
    socketsClosedEarly: game.unexpectedCloses,
    serverCpuSecondsJoining: round1(game.cpuSecondsJoining),
    serverCpuSecondsPlaying: round1(game.cpuSecondsPlaying),
    serverIdleRssMiB: Math.round(game.idleRssBytes / MIB),
    serverPeakRssMiB: Math.round(game.peakRssBytes / MIB),
    serverRssPerPlayerKiB: round1(rssPerPlayerKiB),
    /** What the projector's display and the host's phone received over the game (null with --no-display-remote). */
    display: game.display,
    remote: game.remote,
    ...pagePassResults(pages),
  };
}

/** The single-game mode: one run writes what results.json always held; more runs write each run and the medians. */
async function mainSingleGame(): Promise<void> {
  const runs: SingleGameRun[] = [];
  for (let run = 1; run <= runCount; run++) {
    if (runCount > 1) log(`run ${run} of ${runCount}`);
    const outcome = await measureSingleGame();
    runs.push(outcome);
    if (runCount > 1) console.log(`\nrun ${run} of ${runCount}`);
    printTable(runCount > 1 ? [["command", command], ...outcome.rows] : outcome.rows);
  }
  if (runCount === 1) {
    writeResults(runs[0].results);
  } else {
    const results = runs.map((run) => run.results);
    const medians = medianFigures(results) as unknown as (typeof results)[number];
    const of = (pick: (figures: (typeof results)[number]) => number, unit = "") =>
      withRuns(pick(medians), results.map(pick), (value) => `${Math.round(value * 100) / 100}${unit}`);
    const latency = (pick: (figures: (typeof results)[number]) => LatencySummary) =>
      (["p50", "p95", "p99"] as const).map((p) => `${p} ${of((figures) => pick(figures)[p])}`).join(" · ") + " ms";
    console.log(`\nmedians of ${runCount} runs`);
    printTable([
      ["command", command],
      ["runs", `${runCount}, each on a fresh server and database; the median of each figure (each run's in parentheses)`],
      ["join", `${of((figures) => figures.joinSeconds, " s")}`],
      ["question delivery", latency((figures) => figures.questionDeliveryMs)],
      ["bare ws broadcast", latency((figures) => figures.baselineBroadcastMs)],
      ["delivery p99 / baseline", of((figures) => figures.deliveryP99RatioToBaseline, "×")],
      ["answer ack", latency((figures) => figures.answerAckMs)],
      ["answers lost (sent − stored)", of((figures) => figures.answersSent - figures.answersInFinalScores)],
      ["server CPU joining / playing", `${of((figures) => figures.serverCpuSecondsJoining, " s")} / ${of((figures) => figures.serverCpuSecondsPlaying, " s")}`],
      ["server RSS idle / per player", `${of((figures) => figures.serverIdleRssMiB, " MiB")} / ${of((figures) => figures.serverRssPerPlayerKiB, " KiB")}`],
    ]);
    writeResults({ date: new Date().toISOString(), command, machine: machineDescription(), mode: "single game", runs: results, median: medians });
  }
  if (runs.some((run) => !run.answersAllKept)) {
    log("answers were lost: sent, acknowledged and stored differ");
    process.exitCode = 1;
  }
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
    serverNodeArgs,
    pages: pageOptions,
  };
  const settings = describeManyGames(options, `kinds ${kinds}`);
  const runs: ManyGamesFigures[] = [];
  const perRun: Array<{ figures: ManyGamesFigures; firstErrors: string[]; pages: ReturnType<typeof pagePassResults> }> = [];
  for (let run = 1; run <= runCount; run++) {
    log(`run ${run} of ${runCount}`);
    const outcome = await runManyGames(options);
    runs.push(outcome.figures);
    perRun.push({ figures: outcome.figures, firstErrors: outcome.firstErrors, pages: pagePassResults(outcome.pages) });
    console.log(`\nrun ${run} of ${runCount}`);
    printTable([
      ["command", command],
      ["machine", machineDescription()],
      ["games", settings],
      ...manyGamesRows(options, outcome.figures),
      ...pagePassRows(outcome.pages, lighthouseRuns),
    ]);
    if (outcome.firstErrors.length > 0) log(`first errors: ${outcome.firstErrors.join(" | ")}`);
  }
  const medians = medianFigures(runs) as unknown as ManyGamesFigures;
  if (runCount > 1) {
    console.log(`\nmedians of ${runCount} runs`);
    printTable([["command", command], ["games", settings], ...manyGamesMedianRows(options, runs, medians)]);
  }
  writeResults({
    date: new Date().toISOString(),
    command,
    machine: machineDescription(),
    mode: "many games",
    games: gameCount,
    playersPerGame,
    players: playerCount,
    questions: questionCount,
    kinds,
    timeLimitSeconds,
    staggerSeconds,
    loadGeneratorProcesses: Math.min(workerCount, gameCount),
    runs: perRun,
    median: medians,
  });
  if (runs.some((figures) => figures.lostAnswers > 0)) {
    log("answers were lost: sent but not acknowledged, or acknowledged but not stored");
    process.exitCode = 1;
  }
}

function writeResults(results: object): void {
  fs.writeFileSync(path.resolve(root, values.out!), `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote ${values.out}`);
}

async function main(): Promise<void> {
  ensureBuild();
  await (manyGames ? mainManyGames() : mainSingleGame());
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
