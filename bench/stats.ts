/** Figures for the benchmark: latency summaries and what Linux reports of a process. */
import fs from "node:fs";

export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  n: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function summarize(samples: ArrayLike<number>): LatencySummary {
  const sorted = Float64Array.from(samples).sort();
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.length ? sorted[sorted.length - 1] : NaN),
    n: sorted.length,
  };
}

export function formatLatency(summary: LatencySummary): string {
  return `p50 ${summary.p50} · p95 ${summary.p95} · p99 ${summary.p99} · max ${summary.max} ms (n=${summary.n})`;
}

/** Clock ticks per second of /proc/<pid>/stat; 100 on every Linux Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface ProcessSample {
  /** User plus system CPU time since the process started. */
  cpuSeconds: number;
  rssBytes: number;
  /** The kernel's high-water mark of the resident set (VmHWM). */
  peakRssBytes: number;
}

/** Reads a process's CPU time and memory from /proc (Linux); null elsewhere or once it has exited. */
export function sampleProcess(pid: number): ProcessSample | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may itself contain spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
    return { cpuSeconds, rssBytes: kib("VmRSS"), peakRssBytes: kib("VmHWM") };
  } catch {
    return null;
  }
}

export const MIB = 1024 * 1024;

/**
 * The kernel's peak RSS (VmHWM) of a process restarted from its current RSS (writes 5 to
 * /proc/PID/clear_refs, Linux 4.0+), so a later VmHWM is the peak since now and not the start-up's.
 * False when that is not allowed here; the caller then relies on its own samples.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** The median of the figures (the mean of the two middle ones for an even count); NaN when any is not a finite number. */
export function median(values: readonly number[]): number {
  if (values.length === 0 || values.some((value) => !Number.isFinite(value))) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A run's figures: numbers, possibly in nested records. */
export type Figures = { [name: string]: number | Figures };

/**
 * Each figure's median over the runs, taken apart from the others (so the result is no one run, and
 * never the best): the runs' shape, keeping the numbers and nested records every run has (strings,
 * lists and nulls are left out).
 */
export function medianFigures(runs: readonly object[]): Figures {
  if (runs.length === 0) throw new Error("the median of no runs");
  const records = runs as ReadonlyArray<Record<string, unknown>>;
  const isRecord = (value: unknown): value is object => typeof value === "object" && value !== null && !Array.isArray(value);
  const result: Figures = {};
  for (const name of Object.keys(records[0])) {
    const values = records.map((run) => run[name]);
    if (values.every((value) => typeof value === "number")) result[name] = median(values as number[]);
    else if (values.every(isRecord)) result[name] = medianFigures(values as object[]);
  }
  return result;
}

const twoDecimals = (value: number) => String(Math.round(value * 100) / 100);

/** "88 (80, 88, 95)": a median with the runs' own values, in run order (to two decimals unless `format` says otherwise). */
export function withRuns(medianValue: number, values: readonly number[], format: (value: number) => string = twoDecimals): string {
  return values.length > 1 ? `${format(medianValue)} (${values.map(format).join(", ")})` : format(medianValue);
}
