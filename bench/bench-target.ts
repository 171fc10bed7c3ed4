/**
 * What a bench run plays against (issue 28, "Measure it"): one server of the build
 * (bench/game-server.ts) on its SQLite file or a fresh PostgreSQL database (bench/bench-database.ts),
 * or a local cluster of N nodes on one PostgreSQL behind the consistent-hash proxy, started with
 * the parts of `npm run cluster` (scripts/cluster-lib.ts: a throwaway PostgreSQL or `--database-url`,
 * the nodes of the build, the proxy in this process). The load goes to `url` either way, so the
 * single-game and many-games modes play the same load on both; what they read of the processes
 * (CPU time and RSS from /proc) they read of each node, and of a cluster also which node owns each
 * game at the end (game_owners) and the sockets each one forwarded to another (its /metrics).
 */
import { startLocalCluster, type LocalCluster } from "../scripts/cluster-lib";
import { freshDatabaseUrl, type BenchDatabase } from "./bench-database";
import { startGameServer } from "./game-server";
import { log, root } from "./processes";
import { MIB, resetPeakRss, sampleProcess, withRuns, type ProcessSample } from "./stats";

/** A process serving the games: the server, or one node of the cluster. */
export interface ServingProcess {
  /** `server`, or the node's id (`node-1`...). */
  id: string;
  pid: number;
}

export interface BenchTarget {
  /** Where the clients go: the server itself, or the cluster's proxy. */
  url: string;
  /** The server's SQLite file or PostgreSQL database (what the lost-answer check reads). */
  databaseLocation: string;
  processes: ServingProcess[];
  /** The cluster, when it is one. */
  cluster: LocalCluster | null;
  stop(): Promise<void>;
}

export interface BenchTargetOptions {
  /** 1: one server; 2 or more: a cluster on PostgreSQL. */
  nodes: number;
  /** One server's database (a cluster's is PostgreSQL). */
  database: BenchDatabase;
  /** A cluster's existing, empty database instead of a throwaway PostgreSQL. */
  databaseUrl?: string;
  /** The server's or each node's environment beyond its defaults: the bench's timing and lifted limits (benchServerEnv). */
  env: Record<string, string>;
  nodeArgs: string[];
}

/**
 * A cluster for the bench: the nodes log at `logLevel` (the one server's `info` by default, so both
 * spend the same on their logs) and only their errors reach the bench's output.
 */
export function startBenchCluster(options: {
  nodes: number;
  databaseUrl?: string;
  env: Record<string, string>;
  nodeArgs: string[];
  logLevel?: string;
}): Promise<LocalCluster> {
  return startLocalCluster({
    nodes: options.nodes,
    databaseUrl: options.databaseUrl,
    nodeArgs: options.nodeArgs,
    env: { ...options.env, LOG_LEVEL: options.logLevel ?? "info", SEED_DEMO: "false" },
    output: (nodeId, line) => {
      if (/"level":(50|60)/.test(line)) log(`${nodeId}: ${line.slice(0, 300)}`);
    },
    log: (line) => log(`cluster: ${line}`),
  });
}

export async function startBenchTarget(options: BenchTargetOptions): Promise<BenchTarget> {
  if (options.nodes > 1) {
    const cluster = await startBenchCluster(options);
    return {
      url: cluster.proxyUrl,
      databaseLocation: cluster.databaseUrl,
      // No node is restarted in these modes: each keeps its first process.
      processes: cluster.nodes.map((node) => ({ id: node.id, pid: node.pid })),
      cluster,
      stop: () => cluster.stop(),
    };
  }
  const server = await startGameServer({
    root,
    nodeArgs: options.nodeArgs,
    env: options.env,
    databaseUrl: await freshDatabaseUrl(options.database),
  });
  return {
    url: server.url,
    databaseLocation: server.databaseLocation,
    processes: [{ id: "server", pid: server.pid }],
    cluster: null,
    stop: () => server.stop(),
  };
}

/** What the target's processes ran on (`server (pid 123)`, `node-1 (pid 123), node-2 (pid 124)`) and where the clients go. */
export function describeTarget(target: BenchTarget): string {
  const processes = target.processes.map((process) => `${process.id} (pid ${process.pid})`).join(", ");
  return target.cluster ? `proxy ${target.url} in front of ${processes}` : `server ${target.url} (pid ${target.processes[0]!.pid})`;
}

// ------------------------------------------------------------------ the processes' CPU and memory

export type ProcessSamples = Map<string, ProcessSample>;

/**
 * Each serving process's CPU time and memory from /proc (bench/stats.ts), one reading of all of
 * them, and their peak RSS over a stretch: sampled every 100 ms and, with `kernelPeak`, the
 * kernel's own high-water mark restarted at the stretch's start (bench/stats.ts, resetPeakRss).
 */
export class ProcessWatch {
  private readonly peakBytes = new Map<string, number>();
  private readonly kernelPeaks = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly processes: readonly ServingProcess[]) {}

  /** Each process's reading; one that cannot be read (no /proc, or gone) is left out. */
  sample(): ProcessSamples {
    const samples: ProcessSamples = new Map();
    for (const { id, pid } of this.processes) {
      const sample = sampleProcess(pid);
      if (sample) samples.set(id, sample);
    }
    return samples;
  }

  /** Watches each process's peak RSS from `from` (a reading just taken) on. */
  watchPeaks(from: ProcessSamples, { kernelPeak }: { kernelPeak: boolean }): void {
    for (const { id, pid } of this.processes) {
      this.peakBytes.set(id, from.get(id)?.rssBytes ?? 0);
      if (kernelPeak && resetPeakRss(pid)) this.kernelPeaks.add(id);
    }
    this.timer = setInterval(() => this.samplePeaks(false), 100);
  }

  /** Stops watching; each process's peak RSS over the stretch. */
  stopPeaks(): Map<string, number> {
    clearInterval(this.timer);
    this.samplePeaks(true);
    return new Map(this.peakBytes);
  }

  private samplePeaks(withKernel: boolean): void {
    for (const [id, sample] of this.sample()) {
      const kernel = withKernel && this.kernelPeaks.has(id) ? sample.peakRssBytes : 0;
      this.peakBytes.set(id, Math.max(this.peakBytes.get(id) ?? 0, sample.rssBytes, kernel));
    }
  }
}

/** The sum over the processes of what `pick` reads of each (NaN when one was not read). */
export function sumOver(processes: readonly ServingProcess[], samples: ProcessSamples, pick: (sample: ProcessSample) => number): number {
  return processes.reduce((sum, { id }) => sum + (samples.has(id) ? pick(samples.get(id)!) : NaN), 0);
}

// ------------------------------------------------------------------ per node of a cluster

/** One node of a cluster over a run. */
export interface NodeFigures {
  /** CPU time over the play (user + system, /proc/PID/stat). */
  cpuSecondsPlaying: number;
  /** Freshly started, before any game was created. */
  idleRssMiB: number;
  /** The peak over setup and play. */
  peakRssMiB: number;
  /** The run's games that game_owners names this node for once they are over (a finished game's room stays in memory, owned, for minutes). */
  gamesOwned: number;
  /** Sockets it forwarded to another node that owned their game (quiz_night_forwarded_sockets_total). */
  forwardedSockets: number;
}

/** The cluster's figures beside the one-node ones. */
export interface ClusterFigures {
  /** The bench's own process over the play: the proxy all the sockets pass through, and the runner (which is idle then). */
  proxyCpuSecondsPlaying: number;
  /** The run's games no node owns at the end (released). */
  gamesUnowned: number;
  nodes: Record<string, NodeFigures>;
}

/** A metric of each node that answers its /metrics, by node id (a node that does not answer counts 0). */
export async function metricOfEachNode(cluster: LocalCluster, name: string): Promise<Record<string, number>> {
  const values: Record<string, number> = {};
  for (const node of cluster.nodes) {
    values[node.id] = 0;
    if (!node.running()) continue;
    try {
      values[node.id] = (await node.metrics()).get(name) ?? 0;
    } catch {
      // A node that does not answer (stopped) counts nothing.
    }
  }
  return values;
}

/** How many of the games with these codes game_owners names each node for; `null` for those released. */
async function gamesOwnedByNode(cluster: LocalCluster, gameCodes: readonly string[]): Promise<Map<string | null, number>> {
  const rows = await cluster.query<{ node_id: string | null; games: string }>(
    `select o.node_id, count(*) as games from game_owners o join games g on g.id = o.game_id where g.game_code = any($1::text[]) group by o.node_id`,
    [gameCodes],
  );
  return new Map(rows.map((row) => [row.node_id, Number(row.games)]));
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * The cluster's figures once its games are over: each node's CPU over the play and RSS, the games
 * it owns and the sockets it forwarded. `before` and `after` are the readings at the play's start
 * and end, `idle` the fresh one, `peaks` from ProcessWatch.
 */
export async function clusterFigures(
  target: BenchTarget,
  readings: { idle: ProcessSamples; before: ProcessSamples; after: ProcessSamples; peaks: Map<string, number>; proxyCpuSecondsPlaying: number },
  gameCodes: readonly string[],
): Promise<ClusterFigures | null> {
  const cluster = target.cluster;
  if (!cluster) return null;
  const owned = await gamesOwnedByNode(cluster, gameCodes);
  const forwarded = await metricOfEachNode(cluster, "quiz_night_forwarded_sockets_total");
  const nodes = Object.fromEntries(
    target.processes.map(({ id }) => [
      id,
      {
        cpuSecondsPlaying: round1((readings.after.get(id)?.cpuSeconds ?? NaN) - (readings.before.get(id)?.cpuSeconds ?? NaN)),
        idleRssMiB: round1((readings.idle.get(id)?.rssBytes ?? NaN) / MIB),
        peakRssMiB: round1((readings.peaks.get(id) ?? NaN) / MIB),
        gamesOwned: owned.get(id) ?? 0,
        forwardedSockets: forwarded[id] ?? 0,
      } satisfies NodeFigures,
    ]),
  );
  return { proxyCpuSecondsPlaying: round1(readings.proxyCpuSecondsPlaying), gamesUnowned: owned.get(null) ?? 0, nodes };
}

/** This process's CPU seconds so far (user + system): the proxy's, in a cluster run. */
export function ownCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

// ------------------------------------------------------------------ report

/** "server CPU", or a cluster's "nodes' CPU (all 3, summed)": a cluster's CPU and RSS figures are its nodes' summed (its RSS peak, each node's own peak). */
export function serverLabel(nodes: number, what: "CPU" | "RSS"): string {
  return nodes > 1 ? `nodes' ${what} (${nodes === 2 ? "both" : `all ${nodes}`}, summed)` : `server ${what}`;
}

/** A run's rows for the cluster: one per node, then the proxy. */
export function clusterRows(figures: ClusterFigures, games: number): Array<[string, string]> {
  return [
    ...Object.entries(figures.nodes).map(([id, node]): [string, string] => [
      id,
      `${node.cpuSecondsPlaying} s CPU playing; RSS ${node.idleRssMiB} MiB idle, ${node.peakRssMiB} MiB peak; owns ${node.gamesOwned} of ${games} game${games === 1 ? "" : "s"} at the end; forwarded ${node.forwardedSockets} sockets`,
    ]),
    ...(figures.gamesUnowned > 0 ? [["games owned by no node", `${figures.gamesUnowned} (released)`] as [string, string]] : []),
    ["proxy", `${figures.proxyCpuSecondsPlaying} s CPU playing (the bench's own process, scripts/cluster-proxy.ts)`],
  ];
}

/** The median rows for the cluster, each node's figures with every run's value beside them. */
export function clusterMedianRows(runs: readonly ClusterFigures[], medians: ClusterFigures): Array<[string, string]> {
  const of = (pick: (figures: ClusterFigures) => number) => withRuns(pick(medians), runs.map(pick));
  return [
    ...Object.keys(medians.nodes).map((id): [string, string] => {
      const node = (figures: ClusterFigures) => figures.nodes[id] ?? ({} as Partial<NodeFigures>);
      const pick = (name: keyof NodeFigures) => of((figures) => node(figures)[name] ?? NaN);
      return [
        id,
        `${pick("cpuSecondsPlaying")} s CPU playing; RSS ${pick("idleRssMiB")} MiB idle, ${pick("peakRssMiB")} MiB peak; owns ${pick("gamesOwned")} games; forwarded ${pick("forwardedSockets")} sockets`,
      ];
    }),
    ["proxy", `${of((figures) => figures.proxyCpuSecondsPlaying)} s CPU playing (the bench's own process)`],
  ];
}
