/**
 * `npm run bench:attacks [-- --players N --copies C --runs R]`
 *
 * A quiz night under attack (bench/attack-night.ts, issue 26): one game of N players (200) while one
 * address sends each of issue 26's attacks 1-5, C (20) at a time in waves, over one question each.
 * Prints, per attack, the question's delivery and acknowledgement p99, what the attacker was
 * answered and how fast, the server's RSS growth and its own worst event-loop delay; with
 * `--runs R`, every run's table and then the medians with each run's value. Figures, not tests.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { runAttackNight, type AttackFigures } from "./attack-night";
import { median } from "./stats";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    players: { type: "string", default: "200" },
    copies: { type: "string", default: "20" },
    runs: { type: "string", default: "3" },
  },
});
const players = Number(values.players);
const copies = Number(values.copies);
const runs = Number(values.runs);

const oneDecimal = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : "-");
const statusesOf = (figures: AttackFigures) =>
  Object.entries(figures.statuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(" ") || "-";

function printRun(run: AttackFigures[], label: string): void {
  console.log(`\n${label}`);
  console.log("| attack | delivery p99 | ack p99 | answers acked | attacker answers | attacker p99 / max | RSS growth | server loop max |");
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const figures of run) {
    console.log(
      `| ${figures.attack} | ${oneDecimal(figures.delivery.p99)} ms | ${oneDecimal(figures.ack.p99)} ms | ${figures.answersAcknowledged}/${figures.answersSent} | ` +
        `${statusesOf(figures)} | ${oneDecimal(figures.attackerLatency.p99)} / ${oneDecimal(figures.attackerLatency.max)} ms | ` +
        `${oneDecimal(figures.rssGrowthMib)} MiB | ${oneDecimal(figures.serverLoopDelayMaxMs)} ms |`,
    );
  }
}

const allRuns: AttackFigures[][] = [];
for (let run = 1; run <= runs; run++) {
  const figures = await runAttackNight({
    root: ROOT,
    players,
    copies,
    onAttackDone: (done) => console.error(`run ${run}: ${done.attack} done (${done.attackerRequests} requests)`),
  });
  allRuns.push(figures);
  printRun(figures, `Run ${run} of ${runs}: ${players} players, each attack ${copies} at a time`);
}

if (runs > 1) {
  console.log(`\nMedians of ${runs} runs (each run's value in parentheses): npm run bench:attacks -- --players ${players} --copies ${copies} --runs ${runs}`);
  console.log("| attack | delivery p99 | ack p99 | attacker p99 | RSS growth | server loop max |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const [index, first] of allRuns[0].entries()) {
    const column = (pick: (figures: AttackFigures) => number) => {
      const each = allRuns.map((run) => pick(run[index]));
      return `${oneDecimal(median(each))} (${each.map(oneDecimal).join(", ")})`;
    };
    console.log(
      `| ${first.attack} | ${column((f) => f.delivery.p99)} ms | ${column((f) => f.ack.p99)} ms | ${column((f) => f.attackerLatency.p99)} ms | ` +
        `${column((f) => f.rssGrowthMib)} MiB | ${column((f) => f.serverLoopDelayMaxMs)} ms |`,
    );
  }
}
