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
 * Its parts are scripts/cluster-lib.ts's, which the cluster test and the bench's failover mode drive too.
 * docs/deployment.md, "Several nodes", says what a cluster shares and how games are routed.
 */
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { STOP_GRACE_SECONDS, startLocalCluster, type LocalCluster } from "./cluster-lib";

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

async function runCluster(options: Options): Promise<void> {
  let cluster: LocalCluster | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      console.log(`Stopping: the proxy, then the nodes (each drains its games, ${STOP_GRACE_SECONDS} s at most), then the database...`);
      await cluster?.stop();
      console.log("Stopped.");
    })());
  process.on("SIGTERM", () => void stop().then(() => process.exit(0)));
  process.on("SIGINT", () => void stop().then(() => process.exit(0)));

  try {
    cluster = await startLocalCluster({
      nodes: options.nodes,
      port: options.port,
      host: options.host,
      nodePorts: "after-proxy",
      databaseUrl: options.databaseUrl,
      // Each node's log line by line with its name in front, so the nodes' logs stay apart.
      output: (nodeId, line) => process.stdout.write(`[${nodeId}] ${line}\n`),
      log: (line) => console.log(line),
    });
    if (cluster.postgres) console.log(`PostgreSQL: ${cluster.databaseUrl} (throwaway: deleted when the cluster stops)`);
    console.log(
      [
        "",
        `Quiz Night cluster: ${options.nodes} node${options.nodes === 1 ? "" : "s"} on PostgreSQL, behind a consistent-hash proxy.`,
        ...cluster.nodes.map((node) => `  ${node.id}: ${node.url}`),
        `Open ${cluster.proxyUrl}  (Ctrl-C stops everything)`,
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
