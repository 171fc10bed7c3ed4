/**
 * A real, throwaway PostgreSQL for tests, the bench and a local cluster, started from the Debian
 * binaries already on the machine (`apt-get install postgresql`): `initdb` into a temporary folder,
 * `postgres` on 127.0.0.1 at a free port with its Unix socket inside that folder, trust
 * authentication (nothing but this machine can reach it), everything removed again by `stop()`.
 * No download, no container: the same engine CI installs (docs/decisions/0051-postgres-second-store.md).
 *
 *   const postgres = await startLocalPostgres();
 *   const url = await postgres.createDatabase("quiz_a", { template: "quiz_template" });
 *   ...
 *   await postgres.stop();
 *
 * PostgreSQL refuses to run as root. Where this process is root (CI containers, sandboxes), the
 * server runs as the `postgres` user (or `nobody`) through `setpriv`, and the folder is handed to
 * that user; a folder passed as `dir` must then sit where that user can reach it.
 *
 * Several test files or processes share one server: one process starts it and sets
 * QUIZ_TEST_POSTGRES_URL (tests/setup/postgres.ts does this as Vitest's globalSetup), and every other
 * process calls `connectToLocalPostgres(url)` to create and drop its own databases. Copying a
 * migrated template (`create database X template T`) takes a fraction of a second, far less than
 * migrating each database.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../tests/free-port";

export interface LocalPostgresOptions {
  /** The folder for the cluster's files and socket; a fresh temporary folder when left out. Deleted by `stop()`. */
  dir?: string;
  /** The TCP port on 127.0.0.1; a free one when left out. */
  port?: number;
  /** Receives the server's own log lines (its stderr); they are always written to `<dir>/postgres.log` too. */
  log?: (line: string) => void;
  /**
   * `false` turns off fsync: a crash of this machine may then corrupt the cluster, which for a
   * throwaway test server costs nothing and saves a disk flush on every commit and every
   * `create database`. Leave it on (the default) for anything whose data should survive the machine.
   */
  fsync?: boolean;
  /** More server settings, as `-c name=value` (e.g. `{ max_connections: "300" }`). */
  settings?: Record<string, string>;
}

export interface LocalPostgresDatabases {
  /** The maintenance database's URL: `postgres://postgres@127.0.0.1:PORT/postgres`. */
  url: string;
  port: number;
  /** Creates the database (a copy of `template` when given) and returns its URL. Names are lowercase letters, digits and `_`. */
  createDatabase(name: string, options?: { template?: string }): Promise<string>;
  /** Drops the database, ending any connection still open to it. Nothing happens when it does not exist. */
  dropDatabase(name: string): Promise<void>;
  /** Closes this process's connection to the server (not the server). */
  close(): Promise<void>;
}

export interface LocalPostgres extends LocalPostgresDatabases {
  /** The cluster's folder. */
  dir: string;
  /** Stops the server (a fast shutdown) and deletes its folder. */
  stop(): Promise<void>;
}

/** The environment variable through which one started server is shared with other processes. */
export const SHARED_POSTGRES_URL_VARIABLE = "QUIZ_TEST_POSTGRES_URL";

const SUPERUSER = "postgres";
const READY_TIMEOUT_MS = 30_000;

/** The folder holding initdb and postgres: `pg_config --bindir`, else the newest /usr/lib/postgresql/N/bin. */
export function findPostgresBinaries(): string {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync("pg_config", ["--bindir"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
  } catch {
    // No pg_config on the PATH (it comes with libpq-dev or postgresql-server-dev-*); look in Debian's folder.
  }
  const debianRoot = "/usr/lib/postgresql";
  if (fs.existsSync(debianRoot)) {
    const versions = fs
      .readdirSync(debianRoot)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => path.join(debianRoot, version, "bin")));
  }
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, "initdb")) && fs.existsSync(path.join(dir, "postgres")));
  if (!found) {
    throw new Error(
      "PostgreSQL's server programs (initdb, postgres) were not found in `pg_config --bindir` or /usr/lib/postgresql/*/bin. " +
        "Install them with `apt-get install postgresql` (Debian, Ubuntu), or run the SQLite tests only.",
    );
  }
  return found;
}

interface RunAs {
  uid: number;
  gid: number;
  /** Prefix for a command so it runs as that user. */
  wrap(command: string, args: string[]): [string, string[]];
}

/** How to run the server's programs: as ourselves, or (when we are root) as an unprivileged user. */
function unprivilegedUser(): RunAs | undefined {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    try {
      const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
      const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
      if (Number.isInteger(uid) && uid !== 0) {
        return {
          uid,
          gid,
          // setpriv (util-linux) execs the program in place, so the child's pid is the server's own.
          wrap: (command, args) => ["setpriv", [`--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", command, ...args]],
        };
      }
    } catch {
      // No such user; try the next.
    }
  }
  throw new Error("Running as root, and neither a `postgres` nor a `nobody` user exists to run PostgreSQL as (it refuses root).");
}

function assertDatabaseName(name: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new Error(`Database name ${JSON.stringify(name)}: use lowercase letters, digits and _ (at most 63).`);
  }
}

/** Databases on a server some other process started (its URL from SHARED_POSTGRES_URL_VARIABLE). */
export function connectToLocalPostgres(url: string): LocalPostgresDatabases {
  const parsed = new URL(url);
  // A few connections at most: creating and dropping databases is all this pool does. allowExitOnIdle
  // lets a test process end without closing it.
  const admin = new pg.Pool({ connectionString: url, max: 2, idleTimeoutMillis: 1_000, allowExitOnIdle: true });
  admin.on("error", () => {
    // An idle connection the server closed (it stopped); the next query reconnects or fails there.
  });
  const urlOf = (name: string) => {
    const database = new URL(url);
    database.pathname = `/${name}`;
    return database.toString();
  };
  return {
    url,
    port: Number(parsed.port),
    async createDatabase(name, options = {}) {
      assertDatabaseName(name);
      if (options.template !== undefined) assertDatabaseName(options.template);
      const template = options.template === undefined ? "" : ` template "${options.template}"`;
      await admin.query(`create database "${name}"${template}`);
      return urlOf(name);
    },
    async dropDatabase(name) {
      assertDatabaseName(name);
      await admin.query(`drop database if exists "${name}" with (force)`);
    },
    async close() {
      await admin.end();
    },
  };
}

/** The shared server's databases, when a test run started one (QUIZ_TEST_POSTGRES_URL); undefined otherwise. */
export function sharedLocalPostgres(): LocalPostgresDatabases | undefined {
  const url = process.env[SHARED_POSTGRES_URL_VARIABLE];
  return url ? connectToLocalPostgres(url) : undefined;
}

async function waitUntilReady(url: string, server: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) break;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.query("select 1");
      await client.end();
      return;
    } catch (error) {
      lastError = error;
      await client.end().catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").split("\n").slice(-20).join("\n") : "";
  throw new Error(`PostgreSQL did not become ready at ${url}: ${String(lastError)}\n${log}`);
}

function run(command: string, args: string[], runAs: RunAs | undefined): void {
  const [program, fullArgs] = runAs ? runAs.wrap(command, args) : [command, args];
  try {
    execFileSync(program, fullArgs, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const output = error as { stdout?: string; stderr?: string };
    throw new Error(`${path.basename(command)} failed: ${output.stderr ?? ""}${output.stdout ?? ""}`, { cause: error });
  }
}

/** Creates a cluster in a temporary folder and starts PostgreSQL on it (see the file's comment). */
export async function startLocalPostgres(options: LocalPostgresOptions = {}): Promise<LocalPostgres> {
  const binaries = findPostgresBinaries();
  const runAs = unprivilegedUser();
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-postgres-"));
  fs.mkdirSync(dir, { recursive: true });
  if (runAs) fs.chownSync(dir, runAs.uid, runAs.gid);
  const dataDir = path.join(dir, "data");
  const logFile = path.join(dir, "postgres.log");

  // --no-sync: initdb's files need not reach the disk before the server starts; a crash now loses
  // only a cluster nobody uses yet. C locale: text sorts by bytes, as SQLite's BINARY collation does.
  try {
    run(path.join(binaries, "initdb"), ["-D", dataDir, "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"], runAs);
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const settings: Record<string, string> = {
    listen_addresses: "127.0.0.1",
    unix_socket_directories: dir,
    fsync: options.fsync === false ? "off" : "on",
    ...options.settings,
  };

  // A port from the system can be taken by someone else before the server binds it: try again then.
  for (let attempt = 1; ; attempt += 1) {
    const port = options.port ?? (await freePort());
    const settingArgs = Object.entries({ ...settings, port: String(port) }).flatMap(([name, value]) => ["-c", `${name}=${value}`]);
    const [program, args] = runAs
      ? runAs.wrap(path.join(binaries, "postgres"), ["-D", dataDir, ...settingArgs])
      : [path.join(binaries, "postgres"), ["-D", dataDir, ...settingArgs]];
    const logStream = fs.createWriteStream(logFile, { flags: "a" });
    const server = spawn(program, args, { stdio: ["ignore", "pipe", "pipe"] });
    let pending = "";
    const onOutput = (chunk: Buffer) => {
      logStream.write(chunk);
      if (!options.log) return;
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) options.log(line);
    };
    server.stdout?.on("data", onOutput);
    server.stderr?.on("data", onOutput);
    const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
    // If this process ends without stop(), an immediate shutdown keeps the server from outliving it,
    // and its folder goes too.
    const killOnExit = () => {
      server.kill("SIGQUIT");
      fs.rmSync(dir, { recursive: true, force: true });
    };
    process.once("exit", killOnExit);

    const url = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
    try {
      await waitUntilReady(url, server, logFile);
    } catch (error) {
      server.kill("SIGQUIT");
      await exited;
      process.removeListener("exit", killOnExit);
      logStream.end();
      const portTaken = /could not bind|Address already in use/.test(fs.readFileSync(logFile, "utf8"));
      if (portTaken && options.port === undefined && attempt < 3) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      throw error;
    }

    const databases = connectToLocalPostgres(url);
    let stopped: Promise<void> | undefined;
    return {
      ...databases,
      dir,
      stop() {
        stopped ??= (async () => {
          await databases.close().catch(() => {});
          // SIGINT is PostgreSQL's fast shutdown: it ends open sessions and stops cleanly.
          if (server.exitCode === null && server.signalCode === null) server.kill("SIGINT");
          await exited;
          process.removeListener("exit", killOnExit);
          logStream.end();
          fs.rmSync(dir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
  }
}
