/**
 * The real server, as `npm run serve` runs it (build/node/server.js), on a fresh database in a
 * temporary folder; shared by the capacity benchmark (bench/run.ts) and the download measurement
 * (bench/player-weight.ts).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface GameServer {
  url: string;
  pid: number;
  /** The fresh SQLite file, there until stop() (unused when the server runs on `databaseUrl`). */
  databasePath: string;
  /** Where the server keeps its data: `databaseUrl` when given, else `databasePath`. */
  databaseLocation: string;
  /** Settles when the server's process ends, with its exit code (or the signal that ended it). */
  exited: Promise<number | string>;
  stop(): Promise<void>;
}

export interface GameServerOptions {
  root: string;
  /** Node flags before the script, e.g. a CPU profile. */
  nodeArgs?: string[];
  /** Variables beyond the production defaults set here. */
  env?: Record<string, string>;
  /** A fresh PostgreSQL database (bench/bench-database.ts) instead of a SQLite file. */
  databaseUrl?: string;
}

/**
 * The benchmark's game timing (short results and leaderboards) and join limits lifted to `limit`,
 * so that no limit is what a benchmark measures.
 */
export function benchServerEnv(limit: number, maxPlayersPerGame: number): Record<string, string> {
  return {
    RESULTS_DELAY_MS: "500",
    NEXT_QUESTION_SECONDS: "1",
    JOIN_LIMIT_PER_IP: String(limit),
    JOIN_LIMIT_PER_IP_ALL_GAMES: String(limit),
    PLAYERS_PER_IP_PER_GAME: String(limit),
    JOIN_LIMIT_PER_GAME: String(limit),
    // Every bench player connects from this machine's one address.
    SOCKETS_PER_IP: String(limit),
    MAX_PLAYERS_PER_GAME: String(Math.max(maxPlayersPerGame, 10_000)),
  };
}

export async function startGameServer({ root, nodeArgs = [], env = {}, databaseUrl }: GameServerOptions): Promise<GameServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-bench-"));
  const databasePath = path.join(dir, "bench.sqlite");
  const child = spawn(process.execPath, [...nodeArgs, "build/node/server.js"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_PATH: databasePath,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      SEED_DEMO: "false",
      LOG_LEVEL: "info",
      SESSION_SECRET: "bench-secret-bench-secret-bench-secret-00",
      ...env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /running at (http:\/\/[^\s"]+)/.exec(seen);
      if (match) {
        child.stdout!.off("data", onData);
        // Keep reading (and dropping) the server's log so its pipe never fills.
        child.stdout!.resume();
        resolve(match[1]);
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`the server exited with ${code} before it started`)));
  });
  const exited = new Promise<number | string>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
  });
  return {
    url,
    pid: child.pid!,
    databasePath,
    databaseLocation: databaseUrl ?? databasePath,
    exited,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((resolve) => child.once("exit", resolve));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
