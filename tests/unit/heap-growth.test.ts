/**
 * The server holds V8's old generation to a limited growth between full collections
 * (server/heap-growth.ts): with it, a process that keeps making old-generation garbage collects it
 * more often and peaks lower than the same process without it.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { limitHeapGrowth } from "#server/heap-growth";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * A child process that keeps a live set and makes garbage that outlives the young generation, as a
 * game's answers waiting for their commit do; prints its full collections and its peak old space.
 */
function oldGenerationChurn(limit: boolean): { fullCollections: number; peakOldSpaceMiB: number } {
  const script = `
    import { PerformanceObserver } from "node:perf_hooks";
    import v8 from "node:v8";
    ${limit ? 'import { limitHeapGrowth } from "./server/heap-growth.ts"; limitHeapGrowth([]);' : ""}
    let fullCollections = 0;
    new PerformanceObserver((list) => { for (const entry of list.getEntries()) if (entry.detail.kind === 4) fullCollections++; }).observe({ entryTypes: ["gc"] });
    const live = [];
    for (let i = 0; i < 200000; i++) live.push({ i, text: "live " + i });
    let waiting = [];
    let peak = 0;
    for (let round = 0; round < 300; round++) {
      for (let i = 0; i < 20000; i++) waiting.push({ i, text: "waiting " + i + " " + round });
      if (waiting.length > 60000) waiting = [];
      await new Promise((resolve) => setImmediate(resolve));
      const old = v8.getHeapSpaceStatistics().find((space) => space.space_name === "old_space");
      peak = Math.max(peak, old.space_used_size);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    console.log(JSON.stringify({ fullCollections, peakOldSpaceMiB: peak / 1048576, live: live.length }));
  `;
  const output = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  return JSON.parse(output.trim().split("\n").at(-1)!);
}

describe("limitHeapGrowth", () => {
  it("makes V8 collect the old generation sooner, so it peaks lower", () => {
    const unlimited = oldGenerationChurn(false);
    const limited = oldGenerationChurn(true);
    expect(limited.fullCollections).toBeGreaterThan(unlimited.fullCollections);
    expect(limited.peakOldSpaceMiB).toBeLessThan(unlimited.peakOldSpaceMiB * 0.8);
  });

  it("leaves a growth chosen on node's command line alone", () => {
    expect(limitHeapGrowth(["--heap-growing-percent=50"])).toBe(false);
    expect(limitHeapGrowth(["--heap_growing_percent=50"])).toBe(false);
  });
});
