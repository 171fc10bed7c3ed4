/**
 * One run of the bench's failover mode (`npm run bench -- --nodes 3 --kill-owner-at Q` or
 * `--hang-owner-at Q`, issue 28 "Measure it"): a local cluster (scripts/cluster-lib.ts: PostgreSQL,
 * N nodes of the production build, the consistent-hash proxy), one game of `--players` players who
 * reconnect as the browser does (bench/failover-client.ts, `ws` clients in worker processes), and
 * at question Q, 30 % into its time, the game's owner killed with SIGKILL or stopped with SIGSTOP.
 *
 * It times, from that moment on the machine's monotonic clock: each player's return to the game
 * (the GAME_SNAPSHOT on the socket it opened after the drop), and when another node owned the game
 * (game_owners). Once the game is over it compares what the players were acknowledged with what the
 * database holds: an acknowledged answer missing is lost; a second row for one player and question,
 * or a score that is not the sum of the player's stored points, is an answer counted twice. It
 * reads each node's forwarded sockets from /metrics and its CPU time from /proc.
 *
 * A stopped owner is continued once another node owns the game and every player is back (or after
 * `HANG_LIMIT_MS`), so the run also shows what the fence does to it.
 */
import { HOST_NICKNAME } from "#app/game/rules";
import type { LocalCluster } from "../scripts/cluster-lib";
import { metricOfEachNode, startBenchCluster } from "./bench-target";
import { slices } from "./baseline";
import { FailoverClient, type ReceivedMessage } from "./failover-client";
import { gameSocketUrl, hostHeaders, makeGame } from "./failover-game";
import type { FailoverCommand, FailoverReport, PlayerOutcome } from "./failover-ipc";
import { benchServerEnv } from "./game-server";
import { machineDescription } from "./many-games";
import { monotonicMs } from "./monotonic";
import { Reporter, forkScript, log, sleep, within } from "./processes";
import { formatLatency, summarize, withRuns, type LatencySummary } from "./stats";

type Worker = Reporter<FailoverCommand, FailoverReport>;

/** How long a stopped owner stays stopped at most. */
const HANG_LIMIT_MS = 30_000;

export interface FailoverOptions {
  nodes: number;
  playerCount: number;
  questionCount: number;
  timeLimitSeconds: number;
  workerCount: number;
  /** SIGKILL (kill -9) or SIGSTOP (a hang) of the game's owner. */
  fault: "kill" | "hang";
  /** The question in which the owner is killed or stopped. */
  atQuestion: number;
  /** An existing PostgreSQL database (emptied by nobody: give a fresh one); a throwaway one when absent. */
  databaseUrl?: string;
  serverNodeArgs: string[];
}

export interface FailoverFigures {
  /** From the fault until each player was back in the game (ms). */
  back: LatencySummary;
  /** Players not back in the game before it ended. */
  notBack: number;
  /** From the fault until game_owners named another node (ms); NaN when none did within the limit. */
  replacedMs: number;
  answersSent: number;
  answersAcknowledged: number;
  answersStored: number;
  /** Acknowledged but not stored. */
  answersLost: number;
  /** Extra rows for one player and question, plus players whose stored score is not the sum of their stored points. */
  answersCountedTwice: number;
  playersFinished: number;
  /** ERROR messages the players saw. */
  playerErrors: number;
  /** Sockets the nodes forwarded to the game's owner (quiz_night_forwarded_sockets_total, the live nodes at the end). */
  forwardedSockets: number;
  /** Commits refused by the fence (quiz_night_fenced_commits_total, the live nodes at the end). */
  fencedCommits: number;
  /** CPU seconds of each node over the run, node-1 first. */
  cpuSeconds: Record<string, number>;
}

export interface FailoverRun {
  figures: FailoverFigures;
  /** "node-2 → node-3". */
  takeover: string;
  firstErrors: string[];
}

async function collect(workers: Worker[], since: number): Promise<PlayerOutcome[]> {
  const all: PlayerOutcome[] = [];
  for (const worker of workers) {
    const next = worker.next("outcomes");
    worker.send({ cmd: "collect", since });
    all.push(...(await next).players);
  }
  return all;
}

/** A metric summed over the nodes that answer their /metrics. */
async function sumMetric(cluster: LocalCluster, name: string): Promise<number> {
  return Object.values(await metricOfEachNode(cluster, name)).reduce((sum, value) => sum + value, 0);
}

export async function measureFailover(options: FailoverOptions): Promise<FailoverRun> {
  if (options.nodes < 2) throw new Error("--kill-owner-at and --hang-owner-at need --nodes 2 or more: another node takes the game over.");
  if (options.atQuestion < 1 || options.atQuestion > options.questionCount) throw new Error(`the fault's question must be 1 to ${options.questionCount}`);
  const cluster = await startBenchCluster({
    nodes: options.nodes,
    databaseUrl: options.databaseUrl,
    nodeArgs: options.serverNodeArgs,
    env: benchServerEnv(options.playerCount * 10, options.playerCount),
    logLevel: "warn",
  });
  const workers: Worker[] = Array.from({ length: options.workerCount }, (_, i) => new Reporter(forkScript("failover-worker.ts"), `failover worker ${i + 1}`));
  let host: FailoverClient | null = null;
  try {
    const cpuAtStart = Object.fromEntries(cluster.nodes.map((node) => [node.id, node.cpuSeconds()]));
    const proxy = cluster.proxyUrl;
    const game = await makeGame(proxy, {
      hostId: "failover-host",
      questionCount: options.questionCount,
      timeLimitSeconds: options.timeLimitSeconds,
      title: "Failover bench",
    });
    const { gameCode } = game;
    const started = new Map<number, ReceivedMessage>();
    let over = false;
    host = new FailoverClient({
      url: () => gameSocketUrl(proxy, game.hostId, gameCode),
      headers: hostHeaders(game.hostId),
      join: { type: "JOIN_GAME", payload: { gameCode, nickname: HOST_NICKNAME } },
      now: monotonicMs,
      onMessage: (message) => {
        if (message.type === "QUESTION_STARTED" && !started.has(message.payload.questionNumber)) started.set(message.payload.questionNumber, message);
        if (message.type === "GAME_OVER") over = true;
      },
    });
    host.start();
    await within(new Promise<void>((resolve) => host!.on("message", () => host!.snapshot && resolve())), 20_000, "the host's snapshot");
    const parts = slices(options.playerCount, workers.length);
    await within(
      Promise.all(
        parts.map((slice, i) => {
          const ready = workers[i]!.next("ready");
          workers[i]!.send({ cmd: "join", baseUrl: proxy, gameCode, keys: game.keys, ...slice });
          return ready;
        }),
      ),
      60_000 + options.playerCount * 20,
      "every player to join",
    );
    log(`failover, game ${gameCode}: ${options.playerCount} players joined over ${parts.length} processes; ${options.nodes} nodes`);
    host.send("START_GAME", { gameCode });

    const waitFor = async (what: string, check: () => boolean, ms: number) => {
      const deadline = Date.now() + ms;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
        await sleep(20);
      }
    };
    await waitFor(
      `question ${options.atQuestion}`,
      () => started.has(options.atQuestion),
      (options.timeLimitSeconds + 15) * 1000 * options.atQuestion + 30_000,
    );
    const question = started.get(options.atQuestion)!;
    await sleep((question.payload.endsAt - question.payload.serverNow) * 0.3);
    const owner = (await cluster.ownerOf(gameCode))!;
    const node = cluster.node(owner.nodeId);
    const faultAt = monotonicMs();
    if (options.fault === "kill") await node.kill();
    else node.pause();
    log(`failover: ${options.fault === "kill" ? "killed (SIGKILL)" : "stopped (SIGSTOP)"} ${node.id}, the owner, in question ${options.atQuestion}`);

    let replacedMs = NaN;
    let newOwner = "none";
    const replaceDeadline = Date.now() + HANG_LIMIT_MS;
    while (Date.now() < replaceDeadline) {
      const now = await cluster.ownerOf(gameCode);
      if (now && now.nodeId !== owner.nodeId) {
        replacedMs = Math.round(monotonicMs() - faultAt);
        newOwner = now.nodeId;
        break;
      }
      await sleep(20);
    }
    if (options.fault === "hang") {
      // Every player back (or the limit), then the hung node continues and meets its fence.
      const backDeadline = faultAt + HANG_LIMIT_MS;
      while (monotonicMs() < backDeadline) {
        const outcomes = await collect(workers.slice(0, parts.length), faultAt);
        if (outcomes.every((outcome) => outcome.backAt !== null)) break;
        await sleep(500);
      }
      node.resume();
      log(`failover: ${node.id} continued (SIGCONT) ${Math.round(monotonicMs() - faultAt)} ms after it stopped`);
    }
    await waitFor("the podium", () => over, (options.timeLimitSeconds + 15) * 1000 * (options.questionCount - options.atQuestion + 1) + 60_000);
    await sleep(2000);
    const outcomes = await collect(workers.slice(0, parts.length), faultAt);
    const forwardedSockets = await sumMetric(cluster, "quiz_night_forwarded_sockets_total");
    const fencedCommits = await sumMetric(cluster, "quiz_night_fenced_commits_total");
    const cpuSeconds = Object.fromEntries(cluster.nodes.map((n) => [n.id, Math.round((n.cpuSeconds() - cpuAtStart[n.id]!) * 10) / 10]));

    const stored = await cluster.query<{ player_id: string; question_index: string; rows: string }>(
      `select a.player_id, a.question_index, count(*) as rows from answers a join games g on g.id = a.game_id where g.game_code = $1 group by a.player_id, a.question_index`,
      [gameCode],
    );
    const storedKeys = new Set(stored.map((row) => `${row.player_id}:${row.question_index}`));
    const extraRows = stored.reduce((sum, row) => sum + Number(row.rows) - 1, 0);
    const scoreMismatches = await cluster.query<{ id: string }>(
      `select p.id from players p join games g on g.id = p.game_id
       left join (select game_id, player_id, sum(points) as points from answers group by game_id, player_id) a on a.game_id = p.game_id and a.player_id = p.id
       where g.game_code = $1 and p.score != coalesce(a.points, 0)`,
      [gameCode],
    );
    let acknowledged = 0;
    let lost = 0;
    for (const outcome of outcomes) {
      for (const questionNumber of outcome.acknowledged) {
        acknowledged++;
        if (!storedKeys.has(`${outcome.playerId}:${questionNumber - 1}`)) lost++;
      }
    }
    const backTimes = outcomes.filter((outcome) => outcome.backAt !== null).map((outcome) => outcome.backAt! - faultAt);
    const errors = outcomes.flatMap((outcome) => outcome.errors);
    return {
      takeover: `${owner.nodeId} → ${newOwner}`,
      firstErrors: [...new Set(errors)].slice(0, 5),
      figures: {
        back: summarize(backTimes),
        notBack: outcomes.filter((outcome) => outcome.backAt === null).length,
        replacedMs,
        answersSent: outcomes.reduce((sum, outcome) => sum + outcome.sent, 0),
        answersAcknowledged: acknowledged,
        answersStored: stored.length + extraRows,
        answersLost: lost,
        answersCountedTwice: extraRows + scoreMismatches.length,
        playersFinished: outcomes.filter((outcome) => outcome.finished).length,
        playerErrors: errors.length,
        forwardedSockets,
        fencedCommits,
        cpuSeconds,
      },
    };
  } finally {
    host?.terminate();
    await Promise.all(
      workers.map(async (worker) => {
        try {
          const closed = worker.next("closed");
          worker.send({ cmd: "close" });
          await within(closed, 10_000, "a worker's close");
        } catch {
          // stopped below
        }
        worker.stop();
      }),
    );
    await cluster.stop();
  }
}

// ------------------------------------------------------------------ report

export function describeFailover(options: FailoverOptions): string {
  return (
    `${options.nodes} nodes on PostgreSQL behind the consistent-hash proxy; one game of ${options.playerCount} players (ws clients that reconnect as the browser does, ` +
    `over ${options.workerCount} processes), ${options.questionCount} questions of ${options.timeLimitSeconds} s; the owner ${options.fault === "kill" ? "killed (kill -9)" : "stopped (SIGSTOP)"} ` +
    `30 % into question ${options.atQuestion}; ${machineDescription()}`
  );
}

const cpuLine = (cpu: Record<string, number>) =>
  Object.entries(cpu)
    .map(([id, seconds]) => `${id} ${seconds} s`)
    .join(" · ");

export function failoverRows(run: FailoverRun): Array<[string, string]> {
  const f = run.figures;
  return [
    ["takeover", run.takeover],
    ["players back in the game, from the fault", `${formatLatency(f.back)}; not back: ${f.notBack}`],
    ["another node owned the game after", Number.isFinite(f.replacedMs) ? `${f.replacedMs} ms` : `not within ${HANG_LIMIT_MS / 1000} s`],
    ["answers sent / acknowledged / stored", `${f.answersSent} / ${f.answersAcknowledged} / ${f.answersStored}`],
    ["acknowledged answers lost / counted twice", `${f.answersLost} / ${f.answersCountedTwice}`],
    [
      "players who saw the podium",
      `${f.playersFinished}; errors they saw: ${f.playerErrors}${run.firstErrors.length ? ` (${run.firstErrors.join(", ")})` : ""}`,
    ],
    ["forwarded sockets / fenced commits", `${f.forwardedSockets} / ${f.fencedCommits}`],
    ["CPU per node", cpuLine(f.cpuSeconds)],
  ];
}

export function failoverMedianRows(runs: FailoverRun[], medians: FailoverFigures): Array<[string, string]> {
  const figures = runs.map((run) => run.figures);
  const of = (pick: (figures: FailoverFigures) => number) => withRuns(pick(medians), figures.map(pick));
  return [
    ["runs", `${runs.length}, each on a fresh cluster and database; the median of each figure (each run's in parentheses)`],
    ["takeovers", runs.map((run) => run.takeover).join("; ")],
    [
      "players back, from the fault",
      `p50 ${of((f) => f.back.p50)} · p95 ${of((f) => f.back.p95)} · max ${of((f) => f.back.max)} ms; not back ${of((f) => f.notBack)}`,
    ],
    ["another node owned the game after", `${of((f) => f.replacedMs)} ms`],
    [
      "acknowledged answers lost / counted twice",
      `${of((f) => f.answersLost)} / ${of((f) => f.answersCountedTwice)} (acknowledged ${of((f) => f.answersAcknowledged)})`,
    ],
    ["forwarded sockets / fenced commits", `${of((f) => f.forwardedSockets)} / ${of((f) => f.fencedCommits)}`],
    [
      "CPU per node",
      Object.keys(medians.cpuSeconds)
        .map((id) => `${id} ${of((f) => f.cpuSeconds[id] ?? NaN)} s`)
        .join(" · "),
    ],
  ];
}
