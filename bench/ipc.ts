/** Messages between bench/run.ts and its load-generator workers. */

export type ParentCommand =
  | { cmd: "baseline"; url: string; count: number }
  | { cmd: "collect" }
  | { cmd: "play"; url: string; gameCode: string; firstIndex: number; count: number }
  | { cmd: "close" };

export type WorkerReport =
  | { event: "baselineReady" }
  | { event: "baselineSamples"; deliveries: number[] }
  | { event: "joined"; at: number }
  | {
      event: "finished";
      deliveries: number[];
      acks: number[];
      sent: number;
      acknowledged: number;
      errors: string[];
      unexpectedCloses: number;
      questionStartedBytes: number;
    }
  | { event: "closed" }
  | { event: "failed"; message: string };

/** What the baseline server is told, and what it answers. */
export type BaselineCommand = { cmd: "broadcast"; bytes: number } | { cmd: "stop" };
export type BaselineReport = { event: "listening"; port: number } | { event: "broadcast"; clients: number };
