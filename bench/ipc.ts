/** Messages between bench/run.ts and its load-generator workers. */
import type { AnswerKey } from "./questions";

export type ParentCommand =
  | { cmd: "baseline"; url: string; count: number }
  | { cmd: "collect" }
  /** `keys[questionNumber - 1]`: what the players know of each question's right answer. */
  | { cmd: "play"; url: string; gameCode: string; firstIndex: number; count: number; keys: AnswerKey[] }
  | { cmd: "close" };

export type WorkerReport =
  | { event: "baselineReady" }
  | { event: "baselineSamples"; deliveries: number[] }
  | { event: "joined"; at: number }
  | {
      event: "finished";
      deliveries: number[];
      /** Ack latencies (ms) by the question's kind. */
      acksByKind: Record<string, number[]>;
      deliveriesByKind: Record<string, number[]>;
      sent: number;
      acknowledged: number;
      errors: string[];
      unexpectedCloses: number;
      /** ANSWER_ACCEPTED that did not answer the player's pending answer (a repeat, or another question's). */
      strayAcks: number;
      /** The largest QUESTION_STARTED frame any of this worker's players received. */
      questionStartedBytes: number;
    }
  | { event: "closed" }
  | { event: "failed"; message: string };

/** What the baseline server is told, and what it answers. */
export type BaselineCommand = { cmd: "broadcast"; bytes: number } | { cmd: "stop" };
export type BaselineReport = { event: "listening"; port: number } | { event: "broadcast"; clients: number };
