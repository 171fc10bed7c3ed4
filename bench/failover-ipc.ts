/** Messages between bench/failover.ts and its load workers (bench/failover-worker.ts). */
import type { AnswerKey } from "./questions";

export type FailoverCommand =
  /** Join `count` players to the game through `baseUrl` (the proxy), each answering every question once. */
  | { cmd: "join"; baseUrl: string; gameCode: string; firstIndex: number; count: number; keys: AnswerKey[] }
  /** What each player lived since `since` (a monotonic time: the kill or the hang). */
  | { cmd: "collect"; since: number }
  | { cmd: "close" };

export interface PlayerOutcome {
  playerId: number | null;
  /** Monotonic time the player was back in its game after its first close since `since`; null when it was not (or never closed). */
  backAt: number | null;
  closedAt: number | null;
  /** Close codes since `since`. */
  closeCodes: number[];
  /** Question numbers whose answer the server acknowledged. */
  acknowledged: number[];
  /** Answers sent, resends included. */
  sent: number;
  errors: string[];
  gaveUp: boolean;
  finished: boolean;
}

export type FailoverReport = { event: "ready" } | { event: "outcomes"; players: PlayerOutcome[] } | { event: "closed" } | { event: "failed"; message: string };
