/**
 * A local Quiz Night cluster as parts to drive: a throwaway PostgreSQL (scripts/local-postgres.ts),
 * N real node processes of the production build (`node build/node/server.js`, as `npm run serve`
 * runs it) sharing its database and one SESSION_SECRET, and the consistent-hash proxy of
 * scripts/cluster-proxy.ts in front. `npm run cluster` (scripts/cluster.ts) starts one for a person;
 * the cluster test (tests/integration/cluster.test.ts) and the bench's failover mode
 * (bench/failover.ts) start one to break: each node's handle sends it kill -9, SIGSTOP, SIGCONT or
 * SIGTERM, starts it again under the same id and port (so the proxy's hash and NODE_ADDRESS stay),
 * reads its /metrics and its CPU time, and the cluster says which node owns a game (game_owners,
 * docs/decisions/0052-game-ownership-and-fencing.md).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { freePort } from "../tests/free-port";
import { startClusterProxy, type ClusterProxy } from "./cluster-proxy";
import { startLocalPostgres, type LocalPostgres, type LocalPostgresOptions } from "./local-postgres";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SERVER = path.join(ROOT, "build/node/server.js");
/** How long a node may take to stop after SIGTERM before it is killed: the 30 s grace period its drain fits (docs/deployment.md). */
export const STOP_GRACE_SECONDS = 30;
const READY_TIMEOUT_MS = 60_000;

export interface NodeProcessOptions {
  id: string;
  port: number;
  databaseUrl: string;
  sessionSecret: string;
  /** Where the node keeps what it writes beside the database (a folder per node is made in it). */
  filesDir: string;
  /** Variables beyond the cluster's own (timings, limits, METRICS_TOKEN...). */
  env?: Record<string, string>;
  /** Flags for the node's `node` before the script. */
  nodeArgs?: string[];
  /** Each line the node writes (stdout and stderr); dropped when absent. */
  output?: (nodeId: string, line: string) => void;
}

export interface NodeProcess {
  id: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** Settles when the process ends: its exit code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Whether it said its port was taken (EADDRINUSE): another process bound it between its choice and the node's start. */
  portTaken(): boolean;
}

/** Calls `onLine` for each whole line of a stream. */
export function eachLine(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let partial = "";
  stream.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop()!;
    for (const line of lines) onLine(line);
  });
  stream.on("end", () => partial && onLine(partial));
}

/** Starts one node of the build on 127.0.0.1:port (it is not serving yet: `waitUntilServing`). */
export function startNodeProcess(options: NodeProcessOptions): NodeProcess {
  const { id, port } = options;
  fs.mkdirSync(path.join(options.filesDir, id), { recursive: true });
  const child = spawn(process.execPath, ["--enable-source-maps", ...(options.nodeArgs ?? []), SERVER], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      NODE_ID: id,
      HOST: "127.0.0.1",
      PORT: String(port),
      // Where the other nodes reach this one (socket forwarding): the address it listens on, not the
      // machine's host name, which may resolve to another interface.
      NODE_ADDRESS: `127.0.0.1:${port}`,
      DATABASE_URL: options.databaseUrl,
      // Nothing of a node's lands in the repository's ./data: what a node keeps on disk beside its
      // database settings stays in the cluster's temporary folder, one folder per node.
      DATABASE_PATH: path.join(options.filesDir, id, "quiz.sqlite"),
      // One secret for every node: a session cookie signed by one node is good on all of them.
      SESSION_SECRET: options.sessionSecret,
      // The proxy in front runs on this machine: the nodes believe its X-Forwarded-For and no other's.
      TRUST_PROXY: "loopback",
      ...options.env,
    },
  });
  const output = options.output ?? (() => {});
  let portTaken = false;
  const onLine = (line: string) => {
    if (line.includes("EADDRINUSE")) portTaken = true;
    output(id, line);
  };
  eachLine(child.stdout!, onLine);
  eachLine(child.stderr!, onLine);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { id, port, url: `http://127.0.0.1:${port}`, child, exited, portTaken: () => portTaken };
}

function hasExited(node: NodeProcess): boolean {
  return node.child.exitCode !== null || node.child.signalCode !== null;
}

/** Waits until the node answers /healthz, or fails with how it ended. */
export async function waitUntilServing(node: NodeProcess, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (hasExited(node)) throw new Error(`${node.id} exited (${node.child.signalCode ?? `code ${node.child.exitCode}`}) before it served`);
    try {
      const reply = await fetch(`${node.url}/healthz`, { signal: AbortSignal.timeout(1000) });
      await reply.body?.cancel();
      if (reply.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${node.id} did not answer /healthz within ${timeoutMs / 1000} s`);
}

/** SIGTERM (a stopped node is continued first, or it would never see it), then SIGKILL after the drain's grace period. */
export async function stopNode(node: NodeProcess, graceSeconds = STOP_GRACE_SECONDS): Promise<void> {
  if (hasExited(node)) return;
  node.child.kill("SIGCONT");
  node.child.kill("SIGTERM");
  const timer = setTimeout(() => node.child.kill("SIGKILL"), graceSeconds * 1000);
  await node.exited;
  clearTimeout(timer);
}

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * A process's CPU time so far (user + system, seconds) from /proc/PID/stat, or NaN where there is
 * no /proc. Linux counts it in clock ticks, 100 a second on every architecture Node runs on here.
 */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces: count from the parenthesis that closes it.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 (utime, stime) of the whole line are the 12th and 13th after the name.
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** Prometheus's text format, as name{labels} → value (counters and gauges; histograms' lines too). */
export function parseMetrics(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}

/** One node of a local cluster, to break and to start again. */
export interface ClusterNodeHandle {
  readonly id: string;
  readonly port: number;
  /** http://127.0.0.1:PORT: the node itself, not the proxy. */
  readonly url: string;
  /** The process running now (a new one after `restart`). */
  readonly process: NodeProcess;
  readonly pid: number;
  /** Whether its process is running (stopped by SIGSTOP counts as running). */
  running(): boolean;
  /** kill -9, and waits until the process is gone. */
  kill(): Promise<void>;
  /** SIGSTOP: the process hangs, its connections stay open. */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  /** SIGTERM (the drain); resolves with how the process ended. */
  terminate(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Starts the node again (same id, port and database) once its process has ended, and waits until it serves. */
  restart(): Promise<void>;
  /** Its /metrics, parsed (the cluster sets METRICS_TOKEN). */
  metrics(): Promise<Map<string, number>>;
  /** CPU seconds of the process running now (and of those before it, `restart` keeps the sum). */
  cpuSeconds(): number;
}

export interface LocalClusterOptions {
  nodes: number;
  /** The proxy's port (0: a free one). */
  port?: number;
  /** The proxy's address (default 127.0.0.1). */
  host?: string;
  /** The nodes' ports: `after-proxy` puts them at port+1..port+N (npm run cluster prints them so); `free`, any free ports. */
  nodePorts?: "after-proxy" | "free";
  /** An existing PostgreSQL database instead of a throwaway one (kept as it is). */
  databaseUrl?: string;
  postgres?: LocalPostgresOptions;
  /** Variables for every node (DRAIN_SECONDS, NODE_LEASE_MS, limits...). */
  env?: Record<string, string>;
  nodeArgs?: string[];
  /** The nodes' output lines. */
  output?: (nodeId: string, line: string) => void;
  /** The cluster's own lines (a node exited) and the proxy's, which start with "[proxy] ". */
  log?: (line: string) => void;
  /** The proxy's /readyz check interval (default 1000 ms). */
  healthIntervalMs?: number;
  /** How a free port for a node is chosen (tests/free-port.ts); a test hands out a taken one. */
  choosePort?: () => Promise<number>;
}

export interface LocalCluster {
  databaseUrl: string;
  /** The throwaway PostgreSQL, when the cluster started one. */
  postgres: LocalPostgres | null;
  proxy: ClusterProxy;
  /** Where a browser goes: http://HOST:PORT of the proxy. */
  proxyUrl: string;
  nodes: ClusterNodeHandle[];
  node(id: string): ClusterNodeHandle;
  /** The node that owns a live game now, and its epoch; null when none does (released, or never claimed). */
  ownerOf(gameCode: string): Promise<{ nodeId: string; epoch: number } | null>;
  /** A query on the cluster's database (the tests read answers and scores with it). */
  query<Row extends object>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** The bearer token of every node's /metrics. */
  metricsToken: string;
  /** The proxy, then the nodes (SIGTERM, each drains), then the throwaway database and the files. */
  stop(): Promise<void>;
}

/** The nodes' ports: after the proxy's (npm run cluster's layout), or free ones. */
async function nodePortsFor(options: LocalClusterOptions): Promise<number[]> {
  if (options.nodePorts === "after-proxy") {
    if (!options.port) throw new Error("nodePorts: after-proxy needs the proxy's port");
    return Array.from({ length: options.nodes }, (_, i) => options.port! + 1 + i);
  }
  const ports: number[] = [];
  while (ports.length < options.nodes) {
    const port = await (options.choosePort ?? freePort)();
    if (!ports.includes(port)) ports.push(port);
  }
  return ports;
}

export async function startLocalCluster(options: LocalClusterOptions): Promise<LocalCluster> {
  if (!fs.existsSync(SERVER)) throw new Error(`${path.relative(ROOT, SERVER)} is missing: run \`npm run build\` first (npm run cluster does).`);
  const log = options.log ?? (() => {});
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-cluster-"));
  // The caller's own METRICS_TOKEN when it set one (it reads /metrics itself, as an operator's scraper would); else one for the handles.
  const metricsToken = options.env?.METRICS_TOKEN ?? process.env.METRICS_TOKEN ?? randomBytes(16).toString("hex");
  const sessionSecret = randomBytes(32).toString("base64url");
  let postgres: LocalPostgres | null = null;
  let pool: pg.Pool | null = null;
  let proxy: ClusterProxy | null = null;
  const handles: Array<Omit<ClusterNodeHandle, "port" | "url"> & { port: number; url: string; current: NodeProcess | null; start(): NodeProcess }> = [];
  let stopping: Promise<void> | null = null;
  let sampler: NodeJS.Timeout | undefined;

  const cleanUp = async () => {
    clearInterval(sampler);
    await proxy?.stop();
    await Promise.all(handles.map((handle) => handle.current && stopNode(handle.current)));
    await pool?.end();
    await postgres?.stop();
    fs.rmSync(filesDir, { recursive: true, force: true });
  };

  try {
    let databaseUrl = options.databaseUrl;
    if (!databaseUrl) {
      postgres = await startLocalPostgres({ ...options.postgres, settings: { max_connections: "300", ...options.postgres?.settings } });
      databaseUrl = await postgres.createDatabase("quiz_night");
    }
    const url = databaseUrl;
    const proxyPort = options.port ?? 0;
    const nodePorts = await nodePortsFor(options);
    const env = { METRICS_TOKEN: metricsToken, ...options.env };

    const makeHandle = (id: string, port: number) => {
      let cpuBefore = 0;
      const handle = {
        id,
        port,
        url: `http://127.0.0.1:${port}`,
        current: null as NodeProcess | null,
        start: () =>
          startNodeProcess({ id, port: handle.port, databaseUrl: url, sessionSecret, filesDir, env, nodeArgs: options.nodeArgs, output: options.output }),
        get process() {
          if (!handle.current) throw new Error(`${id} has no process`);
          return handle.current;
        },
        get pid() {
          return handle.process.child.pid!;
        },
        running: () => handle.current !== null && !hasExited(handle.current),
        async kill() {
          const node = handle.process;
          if (hasExited(node)) return;
          node.child.kill("SIGKILL");
          await node.exited;
        },
        pause: () => void handle.process.child.kill("SIGSTOP"),
        resume: () => void handle.process.child.kill("SIGCONT"),
        async terminate() {
          const node = handle.process;
          node.child.kill("SIGCONT");
          node.child.kill("SIGTERM");
          return node.exited;
        },
        async restart() {
          if (handle.running()) throw new Error(`${id} is still running: kill or terminate it first`);
          cpuBefore += handle.current ? (lastCpu.get(handle.current) ?? 0) : 0;
          handle.current = handle.start();
          watch(handle.current);
          await waitUntilServing(handle.current);
          await proxy?.checkNow();
        },
        async metrics() {
          const reply = await fetch(`${handle.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` }, signal: AbortSignal.timeout(5000) });
          if (!reply.ok) throw new Error(`${id}'s /metrics answered ${reply.status}`);
          return parseMetrics(await reply.text());
        },
        cpuSeconds() {
          const node = handle.current;
          if (!node) return cpuBefore;
          if (!hasExited(node)) lastCpu.set(node, cpuSecondsOf(node.child.pid!));
          return cpuBefore + (lastCpu.get(node) ?? 0);
        },
      };
      return handle;
    };
    // The last CPU time read of each process: /proc forgets a process once it has ended.
    const lastCpu = new WeakMap<NodeProcess, number>();
    sampler = setInterval(() => {
      for (const handle of handles) if (handle.current && !hasExited(handle.current)) lastCpu.set(handle.current, cpuSecondsOf(handle.current.child.pid!));
    }, 250);
    sampler.unref();
    const watch = (node: NodeProcess) => {
      void node.exited.then(({ code, signal }) => {
        if (!stopping) log(`${node.id} exited (${signal ?? `code ${code}`}); the proxy sends its games to the other nodes.`);
      });
    };

    const ids = Array.from({ length: options.nodes }, (_, i) => `node-${i + 1}`);
    for (const [i, id] of ids.entries()) handles.push(makeHandle(id, nodePorts[i]!));
    // A port chosen free can be taken before the node binds it (a busy machine, tests side by side):
    // then the node starts again on another, unless the caller laid the ports out itself.
    const startServing = async (handle: (typeof handles)[number]) => {
      for (let attempt = 1; ; attempt++) {
        handle.current = handle.start();
        try {
          return await waitUntilServing(handle.current);
        } catch (error) {
          if (options.nodePorts === "after-proxy" || !handle.current.portTaken() || attempt === 3) throw error;
          log(`${handle.id}: port ${handle.port} was taken meanwhile; starting it on another.`);
          handle.port = await (options.choosePort ?? freePort)();
          handle.url = `http://127.0.0.1:${handle.port}`;
        }
      }
    };
    // The first node alone, so one process applies the migrations to a fresh database; then the rest together.
    await startServing(handles[0]!);
    await Promise.all(handles.slice(1).map(startServing));
    for (const handle of handles) watch(handle.process);

    proxy = await startClusterProxy({
      nodes: handles.map((handle) => ({ id: handle.id, url: handle.url })),
      port: proxyPort,
      host: options.host,
      healthIntervalMs: options.healthIntervalMs,
      log: (line) => log(`[proxy] ${line}`),
    });
    pool = new pg.Pool({ connectionString: url, max: 3, allowExitOnIdle: true });
    pool.on("error", () => {
      // An idle connection the server closed (it stops with the cluster); the next query reconnects.
    });
    const db = pool;
    return {
      databaseUrl: url,
      postgres,
      proxy,
      proxyUrl: proxy.url,
      nodes: handles,
      metricsToken,
      node(id) {
        const found = handles.find((handle) => handle.id === id);
        if (!found) throw new Error(`no node ${id}`);
        return found;
      },
      async ownerOf(gameCode) {
        const { rows } = await db.query<{ node_id: string | null; epoch: string }>(
          `select o.node_id, o.epoch from game_owners o join games g on g.id = o.game_id where g.game_code = $1 and g.status != 'finished'`,
          [gameCode],
        );
        const row = rows[0];
        return row?.node_id ? { nodeId: row.node_id, epoch: Number(row.epoch) } : null;
      },
      async query(sql, params = []) {
        return (await db.query(sql, params)).rows;
      },
      stop: () => (stopping ??= cleanUp()),
    };
  } catch (error) {
    await (stopping ??= cleanUp());
    throw error;
  }
}
