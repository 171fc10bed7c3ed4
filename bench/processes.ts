/**
 * What the benchmark's modes share about processes (bench/run.ts, bench/many-games.ts): the build
 * it runs, its forked load workers and baseline server, and waiting on them.
 */
import { execFileSync, fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..");

export function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A stuck run fails with what it was waiting for instead of hanging. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${what} after ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

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
export function ensureBuild(): void {
  const built = path.join(root, "build/node/server.js");
  const sources = ["app", "server", "db", "migrations"].map((dir) => newestMtime(path.join(root, dir)));
  const newestSource = Math.max(...sources, fs.statSync(path.join(root, "server.ts")).mtimeMs);
  if (!fs.existsSync(built)) log("no build found: running `npm run build` once");
  else if (newestSource > fs.statSync(built).mtimeMs) log("the build is older than its sources: running `npm run build`");
  else return;
  execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
}

/** A forked process that reports over IPC; `next(event)` waits for its next report of that kind. */
export class Reporter<Command, Report extends { event: string }> {
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

export function forkScript(file: string): ChildProcess {
  return fork(path.join(root, "bench", file), [], { execArgv: ["--import", "tsx"], cwd: root, stdio: ["ignore", "inherit", "inherit", "ipc"] });
}
