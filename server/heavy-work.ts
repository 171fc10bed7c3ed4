/**
 * Work that may be heavy runs off the game loop (issue 26): reading an imported quiz file or
 * spreadsheet, re-encoding pictures, writing reports. A node runs a few such jobs at a time, with
 * a short queue behind them; past the queue a request hears "busy, try again" (503 with
 * Retry-After) at once, before its body is read. The parsing itself runs in a worker thread with
 * its own heap limit, so a hostile file ends that worker, never the server, and its sender gets a
 * 4xx (docs/decisions/0041-heavy-work-off-the-loop.md).
 */
import os from "node:os";
import { Worker } from "node:worker_threads";
import { jobTransfer, type HeavyJob, type HeavyJobResult } from "#app/quiz-files/heavy-jobs.server";
import { DEFAULT_MAX_INPUT_PIXELS, DEFAULT_SPREADSHEET_LIMITS, type SpreadsheetLimits } from "#app/limits/heavy-limits";
import type { Logger } from "#server/logger";

export interface HeavyWorkOptions {
  /** Jobs at once on this node (HEAVY_WORK_CONCURRENCY). */
  concurrency: number;
  /** Jobs waiting for a slot; one more is refused as busy (HEAVY_WORK_QUEUE). */
  queue: number;
  /**
   * Jobs one client address may have running or waiting at once (HEAVY_WORK_PER_IP): one sender
   * cannot take every slot and the queue, and past it hears "wait for your file" (429).
   */
  perAddress: number;
  /** Each worker thread's heap (V8's old generation), in MB (HEAVY_WORK_MEMORY_MB). */
  workerMemoryMb: number;
  /** A worker still running after this is ended, and its job refused. */
  workerTimeoutMs: number;
  /** The Retry-After of a busy answer. */
  retryAfterSeconds: number;
  /** A spreadsheet's rows and unpacked size (SPREADSHEET_MAX_ROWS, SPREADSHEET_MAX_UNPACKED_MB). */
  spreadsheet: SpreadsheetLimits;
  /** Pixels of a picture before it is decoded (IMAGE_MAX_PIXELS). */
  maxInputPixels: number;
}

/** One at a time on a machine of two cores or fewer: the other core is the game's; two past that. */
export const DEFAULT_HEAVY_CONCURRENCY = Math.max(1, Math.min(2, os.availableParallelism() - 1));

export const DEFAULT_HEAVY_WORK: HeavyWorkOptions = {
  concurrency: DEFAULT_HEAVY_CONCURRENCY,
  queue: 4,
  perAddress: 1,
  workerMemoryMb: 256,
  workerTimeoutMs: 60_000,
  retryAfterSeconds: 5,
  spreadsheet: DEFAULT_SPREADSHEET_LIMITS,
  maxInputPixels: DEFAULT_MAX_INPUT_PIXELS,
};

/** The worker's script: a JavaScript file, or code to evaluate (in development, code that loads the TypeScript source through tsx). */
export type WorkerScript = { file: string } | { code: string };

/** "busy": every slot and the queue are taken; "address-busy": the caller's address has its jobs in already. */
export type Busy = { ok: false; reason: "busy" | "address-busy"; retryAfterSeconds: number };
export type Slot = { ok: true; release: () => void } | Busy;

/** Why a worker gave no result: its heap ran out, it ran past the time allowed, or it failed otherwise (a bug: logged). */
export type WorkerFailure = { ok: false; reason: "out-of-memory" | "timeout" | "failed" };
export type WorkerOutcome<T> = { ok: true; value: T } | WorkerFailure;

/** An idle worker is ended after this; the next job starts a new one. */
const IDLE_WORKER_MS = 60_000;
/** A worker is replaced after this many jobs, so what one file left in its heap does not last. */
const MAX_JOBS_PER_WORKER = 50;

interface WorkerThread {
  worker: Worker;
  alive: boolean;
  jobs: number;
  /** Settles the job it runs; null when idle. */
  pending: ((outcome: WorkerOutcome<unknown>) => void) | null;
  idleTimer: NodeJS.Timeout | undefined;
  /** Ends the worker, settling its job with `outcome`. */
  fail(outcome: WorkerFailure): void;
}

export class HeavyWork {
  private running = 0;
  /** Jobs running or waiting per client address (limit key). */
  private readonly byAddress = new Map<string, number>();
  private readonly idle: WorkerThread[] = [];
  private readonly waiting: (() => void)[] = [];
  readonly options: HeavyWorkOptions;

  /** `options` over DEFAULT_HEAVY_WORK; an undefined one keeps its default. */
  constructor(
    options: Partial<HeavyWorkOptions>,
    private readonly worker: WorkerScript,
    private readonly logger: Logger,
  ) {
    const set = Object.entries(options).filter(([, value]) => value !== undefined);
    this.options = { ...DEFAULT_HEAVY_WORK, ...Object.fromEntries(set) };
  }

  /** Jobs running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * A slot for one job of the client at `address` (its limit key; app/limits/address-key.ts): at
   * once when one is free, after the jobs ahead when the queue has room, busy otherwise, and
   * address-busy when that address has its `perAddress` jobs in already. The holder must call
   * `release` once, however its job ends.
   */
  acquire(address: string): Promise<Slot> {
    const { retryAfterSeconds } = this.options;
    if ((this.byAddress.get(address) ?? 0) >= this.options.perAddress) return Promise.resolve({ ok: false, reason: "address-busy", retryAfterSeconds });
    if (this.running < this.options.concurrency) {
      this.running++;
      return Promise.resolve({ ok: true, release: this.releaser(address) });
    }
    if (this.waiting.length >= this.options.queue) return Promise.resolve({ ok: false, reason: "busy", retryAfterSeconds });
    this.countAddress(address, 1);
    return new Promise((resolve) =>
      this.waiting.push(() => {
        this.countAddress(address, -1);
        this.running++;
        resolve({ ok: true, release: this.releaser(address) });
      }),
    );
  }

  /** `task` in a slot of `address`'s, or busy. */
  async run<T>(address: string, task: () => Promise<T>): Promise<{ ok: true; value: T } | Busy> {
    const slot = await this.acquire(address);
    if (!slot.ok) return slot;
    try {
      return { ok: true, value: await task() };
    } finally {
      slot.release();
    }
  }

  private countAddress(address: string, change: 1 | -1): void {
    const count = (this.byAddress.get(address) ?? 0) + change;
    if (count > 0) this.byAddress.set(address, count);
    else this.byAddress.delete(address);
  }

  private releaser(address: string): () => void {
    this.countAddress(address, 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.countAddress(address, -1);
      this.running--;
      this.waiting.shift()?.();
    };
  }

  /**
   * Runs a job in a worker thread with the heap limit, its input's bytes moved to it and its
   * result's moved back. The caller holds a slot (this does not take one), so there are at most
   * `concurrency` workers; an idle one is kept a while for the next job (starting one and loading
   * its readers costs a few hundred ms), and one that failed is never used again.
   */
  inWorker<J extends HeavyJob>(job: J): Promise<WorkerOutcome<HeavyJobResult<J>>> {
    const thread = this.idle.pop() ?? this.startWorker();
    clearTimeout(thread.idleTimer);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.logger.warn({ event: "heavy_work_timeout", job: job.kind, timeoutMs: this.options.workerTimeoutMs }, "a worker ran too long and was ended");
        thread.fail({ ok: false, reason: "timeout" });
      }, this.options.workerTimeoutMs);
      thread.pending = (outcome) => {
        clearTimeout(timer);
        thread.pending = null;
        if (outcome.ok && thread.alive && thread.jobs < MAX_JOBS_PER_WORKER) this.keepIdle(thread);
        else void thread.worker.terminate();
        resolve(outcome as WorkerOutcome<HeavyJobResult<J>>);
      };
      thread.jobs++;
      thread.worker.postMessage({ job }, jobTransfer(job));
    });
  }

  /** Ends the idle workers (the server is stopping). */
  async close(): Promise<void> {
    const idle = this.idle.splice(0);
    await Promise.all(idle.map((thread) => thread.worker.terminate()));
  }

  private keepIdle(thread: WorkerThread): void {
    thread.idleTimer = setTimeout(() => {
      this.idle.splice(this.idle.indexOf(thread), 1);
      void thread.worker.terminate();
    }, IDLE_WORKER_MS);
    thread.idleTimer.unref();
    this.idle.push(thread);
  }

  private startWorker(): WorkerThread {
    const worker = new Worker("file" in this.worker ? this.worker.file : this.worker.code, {
      eval: "code" in this.worker,
      // None of the server's own node options (a heap size, a test runner's hooks) carry over.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.options.workerMemoryMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      stdout: false,
      stderr: false,
    });
    // An idle worker does not keep the process alive.
    worker.unref();
    const thread: WorkerThread = {
      worker,
      alive: true,
      jobs: 0,
      pending: null,
      idleTimer: undefined,
      fail: (outcome) => {
        thread.alive = false;
        const idleAt = this.idle.indexOf(thread);
        if (idleAt >= 0) this.idle.splice(idleAt, 1);
        thread.pending?.(outcome);
        void worker.terminate();
      },
    };
    worker.on("message", (value: unknown) => thread.pending?.({ ok: true, value }));
    worker.on("error", (error: Error & { code?: string }) => {
      if (error.code === "ERR_WORKER_OUT_OF_MEMORY") {
        this.logger.warn({ event: "heavy_work_out_of_memory", heapMb: this.options.workerMemoryMb }, "a worker ran out of memory and was ended");
        thread.fail({ ok: false, reason: "out-of-memory" });
        return;
      }
      this.logger.error({ event: "heavy_work_failed", err: error }, "a worker failed");
      thread.fail({ ok: false, reason: "failed" });
    });
    worker.on("exit", (code) => {
      if (thread.pending) this.logger.error({ event: "heavy_work_failed", exitCode: code }, "a worker exited without a result");
      thread.fail({ ok: false, reason: "failed" });
    });
    return thread;
  }
}
