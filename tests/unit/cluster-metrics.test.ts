/**
 * /metrics per node (issue 28, server/metrics.ts): the node's name, and the cluster's gauges and
 * counters, registered from the start so a scraper sees them at 0 before anything is counted.
 */
import { describe, expect, it } from "vitest";
import { ServerMetrics } from "#server/metrics";

function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("the cluster's metrics of one node", () => {
  it("names the node, and starts every cluster counter at 0", async () => {
    const metrics = new ServerMetrics({ nodeId: "node-b" });
    metrics.watch({ games: () => 3, players: () => 0, sockets: () => 0 });
    const text = await metrics.registry.metrics();
    expect(sample(text, 'quiz_night_node_info{node="node-b"}')).toBe(1);
    for (const counter of ["game_claims", "game_handovers", "forwarded_sockets", "fenced_commits"]) {
      expect(text).toContain(`# TYPE quiz_night_${counter}_total counter`);
      expect(sample(text, `quiz_night_${counter}_total`)).toBe(0);
    }
    // On one node every game in memory is its own; ready unless told otherwise.
    expect(sample(text, "quiz_night_games_owned")).toBe(3);
    expect(sample(text, "quiz_night_ready")).toBe(1);
  });

  it("counts what the cluster's parts report, and reads ownership and readiness from their sources", async () => {
    const metrics = new ServerMetrics({ nodeId: "node-a" });
    let ready = true;
    metrics.watch({ games: () => 5, players: () => 0, sockets: () => 0, gamesOwned: () => 2, ready: async () => ready });
    metrics.gameClaimed();
    metrics.gameClaimed();
    metrics.gameHandedOver();
    metrics.socketForwarded();
    metrics.commitFenced();
    let text = await metrics.registry.metrics();
    expect(sample(text, "quiz_night_game_claims_total")).toBe(2);
    expect(sample(text, "quiz_night_game_handovers_total")).toBe(1);
    expect(sample(text, "quiz_night_forwarded_sockets_total")).toBe(1);
    expect(sample(text, "quiz_night_fenced_commits_total")).toBe(1);
    expect(sample(text, "quiz_night_games_owned")).toBe(2);
    expect(sample(text, "quiz_night_ready")).toBe(1);
    ready = false;
    text = await metrics.registry.metrics();
    expect(sample(text, "quiz_night_ready")).toBe(0);
  });
});
