/**
 * Issue 26's acceptance, played: while a 200-player game runs on the production server (its own
 * process), each attack of points 1-5 is sent twenty at a time from one address over a whole
 * question (bench/attack-night.ts). Every attack request is refused with a 4xx (or, for a large body
 * refused before it was read, a reset connection), every answer is
 * acknowledged, the server's RSS grows by less than 100 MB and its own event loop never waits 100 ms.
 * The delivery and acknowledgement times are figures: `npm run bench:attacks` prints them. It runs
 * alone (`npm run test:attacks`, after the other files): beside another test file, the two cores are
 * shared three ways and the server's loop waits for the CPU, not for the attack.
 *
 * The loop's worst delay is the one wall-clock figure asserted here (the issue asks for it). On a
 * shared CI machine one stall from outside (another tenant, the disk flushing what earlier tests
 * wrote under a synchronous commit) has once pushed one attack's figure to 188 ms where this
 * machine's medians stay at or under 54 ms (docs/capacity.md). So a night whose only miss is that figure is
 * played once more, printed, and the second night must hold it for every attack; everything else
 * is asserted on the first night.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runAttackNight, type AttackFigures } from "../../bench/attack-night";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const MAX_LOOP_DELAY_MS = 100;

function expectAttacksRefused(figures: AttackFigures[]): void {
  expect(figures.map((figure) => figure.attack)).toHaveLength(6);
  for (const figure of figures) {
    expect(figure.answersAcknowledged, `${figure.attack}: answers acknowledged`).toBe(figure.answersSent);
    expect(figure.answersSent, `${figure.attack}: answers sent`).toBe(200);
    if (figure.attackerRequests === 0) continue;
    for (const status of Object.keys(figure.statuses).map(Number)) {
      // 0: the server refused before reading a large body and the connection closed while the
      // attacker was still sending it, so the attacker read a reset instead of the 4xx (the bench
      // prints how often). Never a success, a 5xx, or no answer at all.
      if (status === 0) continue;
      expect(status, `${figure.attack}: every answer the attacker got (${JSON.stringify(figure.statuses)})`).toBeGreaterThanOrEqual(400);
      expect(status, `${figure.attack}: every answer the attacker got (${JSON.stringify(figure.statuses)})`).toBeLessThan(500);
    }
    expect(figure.statuses["0"] ?? 0, `${figure.attack}: connections reset, against 4xx answers`).toBeLessThan(figure.attackerRequests / 10);
    expect(figure.rssGrowthMib, `${figure.attack}: the server's RSS growth (MiB)`).toBeLessThan(100);
  }
}

/** The attacks whose window saw the server's loop wait 100 ms or more. */
function loopStalls(figures: AttackFigures[]): string[] {
  return figures
    .filter((figure) => figure.attackerRequests > 0 && !(figure.serverLoopDelayMaxMs < MAX_LOOP_DELAY_MS))
    .map((figure) => `${figure.attack}: the server's worst event-loop delay was ${figure.serverLoopDelayMaxMs.toFixed(1)} ms`);
}

describe("a 200-player game under attack", () => {
  it("refuses every attack with a 4xx and keeps the game whole", { timeout: 300_000 }, async () => {
    const first = await runAttackNight({ root: ROOT, players: 200, copies: 20 });
    expectAttacksRefused(first);
    const stalls = loopStalls(first);
    if (stalls.length === 0) return;
    console.log(`the first night's loop missed ${MAX_LOOP_DELAY_MS} ms (${stalls.join("; ")}); playing it once more`);
    const second = await runAttackNight({ root: ROOT, players: 200, copies: 20 });
    expectAttacksRefused(second);
    expect(loopStalls(second), "attacks whose window held the server's loop 100 ms or more, on the second night as on the first").toEqual([]);
  });
});
