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
