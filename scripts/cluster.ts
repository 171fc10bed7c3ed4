/**
 * `npm run cluster -- --nodes 3`: a Quiz Night cluster on this machine, to develop against and try
 * out: a throwaway PostgreSQL (scripts/local-postgres.ts, Debian's binaries), N nodes of the
 * production build (`node build/node/server.js`, as `npm run serve` runs it) sharing its database and
 * one SESSION_SECRET, and the consistent-hash proxy of scripts/cluster-proxy.ts in front on one port.
 * Ctrl-C stops the proxy, drains the nodes (SIGTERM), then stops and deletes the database.
 *
 *   --nodes N              nodes to start (default 3)
 *   --port P               the proxy's port (default 3000); the nodes listen on 127.0.0.1 at P+1..P+N
 *   --host H               the proxy's address (default 0.0.0.0: phones on the LAN can join)
 *   --database-url URL     an existing PostgreSQL database instead of a throwaway one (kept as it is)
 *
 * docs/deployment.md, "Several nodes", says what a cluster shares and how games are routed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startClusterProxy, type ClusterProxy } from "./cluster-proxy";
import { startLocalPostgres, type LocalPostgres } from "./local-postgres";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SERVER = path.join(ROOT, "build/node/server.js");
/** How long a node may take to stop after SIGTERM before it is killed: the 30 s grace period its drain fits (docs/deployment.md). */
const STOP_GRACE_SECONDS = 30;
const READY_TIMEOUT_MS = 60_000;

/** Set in the process that runs the cluster, below the one the terminal started. */
const SUPERVISED = "QUIZ_NIGHT_CLUSTER_SUPERVISED";

/**
 * Ctrl-C in a terminal signals every process of the foreground group at once: the nodes would stop
 * while PostgreSQL (which takes SIGINT as "fast shutdown") is already gone, and their last commits
 * would fail. So the command the terminal started only starts the cluster in a process group of its
 * own and turns Ctrl-C into one SIGTERM to it, which then stops its parts in order.
 */
function superviseInOwnGroup(): void {
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    detached: true,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, [SUPERVISED]: "1" },
  });
  let firstSignalAt: number | null = null;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      // Another Ctrl-C later on ends everything at once. Not one within a second: npm and tsx pass
      // the terminal's signal on to this process, which the terminal signalled already.
      if (firstSignalAt !== null && Date.now() - firstSignalAt > 1000 && child.pid) process.kill(-child.pid, "SIGKILL");
      firstSignalAt ??= Date.now();
      child.kill("SIGTERM");
    });
  }
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

interface Options {
  nodes: number;
  port: number;
  host: string;
  databaseUrl?: string;
}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      nodes: { type: "string", default: "3" },
      port: { type: "string", default: "3000" },
      host: { type: "string", default: "0.0.0.0" },
      "database-url": { type: "string" },
    },
  });
  const nodes = Number(values.nodes);
  const port = Number(values.port);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 16) throw new Error(`--nodes must be a whole number from 1 to 16, not ${values.nodes}`);
  if (!Number.isInteger(port) || port < 1 || port + nodes > 65535) throw new Error(`--port must be a port number, not ${values.port}`);
  return { nodes, port, host: values.host, databaseUrl: values["database-url"] };
}

interface Node {
  id: string;
  port: number;
  child: ChildProcess;
}

/** Copies a child's output line by line with its name in front, so the nodes' logs stay apart. */
function prefixLines(stream: NodeJS.ReadableStream, name: string, out: NodeJS.WritableStream): void {
  let partial = "";
  stream.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop()!;
    for (const line of lines) out.write(`[${name}] ${line}\n`);
  });
  stream.on("end", () => partial && out.write(`[${name}] ${partial}\n`));
}

function startNode(id: string, port: number, databaseUrl: string, sessionSecret: string, filesDir: string): Node {
  const child = spawn(process.execPath, ["--enable-source-maps", SERVER], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      NODE_ID: id,
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      // Nothing of a node's lands in the repository's ./data: what a node keeps on disk beside its
      // database settings stays in the cluster's temporary folder, one folder per node.
      DATABASE_PATH: path.join(filesDir, id, "quiz.sqlite"),
      // One secret for every node: a session cookie signed by one node is good on all of them.
      SESSION_SECRET: sessionSecret,
      // The proxy in front runs on this machine: the nodes believe its X-Forwarded-For and no other's.
      TRUST_PROXY: "loopback",
    },
  });
  prefixLines(child.stdout!, id, process.stdout);
  prefixLines(child.stderr!, id, process.stderr);
  return { id, port, child };
}

/** Waits until the node answers /healthz, or fails with how it ended. */
async function waitUntilServing(node: Node): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (node.child.exitCode !== null || node.child.signalCode !== null) {
      throw new Error(`${node.id} exited (${node.child.signalCode ?? `code ${node.child.exitCode}`}) before it served`);
    }
    try {
      const reply = await fetch(`http://127.0.0.1:${node.port}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (reply.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${node.id} did not answer /healthz within ${READY_TIMEOUT_MS / 1000} s`);
}

/** SIGTERM, then SIGKILL after the drain's grace period. */
async function stopNode(node: Node): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => node.child.once("exit", () => resolve()));
  node.child.kill("SIGTERM");
  const timer = setTimeout(() => node.child.kill("SIGKILL"), STOP_GRACE_SECONDS * 1000);
  await exited;
  clearTimeout(timer);
}

async function runCluster(options: Options): Promise<void> {
  if (!fs.existsSync(SERVER)) throw new Error(`${path.relative(ROOT, SERVER)} is missing: run \`npm run build\` first (npm run cluster does).`);

  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-cluster-"));
  let postgres: LocalPostgres | undefined;
  let proxy: ClusterProxy | undefined;
  const nodes: Node[] = [];
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      console.log(`Stopping: the proxy, then the nodes (each drains its games, ${STOP_GRACE_SECONDS} s at most), then the database...`);
      await proxy?.stop();
      await Promise.all(nodes.map(stopNode));
      await postgres?.stop();
      fs.rmSync(filesDir, { recursive: true, force: true });
      console.log("Stopped.");
    })());
  process.on("SIGTERM", () => void stop().then(() => process.exit(0)));
  process.on("SIGINT", () => void stop().then(() => process.exit(0)));

  try {
    let databaseUrl = options.databaseUrl;
    if (!databaseUrl) {
      postgres = await startLocalPostgres();
      databaseUrl = await postgres.createDatabase("quiz_night");
      console.log(`PostgreSQL: ${databaseUrl} (throwaway: deleted when the cluster stops)`);
    }
    const sessionSecret = randomBytes(32).toString("base64url");
    const ids = Array.from({ length: options.nodes }, (_, i) => `node-${i + 1}`);
    // The first node alone, so one process applies the migrations to a fresh database; then the rest together.
    for (const [i, id] of ids.entries()) {
      fs.mkdirSync(path.join(filesDir, id));
      nodes.push(startNode(id, options.port + 1 + i, databaseUrl, sessionSecret, filesDir));
      if (i === 0) await waitUntilServing(nodes[0]!);
    }
    await Promise.all(nodes.map(waitUntilServing));
    for (const node of nodes)
      node.child.on(
        "exit",
        (code, signal) => stopping || console.log(`${node.id} exited (${signal ?? `code ${code}`}); the proxy sends its games to the other nodes.`),
      );

    proxy = await startClusterProxy({
      nodes: nodes.map((node) => ({ id: node.id, url: `http://127.0.0.1:${node.port}` })),
      port: options.port,
      host: options.host,
      log: (line) => console.log(`[proxy] ${line}`),
    });
    console.log(
      [
        "",
        `Quiz Night cluster: ${options.nodes} node${options.nodes === 1 ? "" : "s"} on PostgreSQL, behind a consistent-hash proxy.`,
        ...nodes.map((node) => `  ${node.id}: http://127.0.0.1:${node.port}`),
        `Open ${proxy.url}  (Ctrl-C stops everything)`,
        "",
      ].join("\n"),
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    await stop();
    process.exit(1);
  }
}

if (process.env[SUPERVISED] === "1") {
  await runCluster(parseOptions(process.argv.slice(2)));
} else {
  // Wrong options are said here, before anything starts.
  try {
    parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  }
  superviseInOwnGroup();
}
