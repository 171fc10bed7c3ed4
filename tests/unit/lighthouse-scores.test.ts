import { describe, expect, it } from "vitest";
import {
  auditOf,
  lighthouseRows,
  median,
  medianScores,
  mergeFindings,
  summarizePage,
  type LighthouseResult,
  type PageAudit,
} from "../../bench/lighthouse-scores";

const scores = (performance: number, accessibility: number, bestPractices: number, seo: number) => ({
  performance,
  accessibility,
  "best-practices": bestPractices,
  seo,
});

const metrics = (lcp: number) => ({
  "first-contentful-paint": 1000,
  "largest-contentful-paint": lcp,
  "total-blocking-time": 50,
  "cumulative-layout-shift": 0.01,
  "speed-index": 1200,
});

describe("median", () => {
  it("takes the middle figure of an odd number, whatever their order", () => {
    expect(median([97, 88, 99])).toBe(97);
    expect(median([5])).toBe(5);
  });

  it("takes the lower middle figure of an even number, one a run produced", () => {
    expect(median([90, 100])).toBe(90);
    expect(median([4, 1, 3, 2])).toBe(2);
  });

  it("refuses no figures", () => {
    expect(() => median([])).toThrow();
  });
});

describe("medianScores", () => {
  it("takes each category's median apart from the others", () => {
    expect(medianScores([scores(80, 100, 96, 90), scores(95, 92, 100, 100), scores(90, 100, 100, 90)])).toEqual(scores(90, 100, 100, 90));
  });
});

describe("mergeFindings", () => {
  it("lists each failed audit once with the runs it failed in, the most frequent first", () => {
    const contrast = { id: "color-contrast", category: "accessibility" as const, title: "Contrast" };
    const consoleErrors = { id: "errors-in-console", category: "best-practices" as const, title: "Console errors" };
    expect(mergeFindings([[consoleErrors], [contrast, consoleErrors], []])).toEqual([
      { ...consoleErrors, runs: 2 },
      { ...contrast, runs: 1 },
    ]);
  });
});

function report(overrides: Partial<Record<string, number | null>> = {}): LighthouseResult {
  const category = (score: number | null, ids: string[]) => ({ score, auditRefs: ids.map((id) => ({ id, weight: 1 })) });
  return {
    lighthouseVersion: "12.8.2",
    environment: { hostUserAgent: "Mozilla/5.0 HeadlessChrome/156.0.0.0 Safari/537.36", benchmarkIndex: 1149.6 },
    configSettings: { formFactor: "mobile", throttlingMethod: "simulate" },
    categories: {
      performance: category(overrides.performance ?? 0.934, ["largest-contentful-paint"]),
      accessibility: category(1, ["color-contrast", "manual-check"]),
      "best-practices": category(0.96, ["inspector-issues", "is-on-https"]),
      seo: category(overrides.seo === undefined ? 0.9 : overrides.seo, ["meta-description"]),
    },
    audits: {
      "largest-contentful-paint": { id: "largest-contentful-paint", title: "LCP", score: 0.9, scoreDisplayMode: "numeric", numericValue: 2400 },
      "first-contentful-paint": { id: "first-contentful-paint", title: "FCP", score: 0.9, scoreDisplayMode: "numeric", numericValue: 1800 },
      "color-contrast": { id: "color-contrast", title: "Contrast", score: null, scoreDisplayMode: "notApplicable" },
      "manual-check": { id: "manual-check", title: "Check by hand", score: null, scoreDisplayMode: "manual" },
      "inspector-issues": { id: "inspector-issues", title: "Issues panel", score: 0, scoreDisplayMode: "binary" },
      "is-on-https": { id: "is-on-https", title: "HTTPS", score: 1, scoreDisplayMode: "binary" },
      "meta-description": { id: "meta-description", title: "Meta description", score: 0, scoreDisplayMode: "binary" },
    },
  };
}

describe("auditOf", () => {
  it("reads the scores out of 100, the metrics, and the failed audits outside performance", () => {
    const audit = auditOf(report());
    expect(audit.scores).toEqual(scores(93, 100, 96, 90));
    expect(audit.benchmarkIndex).toBe(1150);
    expect(audit.metrics["largest-contentful-paint"]).toBe(2400);
    expect(audit.metrics["total-blocking-time"]).toBeNaN();
    expect(audit.failed).toEqual([
      { id: "inspector-issues", category: "best-practices", title: "Issues panel" },
      { id: "meta-description", category: "seo", title: "Meta description" },
    ]);
  });

  it("refuses a report with a category Lighthouse could not score", () => {
    expect(() => auditOf(report({ seo: null }))).toThrow(/seo/);
  });
});

describe("lighthouseRows", () => {
  it("prints the command, each page's medians and what failed in how many runs", () => {
    const runs: PageAudit[] = [
      { scores: scores(97, 100, 100, 100), benchmarkIndex: 1100, metrics: metrics(2000), failed: [] },
      {
        scores: scores(91, 100, 96, 100),
        benchmarkIndex: 400,
        metrics: metrics(2600),
        failed: [{ id: "inspector-issues", category: "best-practices", title: "Issues" }],
      },
      { scores: scores(99, 100, 100, 100), benchmarkIndex: 900, metrics: metrics(1900), failed: [] },
    ];
    const rows = lighthouseRows(
      { lighthouseVersion: "12.8.2", browser: "Chrome/156.0.0.0", formFactor: "mobile", throttlingMethod: "simulate", pages: [summarizePage("/", runs)] },
      "npm run bench:lighthouse -- --runs 3",
    );
    expect(rows[0][1]).toContain("mobile profile, simulated throttling");
    expect(rows[0][1]).toContain("`npm run bench:lighthouse -- --runs 3`");
    expect(rows[1]).toEqual(["lighthouse CPU benchmark", expect.stringMatching(/^benchmarkIndex median 900 \(400-1100\);/)]);
    expect(rows[2]).toEqual([
      "lighthouse /",
      "performance 97 · accessibility 100 · best practices 100 · SEO 100 (performance 97, 91, 99 at benchmarkIndex 1100, 400, 900; FCP 1.0 s, LCP 2.0 s, TBT 50 ms, CLS 0.010, SI 1.2 s)",
    ]);
    expect(rows[3]).toEqual(["lighthouse / failed", "inspector-issues (best practices, 1 of 3 runs)"]);
  });
});
