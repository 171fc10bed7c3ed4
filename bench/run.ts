/**
 * `npm run bench [-- --players N --questions Q --time-limit S --workers W --kinds choice|mixed --pictures --no-display-remote]`
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
 */
import { execFileSync, fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import WebSocket from "ws";
import { HOST_NICKNAME } from "#app/game/rules";
import { measureHttp, type HttpFigure } from "./http";
import { startGameServer, type GameServer } from "./game-server";
import { measureLighthouse } from "./lighthouse";
import { lighthouseRows, type LighthouseSummary } from "./lighthouse-scores";
import { api, medianPlayerWeight, weightRows, type PlayerWeight } from "./player-weight";
import type { BaselineCommand, BaselineReport, ParentCommand, WorkerReport } from "./ipc";
import { benchPng } from "./png";
import { Screen, fetchScreenKeys, formatScreen, type ScreenFigures } from "./screens";
import { KINDS_SETTINGS, benchQuestions, questionsWithPicture, type KindsSetting } from "./questions";
import { MIB, formatLatency, sampleProcess, summarize, type LatencySummary } from "./stats";

const { values } = parseArgs({
  allowNegative: true,
  options: {
    players: { type: "string", default: "2000" },
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
  },
});
if (!(KINDS_SETTINGS as readonly string[]).includes(values.kinds!)) {
  throw new Error(`--kinds must be one of ${KINDS_SETTINGS.join(", ")} (got ${values.kinds}).`);
}
const kinds = values.kinds as KindsSetting;
const withPictures = values.pictures!;
const withScreens = values["display-remote"]!;
const playerCount = Number(values.players);
const questionCount = Number(values.questions ?? (kinds === "mixed" ? 12 : 5));
const timeLimitSeconds = Number(values["time-limit"]);
/** About 2,500 sockets per load-generator process keeps each one's event loop responsive. */
const workerCount = Number(values.workers ?? Math.max(2, Math.ceil(playerCount / 2500)));
const baselineBroadcasts = Number(values["baseline-broadcasts"]);
const httpSeconds = Number(values["http-seconds"]);
const httpConnections = Number(values["http-connections"]);
for (const [name, value] of Object.entries({ playerCount, questionCount, timeLimitSeconds, workerCount, baselineBroadcasts })) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1 (got ${value}).`);
}
const lighthouseRuns = Number(values["lighthouse-runs"]);
if (!Number.isInteger(lighthouseRuns) || lighthouseRuns < 0) throw new Error(`--lighthouse-runs must be a whole number (got ${values["lighthouse-runs"]}).`);

const root = path.resolve(import.meta.dirname, "..");
/** The size of a broadcast in the baseline: a QUESTION_STARTED of the bench's questions is 330-410 B with its kind, points and picture id. */
const BROADCAST_BYTES = 400;
const BASELINE_SPACING_MS = 1500;

function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A stuck run fails with what it was waiting for instead of hanging. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${what} after ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// ------------------------------------------------------------------ processes

/** The newest modification time of any file under `dir`, in ms. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * The bench runs the production build (`npm run serve`), not the source: a build older than any
 * file it is made from would benchmark yesterday's server, so it is rebuilt.
 */
function ensureBuild(): void {
  const built = path.join(root, "build/node/server.js");
  const sources = ["app", "server", "db", "migrations"].map((dir) => newestMtime(path.join(root, dir)));
  const newestSource = Math.max(...sources, fs.statSync(path.join(root, "server.ts")).mtimeMs);
  if (!fs.existsSync(built)) log("no build found: running `npm run build` once");
  else if (newestSource > fs.statSync(built).mtimeMs) log("the build is older than its sources: running `npm run build`");
  else return;
  execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
}

/** The real server on a fresh database; join limits lifted (every player is 127.0.0.1). */
function startBenchServer(): Promise<GameServer> {
  const limit = String(playerCount * 10);
  return startGameServer({
    root,
    nodeArgs: values.profile ? ["--cpu-prof", `--cpu-prof-dir=${path.join(root, "bench/profiles")}`] : [],
    env: {
      RESULTS_DELAY_MS: "500",
      NEXT_QUESTION_SECONDS: "1",
      JOIN_LIMIT_PER_IP: limit,
      JOIN_LIMIT_PER_IP_ALL_GAMES: limit,
      PLAYERS_PER_IP_PER_GAME: limit,
      JOIN_LIMIT_PER_GAME: limit,
      MAX_PLAYERS_PER_GAME: String(Math.max(playerCount, 10_000)),
    },
  });
}

/** A forked process that reports over IPC; `next(event)` waits for its next report of that kind. */
class Reporter<Command, Report extends { event: string }> {
  private readonly waiting = new Map<string, Array<(report: Report) => void>>();
  private failure: Error | null = null;
  private readonly onFailure = new Set<(error: Error) => void>();

  constructor(
    readonly child: ChildProcess,
    name: string,
  ) {
    child.on("message", (report: Report) => {
      if (report.event === "failed") return this.fail(new Error(`${name}: ${(report as { message?: string }).message}`));
      this.waiting.get(report.event)?.shift()?.(report);
    });
    child.once("exit", (code) => this.fail(new Error(`${name} exited (${code})`)));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const reject of this.onFailure) reject(error);
  }

  send(command: Command): void {
    this.child.send(command as object);
  }

  next<E extends Report["event"]>(event: E): Promise<Extract<Report, { event: E }>> {
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      const done = () => this.onFailure.delete(reject);
      this.onFailure.add(reject);
      const queue = this.waiting.get(event) ?? [];
      queue.push((report) => {
        done();
        resolve(report as Extract<Report, { event: E }>);
      });
      this.waiting.set(event, queue);
    });
  }

  stop(): void {
    this.child.removeAllListeners("exit");
    this.child.kill();
  }
}

type Worker = Reporter<ParentCommand, WorkerReport>;
type Baseline = Reporter<BaselineCommand, BaselineReport>;

function forkScript(file: string): ChildProcess {
  return fork(path.join(root, "bench", file), [], { execArgv: ["--import", "tsx"], cwd: root, stdio: ["ignore", "inherit", "inherit", "ipc"] });
}

/** Splits N players over the workers: [firstIndex, count] each. */
function slices(total: number, parts: number): Array<{ firstIndex: number; count: number }> {
  const size = Math.ceil(total / parts);
  return Array.from({ length: parts }, (_, part) => ({ firstIndex: part * size, count: Math.max(0, Math.min(size, total - part * size)) })).filter(
    (slice) => slice.count > 0,
  );
}

// ------------------------------------------------------------------ the baseline

async function measureBaseline(workers: Worker[]): Promise<{ delivery: LatencySummary; received: number; expected: number }> {
  const baseline: Baseline = new Reporter(forkScript("baseline-server.ts"), "baseline server");
  try {
    const { port } = await baseline.next("listening");
    const parts = slices(playerCount, workers.length);
    await Promise.all(
      parts.map((slice, index) => {
        const ready = workers[index].next("baselineReady");
        workers[index].send({ cmd: "baseline", url: `ws://127.0.0.1:${port}`, count: slice.count });
        return ready;
      }),
    );
    log(`baseline: ${playerCount} sockets open; ${baselineBroadcasts} broadcasts of ${BROADCAST_BYTES} bytes`);
    for (let round = 0; round < baselineBroadcasts; round++) {
      const sent = baseline.next("broadcast");
      baseline.send({ cmd: "broadcast", bytes: BROADCAST_BYTES });
      await sent;
      await sleep(BASELINE_SPACING_MS);
    }
    const samples: number[] = [];
    for (const worker of workers.slice(0, parts.length)) {
      const report = worker.next("baselineSamples");
      worker.send({ cmd: "collect" });
      samples.push(...(await report).deliveries);
    }
    await Promise.all(
      workers.slice(0, parts.length).map((worker) => {
        const closed = worker.next("closed");
        worker.send({ cmd: "close" });
        return closed;
      }),
    );
    return { delivery: summarize(samples), received: samples.length, expected: playerCount * baselineBroadcasts };
  } finally {
    baseline.send({ cmd: "stop" });
    await new Promise((resolve) => baseline.child.once("exit", resolve));
  }
}

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
  const host = new WebSocket(`${wsUrl}?clientId=${hostId}`, { perMessageDeflate: false });
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

    const results = await (await fetch(`${server.url}/api/games/${gameCode}/results`, { headers: { "x-client-id": hostId } })).json();
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

async function main(): Promise<void> {
  ensureBuild();
  const server = await startBenchServer();
  const workers: Worker[] = Array.from({ length: workerCount }, (_, index) => new Reporter(forkScript("load-worker.ts"), `load worker ${index + 1}`));
  log(
    `server ${server.url} (pid ${server.pid}); ${playerCount} players over ${workerCount} load-generator processes; kinds ${kinds}${withPictures ? ", pictures" : ""}`,
  );
  let baseline: Awaited<ReturnType<typeof measureBaseline>>;
  let game: GameFigures;
  let http: HttpFigure[] = [];
  let weight: { median: PlayerWeight; totals: number[] } | null = null;
  let lighthouse: LighthouseSummary | null = null;
  try {
    baseline = await measureBaseline(workers);
    log(`baseline delivery ${formatLatency(baseline.delivery)}`);
    game = await playGame(server, workers);
    if (httpSeconds > 0) {
      log(`http: autocannon, ${httpConnections} connections, ${httpSeconds} s per path`);
      http = await measureHttp(server.url, httpSeconds, httpConnections);
    }
    const weightRuns = Number(values["weight-runs"]);
    if (weightRuns > 0) {
      log(`player weight: ${weightRuns} phones in Chromium join and answer the first question`);
      weight = await medianPlayerWeight(server.url, weightRuns);
    }
    if (lighthouseRuns > 0) {
      log(`lighthouse: ${lighthouseRuns} runs of /, /join and /play/CODE, mobile profile`);
      lighthouse = await measureLighthouse(server.url, lighthouseRuns);
    }
  } finally {
    for (const worker of workers) worker.stop();
    await server.stop();
  }

  const deliveryRatioP99 = game.delivery.p99 / baseline.delivery.p99;
  const rssPerPlayerKiB = (game.peakRssBytes - game.idleRssBytes) / playerCount / 1024;
  const answersAllKept = game.sent === game.acknowledged && game.acknowledged === game.inFinalScores;
  const picturesOn = game.picture ? questionsWithPicture(questionCount) : 0;
  const kindsLabel = `kinds ${kinds}${game.picture ? `, a picture on ${picturesOn} of ${questionCount}` : ""}`;
  const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;

  printTable([
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
    ...http.map((figure): [string, string] => [
      `http GET ${figure.path}`,
      `${figure.requestsPerSecond} req/s, p50 ${figure.latencyP50Ms} ms, p99 ${figure.latencyP99Ms} ms (${figure.non2xx} non-2xx, ${figure.errors} errors)`,
    ]),
    ...(weight ? weightRows(weight.median, weight.totals, "npm run bench:weight") : []),
    ...(lighthouse ? lighthouseRows(lighthouse, `npm run bench:lighthouse -- --runs ${lighthouseRuns}`) : []),
  ]);
  if (game.errors.length > 0) log(`first errors: ${[...new Set(game.errors)].slice(0, 5).join(" | ")}`);

  const results = {
    date: new Date().toISOString(),
    displayAndRemote: withScreens,
    machine,
    command: `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim(),
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
    /** The largest QUESTION_STARTED frame a player received (the same figure; named for the README). */
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
    http,
    playerWeight: weight ? { medianBytes: weight.median.totalBytes, totals: weight.totals, files: weight.median.files } : null,
    lighthouse,
  };
  fs.writeFileSync(path.resolve(root, values.out!), `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote ${values.out}`);
  if (!answersAllKept) {
    log("answers were lost: sent, acknowledged and stored differ");
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
