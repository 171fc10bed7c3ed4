/**
 * One load-generator process of the bench's failover mode (forked by bench/failover.ts): its share
 * of the players, each a client that reconnects as the browser does (bench/failover-client.ts),
 * through the cluster's proxy. Times are on the machine's monotonic clock (bench/monotonic.ts), so
 * the runner subtracts the moment it killed or stopped the owner from each player's return.
 */
import { FailoverClient } from "./failover-client";
import { gameSocketUrl } from "./failover-game";
import type { FailoverCommand, FailoverReport, PlayerOutcome } from "./failover-ipc";
import { monotonicMs } from "./monotonic";
import { answerFor } from "./questions";

/** Sockets opened at once while joining, as bench/outsider-worker.ts does. */
const JOIN_CONCURRENCY = 50;

let players: FailoverClient[] = [];

function report(message: FailoverReport): void {
  process.send!(message);
}

async function join(command: Extract<FailoverCommand, { cmd: "join" }>): Promise<void> {
  const { baseUrl, gameCode, firstIndex, count, keys } = command;
  players = [];
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const index = firstIndex + next++;
      const clientId = `failover-player-${index}`;
      const player = new FailoverClient({
        url: () => gameSocketUrl(baseUrl, clientId, gameCode),
        join: { type: "JOIN_GAME", payload: { gameCode, nickname: `P${index}` } },
        now: monotonicMs,
        answer: (question, resent) => ({
          fields: answerFor(question.question.kind, question.question.answers?.length ?? 4, keys[question.questionNumber - 1]),
          // A random moment of the open window, leaving a tenth of it; a resend (no ack before the drop) soon after the return.
          delayMs: resent ? 200 + Math.random() * 300 : Math.random() * (question.endsAt - question.serverNow) * 0.9,
        }),
      });
      players.push(player);
      const joined = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`player ${index} did not join within 60 s`)), 60_000);
        const onMessage = () => {
          if (player.snapshot && player.playerId !== null) {
            clearTimeout(timer);
            player.off("message", onMessage);
            resolve();
          }
        };
        player.on("message", onMessage);
      });
      player.start();
      await joined;
    }
  };
  await Promise.all(Array.from({ length: Math.min(JOIN_CONCURRENCY, count) }, lane));
  report({ event: "ready" });
}

function outcomes(since: number): PlayerOutcome[] {
  return players.map((player) => {
    const back = player.returns.find((entry) => entry.close.at >= since) ?? null;
    const closes = player.closes.filter((close) => close.at >= since);
    return {
      playerId: player.playerId,
      backAt: back?.backAt ?? null,
      closedAt: closes[0]?.at ?? null,
      closeCodes: closes.map((close) => close.code),
      acknowledged: [...player.acks.keys()],
      sent: [...player.sent.values()].reduce((sum, n) => sum + n, 0),
      errors: player.errors.map((error) => String(error?.code ?? error?.message ?? "?")),
      gaveUp: player.gaveUp,
      finished: player.gameOver !== null,
    };
  });
}

process.on("message", (command: FailoverCommand) => {
  switch (command.cmd) {
    case "join":
      join(command).catch((error: unknown) => report({ event: "failed", message: error instanceof Error ? error.message : String(error) }));
      return;
    case "collect":
      report({ event: "outcomes", players: outcomes(command.since) });
      return;
    case "close":
      for (const player of players) player.terminate();
      players = [];
      report({ event: "closed" });
      return;
  }
});
