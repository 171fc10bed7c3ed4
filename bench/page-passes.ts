/**
 * The passes over the pages that follow a run's game(s) on the same server, in both modes of
 * `npm run bench`: autocannon over the first pages and API a player hits (`--http-seconds`, 0 skips
 * it), what a phone downloads (`--weight-runs`), and Lighthouse (`--lighthouse-runs`).
 */
import { measureHttp, type HttpFigure } from "./http";
import { measureLighthouse } from "./lighthouse";
import { lighthouseRows, type LighthouseSummary } from "./lighthouse-scores";
import { medianPlayerWeight, weightRows, type PlayerWeight } from "./player-weight";
import { log } from "./processes";

export interface PagePassOptions {
  httpSeconds: number;
  httpConnections: number;
  weightRuns: number;
  lighthouseRuns: number;
}

export interface PagePasses {
  http: HttpFigure[];
  weight: { median: PlayerWeight; totals: number[] } | null;
  lighthouse: LighthouseSummary | null;
}

export async function runPagePasses(serverUrl: string, options: PagePassOptions): Promise<PagePasses> {
  const passes: PagePasses = { http: [], weight: null, lighthouse: null };
  if (options.httpSeconds > 0) {
    log(`http: autocannon, ${options.httpConnections} connections, ${options.httpSeconds} s per path`);
    passes.http = await measureHttp(serverUrl, options.httpSeconds, options.httpConnections);
  }
  if (options.weightRuns > 0) {
    log(`player weight: ${options.weightRuns} phones in Chromium join and answer the first question`);
    passes.weight = await medianPlayerWeight(serverUrl, options.weightRuns);
  }
  if (options.lighthouseRuns > 0) {
    log(`lighthouse: ${options.lighthouseRuns} runs of /, /join and /play/CODE, mobile profile`);
    passes.lighthouse = await measureLighthouse(serverUrl, options.lighthouseRuns);
  }
  return passes;
}

export function pagePassRows(passes: PagePasses, lighthouseRuns: number): Array<[string, string]> {
  return [
    ...passes.http.map((figure): [string, string] => [
      `http GET ${figure.path}`,
      `${figure.requestsPerSecond} req/s, p50 ${figure.latencyP50Ms} ms, p99 ${figure.latencyP99Ms} ms (${figure.non2xx} non-2xx, ${figure.errors} errors)`,
    ]),
    ...(passes.weight ? weightRows(passes.weight.median, passes.weight.totals, "npm run bench:weight") : []),
    ...(passes.lighthouse ? lighthouseRows(passes.lighthouse, `npm run bench:lighthouse -- --runs ${lighthouseRuns}`) : []),
  ];
}

/** As results.json has always had them. */
export function pagePassResults(passes: PagePasses) {
  const { http, weight, lighthouse } = passes;
  return {
    http,
    playerWeight: weight ? { medianBytes: weight.median.totalBytes, totals: weight.totals, files: weight.median.files } : null,
    lighthouse,
  };
}
