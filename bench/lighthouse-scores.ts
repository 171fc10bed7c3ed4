/**
 * The figures of bench/lighthouse.ts, apart from the browser: what a Lighthouse report scores, the
 * median of several runs, and the table's lines.
 */
export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Category = (typeof CATEGORIES)[number];
/** Lighthouse's score of each category, 0-100. */
export type Scores = Record<Category, number>;

const CATEGORY_LABELS: Record<Category, string> = {
  performance: "performance",
  accessibility: "accessibility",
  "best-practices": "best practices",
  seo: "SEO",
};

/** The metrics the performance score is made of, by Lighthouse's audit id. */
export const METRICS = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"] as const;
export type Metric = (typeof METRICS)[number];

/** An audit that failed (score below 1) in a category other than performance. */
export interface Finding {
  id: string;
  category: Category;
  title: string;
  /** How many of the runs it failed in. */
  runs: number;
}

export interface PageAudit {
  scores: Scores;
  /**
   * Lighthouse's measure of the machine's CPU speed during the audit (its `benchmarkIndex`). The
   * simulated throttling multiplies the main-thread work it saw, so on a busy machine (a low index)
   * the blocking time, and the performance score with it, come out worse than the page is.
   */
  benchmarkIndex: number;
  /** Milliseconds, except the layout shift (unitless). */
  metrics: Record<Metric, number>;
  failed: Array<Omit<Finding, "runs">>;
}

export interface PageSummary {
  page: string;
  /** Each run's benchmark index, in order. */
  benchmarkIndexes: number[];
  median: Scores;
  /** Each run's scores, in order. */
  runs: Scores[];
  metrics: Record<Metric, number>;
  findings: Finding[];
}

export interface LighthouseSummary {
  lighthouseVersion: string;
  browser: string;
  formFactor: string;
  throttlingMethod: string;
  pages: PageSummary[];
}

/**
 * The median of several figures; of an even number, the lower of the two middle ones, so the
 * figure printed is one a run produced (as bench/player-weight.ts's median run).
 */
export function median(values: number[]): number {
  if (values.length === 0) throw new Error("the median of no figures");
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** Each category's median over the runs, taken apart from the others. */
export function medianScores(runs: Scores[]): Scores {
  return Object.fromEntries(CATEGORIES.map((category) => [category, median(runs.map((run) => run[category]))])) as Scores;
}

/** Every failed audit of any run, once, with the number of runs it failed in; the most frequent first. */
export function mergeFindings(runs: Array<Array<Omit<Finding, "runs">>>): Finding[] {
  const byId = new Map<string, Finding>();
  for (const failed of runs) {
    for (const finding of failed) {
      const seen = byId.get(finding.id);
      if (seen) seen.runs++;
      else byId.set(finding.id, { ...finding, runs: 1 });
    }
  }
  return [...byId.values()].sort((a, b) => b.runs - a.runs || a.category.localeCompare(b.category) || a.id.localeCompare(b.id));
}

/** The parts of a Lighthouse report (its `lhr`) read here. */
export interface LighthouseResult {
  lighthouseVersion: string;
  environment: { hostUserAgent: string; benchmarkIndex: number };
  configSettings: { formFactor: string; throttlingMethod: string };
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<string, { id: string; title: string; score: number | null; scoreDisplayMode: string; numericValue?: number }>;
}

/** The figures of one Lighthouse report. */
export function auditOf(lhr: LighthouseResult): PageAudit {
  const scores = Object.fromEntries(
    CATEGORIES.map((category) => {
      const score = lhr.categories[category]?.score;
      if (score === null || score === undefined) throw new Error(`Lighthouse gave no ${category} score`);
      return [category, Math.round(score * 100)];
    }),
  ) as Scores;
  const metrics = Object.fromEntries(METRICS.map((metric) => [metric, lhr.audits[metric]?.numericValue ?? NaN])) as Record<Metric, number>;
  const failed: PageAudit["failed"] = [];
  for (const category of CATEGORIES) {
    if (category === "performance") continue;
    for (const { id } of lhr.categories[category].auditRefs) {
      const audit = lhr.audits[id];
      if (audit && audit.score !== null && audit.score < 1 && (audit.scoreDisplayMode === "binary" || audit.scoreDisplayMode === "numeric")) {
        failed.push({ id, category, title: audit.title });
      }
    }
  }
  return { scores, benchmarkIndex: Math.round(lhr.environment.benchmarkIndex), metrics, failed };
}

/** A page's runs as the table shows them: the median of each category and metric, and what failed. */
export function summarizePage(page: string, runs: PageAudit[]): PageSummary {
  return {
    page,
    benchmarkIndexes: runs.map((audit) => audit.benchmarkIndex),
    median: medianScores(runs.map((audit) => audit.scores)),
    runs: runs.map((audit) => audit.scores),
    metrics: Object.fromEntries(METRICS.map((metric) => [metric, median(runs.map((audit) => audit.metrics[metric]))])) as Record<Metric, number>,
    findings: mergeFindings(runs.map((audit) => audit.failed)),
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A page's medians, each run's performance score with the CPU benchmark it ran at, and the median metrics. */
function pageLine({ median, runs, benchmarkIndexes, metrics }: PageSummary): string {
  const scores = CATEGORIES.map((category) => `${CATEGORY_LABELS[category]} ${median[category]}`).join(" · ");
  const performanceRuns = runs.map((run) => run.performance).join(", ");
  const figures = [
    `FCP ${seconds(metrics["first-contentful-paint"])}`,
    `LCP ${seconds(metrics["largest-contentful-paint"])}`,
    `TBT ${Math.round(metrics["total-blocking-time"])} ms`,
    `CLS ${metrics["cumulative-layout-shift"].toFixed(3)}`,
    `SI ${seconds(metrics["speed-index"])}`,
  ].join(", ");
  return `${scores} (performance ${performanceRuns} at benchmarkIndex ${benchmarkIndexes.join(", ")}; ${figures})`;
}

/** The figure's lines for the bench's table: label, value. */
export function lighthouseRows(summary: LighthouseSummary, command: string): Array<[string, string]> {
  const runs = summary.pages[0]?.runs.length ?? 0;
  const throttling = summary.throttlingMethod === "simulate" ? "simulated" : summary.throttlingMethod;
  const indexes = summary.pages.flatMap((page) => page.benchmarkIndexes);
  const rows: Array<[string, string]> = [
    [
      "lighthouse",
      `${summary.formFactor} profile, ${throttling} throttling, Lighthouse ${summary.lighthouseVersion}, ${summary.browser}; median per category of ${runs} runs — \`${command}\``,
    ],
    [
      "lighthouse CPU benchmark",
      `benchmarkIndex median ${median(indexes)} (${Math.min(...indexes)}-${Math.max(...indexes)}); the lower, the busier the machine and the more the simulated blocking time is inflated`,
    ],
  ];
  for (const page of summary.pages) {
    rows.push([`lighthouse ${page.page}`, pageLine(page)]);
    if (page.findings.length === 0) continue;
    const findings = page.findings.map((finding) => {
      const often = finding.runs < runs ? `, ${finding.runs} of ${runs} runs` : "";
      return `${finding.id} (${CATEGORY_LABELS[finding.category]}${often})`;
    });
    rows.push([`lighthouse ${page.page} failed`, findings.join(" · ")]);
  }
  return rows;
}
