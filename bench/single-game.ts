/**
 * One run of the single-game mode of `npm run bench` (bench/run.ts): a fresh production server and
 * load workers, the bare `ws` baseline (bench/baseline.ts), one game of N players with the projector's
 * display and the host's phone attached (bench/screens.ts), then the page passes (bench/page-passes.ts).
 * Its table and results.json entry are made in bench/single-game-figures.ts.
 *
 * With `--nodes N` the game is played through the proxy of a local cluster of N nodes on one
 * PostgreSQL (bench/bench-target.ts): the proxy sends every socket of the game to one node by its
 * code, so this is one node on PostgreSQL behind the proxy's hop, with the others answering HTTP.
 * The server's CPU and RSS are then the nodes' together, each node's printed beside them.
 */
import WebSocket from "ws";
import { HOST_NICKNAME } from "#app/game/rules";
import { measureBaseline, slices, type BaselineFigures } from "./baseline";
import { withCookies } from "./cookie-jar";
import { benchServerEnv } from "./game-server";
import type { BenchDatabase } from "./bench-database";
import { ProcessWatch, clusterFigures, describeTarget, ownCpuSeconds, startBenchTarget, sumOver, type BenchTarget, type ClusterFigures } from "./bench-target";
import type { ParentCommand, WorkerReport } from "./ipc";
import { machineDescription } from "./many-games";
import { runPagePasses, type PagePassOptions, type PagePasses } from "./page-passes";
import { api } from "./player-weight";
import { benchPng } from "./png";
import { Reporter, forkScript, log, sleep, within } from "./processes";
import { benchQuestions, questionsWithPicture, type KindsSetting } from "./questions";
import { Screen, fetchScreenKeys, type ScreenFigures } from "./screens";
import { singleGameResults, singleGameRows } from "./single-game-figures";
import { formatLatency, summarize, type LatencySummary } from "./stats";

/** What bench/run.ts reads from its command line for the single-game mode. */
export interface SingleGameOptions {
  playerCount: number;
  questionCount: number;
  timeLimitSeconds: number;
  kinds: KindsSetting;
  withPictures: boolean;
  /** A display (the projector) and a remote (the host's phone) attached to the game. */
  withScreens: boolean;
  workerCount: number;
  baselineBroadcasts: number;
  /** What the server's `node` is started with. */
  serverNodeArgs: string[];
  pages: PagePassOptions;
  /** The command as typed after `npm run bench`, printed with the figures and kept in results.json. */
  command: string;
  /** Where the server keeps its data (bench/bench-database.ts); a cluster's is PostgreSQL. */
  database: BenchDatabase;
  /** 1: one server; 2 or more: a local cluster behind the consistent-hash proxy (bench/bench-target.ts). */
  nodes: number;
  /** A cluster's existing, empty database instead of a throwaway PostgreSQL. */
  databaseUrl?: string;
}

/** The real server (or cluster) on a fresh database; join limits lifted (every player is 127.0.0.1). */
async function startBenchServer(options: SingleGameOptions): Promise<BenchTarget> {
  return startBenchTarget({
    nodes: options.nodes,
    database: options.database,
    databaseUrl: options.databaseUrl,
    nodeArgs: options.serverNodeArgs,
    env: benchServerEnv(options.playerCount * 10, options.playerCount),
  });
}

type Worker = Reporter<ParentCommand, WorkerReport>;

export interface Picture {
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

export interface GameFigures {
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
  /** A cluster's: every node's together. */
  cpuSecondsJoining: number;
  cpuSecondsPlaying: number;
  /** A cluster's: the sum of each node's. */
  idleRssBytes: number;
  peakRssBytes: number;
  /** With `--nodes`: each node's figures and the proxy's. */
  cluster: ClusterFigures | null;
  /** The projector's display and the host's phone, when attached. */
  display: ScreenFigures | null;
  remote: ScreenFigures | null;
}

async function playGame(server: BenchTarget, workers: Worker[], options: SingleGameOptions): Promise<GameFigures> {
  const { playerCount, questionCount, timeLimitSeconds, kinds, withPictures, withScreens } = options;
  const hostId = "bench-host";
  const quiz = await api(server.url, "/api/quizzes", { title: "Capacity benchmark", timeLimit: timeLimitSeconds, isPublic: false }, hostId);
  const picture = withPictures ? await uploadPicture(server.url, hostId) : null;
  const questions = benchQuestions(kinds, questionCount, picture?.id ?? null);
  for (const question of questions) await api(server.url, "/api/questions", { quizId: quiz.id, ...question.body }, hostId);
  const { gameCode } = await api(server.url, "/api/games", { quizId: quiz.id }, hostId);
  await api(server.url, `/api/games/${gameCode}/register-host`, { clientId: hostId }, hostId);

  const wsUrl = `${server.url.replace(/^http/, "ws")}/ws`;
  // With the host secret the server set when the game was made (docs/decisions/0044-shared-browsers.md).
  const host = new WebSocket(`${wsUrl}?clientId=${hostId}&game=${gameCode}`, { perMessageDeflate: false, headers: withCookies(hostId, {}) });
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
    display = await Screen.open("display", wsUrl, "bench-display", gameCode);
    await within(display.join(gameCode, { display: displayKey }), 10_000, "the display's snapshot");
    remote = await Screen.open("remote", wsUrl, "bench-remote", gameCode);
    await within(remote.join(gameCode, { remote: remoteKey }), 10_000, "the remote's snapshot");
  }

  const watch = new ProcessWatch(server.processes);
  const idle = watch.sample();
  // Its 100 ms samples alone, as this mode has always taken its peak (the many-games mode adds the kernel's).
  watch.watchPeaks(idle, { kernelPeak: false });
  const cpu = (samples: typeof idle) => sumOver(server.processes, samples, (sample) => sample.cpuSeconds);

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
    const afterJoin = watch.sample();
    const proxyCpuBefore = ownCpuSeconds();
    log(`game ${gameCode}: ${playerCount} players joined in ${joinSeconds.toFixed(2)} s; playing ${questionCount} questions`);

    // The remote runs the game when it is there; the host's own connection otherwise.
    if (remote) remote.send("START_GAME", { gameCode });
    else host.send(JSON.stringify({ type: "START_GAME", payload: { gameCode } }));
    const gameMs = questionCount * (timeLimitSeconds + 10) * 1000 + 60_000;
    const reports = await within(Promise.all(finished), gameMs, "the game to finish");
    const afterGame = watch.sample();
    const proxyCpuSecondsPlaying = ownCpuSeconds() - proxyCpuBefore;
    // A screen that never sees the podium is reported as such (the table says MISSING), not waited for.
    if (display && remote) await Promise.race([Promise.all([display.gameOver, remote.gameOver]), sleep(30_000)]);

    const results = await (await fetch(`${server.url}/api/games/${gameCode}/results`, { headers: withCookies(hostId, { "x-client-id": hostId }) })).json();
    const inFinalScores = results.players.reduce((sum: number, player: { answeredCount: number }) => sum + player.answeredCount, 0);
    const peaks = watch.stopPeaks();
    const cluster = await clusterFigures(server, { idle, before: afterJoin, after: afterGame, peaks, proxyCpuSecondsPlaying }, [gameCode]);
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
      cpuSecondsJoining: cpu(afterJoin) - cpu(idle),
      cpuSecondsPlaying: cpu(afterGame) - cpu(afterJoin),
      idleRssBytes: sumOver(server.processes, idle, (sample) => sample.rssBytes),
      peakRssBytes: server.processes.reduce((sum, { id }) => sum + (peaks.get(id) ?? NaN), 0),
      cluster,
      display: display?.figures() ?? null,
      remote: remote?.figures() ?? null,
    };
  } finally {
    watch.stopPeaks();
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

export interface SingleGameRun {
  rows: Array<[string, string]>;
  /** What results.json has always held for one run. */
  results: ReturnType<typeof singleGameResults>;
  answersAllKept: boolean;
}

/** One run of the single-game mode: a fresh server and load workers, the baseline, the game, the page passes. */
export async function measureSingleGame(options: SingleGameOptions): Promise<SingleGameRun> {
  const { playerCount, questionCount, kinds, withPictures, workerCount, baselineBroadcasts } = options;
  const server = await startBenchServer(options);
  const workers: Worker[] = Array.from({ length: workerCount }, (_, index) => new Reporter(forkScript("load-worker.ts"), `load worker ${index + 1}`));
  log(`${describeTarget(server)}; ${playerCount} players over ${workerCount} load-generator processes; kinds ${kinds}${withPictures ? ", pictures" : ""}`);
  let baseline: BaselineFigures;
  let game: GameFigures;
  let pages: PagePasses;
  try {
    baseline = await measureBaseline(workers, { sockets: playerCount, broadcasts: baselineBroadcasts });
    log(`baseline delivery ${formatLatency(baseline.delivery)}`);
    game = await playGame(server, workers, options);
    pages = await runPagePasses(server.url, options.pages);
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

  const rows = singleGameRows(options, game, baseline, pages, { machine, kindsLabel, deliveryRatioP99, rssPerPlayerKiB, answersAllKept });
  if (game.errors.length > 0) log(`first errors: ${[...new Set(game.errors)].slice(0, 5).join(" | ")}`);
  return {
    rows,
    results: singleGameResults(options, game, baseline, pages, machine, deliveryRatioP99, rssPerPlayerKiB, picturesOn),
    answersAllKept,
  };
}
