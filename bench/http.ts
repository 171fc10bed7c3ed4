/** The benchmark's HTTP part: a short autocannon run against the pages and the API players hit first. */
import autocannon from "autocannon";

export const HTTP_TARGETS = ["/", "/join", "/api/game-sessions"] as const;

export interface HttpFigure {
  path: string;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export async function measureHttp(baseUrl: string, seconds: number, connections: number): Promise<HttpFigure[]> {
  const figures: HttpFigure[] = [];
  for (const path of HTTP_TARGETS) {
    const result = await autocannon({ url: baseUrl + path, connections, duration: seconds });
    figures.push({
      path,
      requestsPerSecond: Math.round(result.requests.average),
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
    });
  }
  return figures;
}
