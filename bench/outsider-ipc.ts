/** Messages between bench/outsider.ts and its load workers (bench/outsider-worker.ts). */
import type { AnswerKey } from "./questions";

/** Times (ms) by round or question number. */
export type Receipts = Record<number, number[]>;

export type OutsiderCommand =
  /** Answer with this process's monotonic clock now (the runner checks the clocks agree). */
  | { cmd: "clock" }
  /** Open `count` sockets to the bare server. */
  | { cmd: "bare"; url: string; count: number }
  /** Join `count` players to the game; `answers`: each answers every question at a random moment of its window. */
  | { cmd: "game"; url: string; gameCode: string; firstIndex: number; count: number; keys: AnswerKey[]; answers: boolean }
  | { cmd: "collect" }
  | { cmd: "close" };

export type OutsiderReport =
  | { event: "clock"; at: number }
  /** Every socket open (the bare server's) or every player joined (the game's). */
  | { event: "ready" }
  | {
      event: "samples";
      /** Monotonic arrival times (bench/monotonic.ts). */
      receipts: Receipts;
      /** Arrival less the message's `serverNow` (wall clock, whole ms). */
      sinceServerNow: Receipts;
      sent: number;
      acknowledged: number;
      /** Players that saw GAME_OVER. */
      finished: number;
      errors: string[];
    }
  | { event: "closed" }
  | { event: "failed"; message: string };
