/** Messages between bench/run.ts and its load-generator workers. */
import type { AnswerKey } from "./questions";

export type ParentCommand =
  | { cmd: "baseline"; url: string; count: number }
  | { cmd: "collect" }
  /** `keys[questionNumber - 1]`: what the players know of each question's right answer. */
  | { cmd: "play"; url: string; gameCode: string; firstIndex: number; count: number; keys: AnswerKey[] }
  /** The many-games mode: set up these games (their hosts and players), then start them. */
  | GamesSetupCommand
  /** Each host starts its game at `at + offsetsMs[game]` (epoch ms; offsetsMs has an entry per game of the run). */
  | { cmd: "startGames"; at: number; offsetsMs: number[] }
  | { cmd: "close" };

/** What a load worker needs to set up its share of a many-games run (bench/game-players.ts). */
export interface GamesSetupCommand {
  cmd: "setupGames";
  httpUrl: string;
  wsUrl: string;
  /** The games (0-based, of the whole run) this worker drives: their hosts and all their players. */
  games: number[];
  playersPerGame: number;
  timeLimitSeconds: number;
  /** Bodies of POST /api/questions (without quizId), in order. */
  questions: Array<Record<string, unknown>>;
  /** `keys[questionNumber - 1]`: what the players know of each question's right answer. */
  keys: AnswerKey[];
}

/** One game of a many-games run, as its host and players saw it. */
export interface GameTally {
  game: number;
  code: string;
  sent: number;
  acknowledged: number;
  strayAcks: number;
  /** Answers refused with an ERROR instead of acknowledged (too late, most often). */
  refused: number;
  /** ERROR frames its host and players received. */
  errors: number;
  /** Players who received GAME_OVER. */
  playersFinished: number;
  /** Players whose socket closed before GAME_OVER. */
  unexpectedCloses: number;
  hostSawGameOver: boolean;
}

export type WorkerReport =
  | { event: "baselineReady" }
  /** `deliveries`: the plain broadcasts'; `echoDeliveries`: those that opened an answer window; `echoAcks`: each answer's echo (ms). */
  | { event: "baselineSamples"; deliveries: number[]; echoDeliveries: number[]; echoAcks: number[] }
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
  | { event: "gamesReady"; at: number; games: Array<{ game: number; code: string }> }
  | {
      event: "gamesFinished";
      at: number;
      games: GameTally[];
      /** Question delivery (ms) of every player of every game of this worker. */
      deliveries: QuestionSamples;
      /** Answer acknowledgement (ms), likewise. */
      acks: QuestionSamples;
      /** The first ERROR messages, with their game and who got them. */
      errors: string[];
      /** This process's CPU time (user + system) while the games played. */
      cpuSeconds: number;
      /** Its event loop's delay meanwhile: a late generator shows here, not as the server's latency. */
      loopDelayP99Ms: number;
      loopDelayMaxMs: number;
    }
  | { event: "closed" }
  | { event: "failed"; message: string };

/** What the baseline server is told, and what it answers. */
/** `echoWindowMs` > 0: every socket answers at a random moment of that window, as players answer a question. */
export type BaselineCommand = { cmd: "broadcast"; bytes: number; echoWindowMs?: number } | { cmd: "stop" };
export type BaselineReport = { event: "listening"; port: number } | { event: "broadcast"; clients: number };

/** Latency samples (ms) of the first question and of the later ones. */
export interface QuestionSamples {
  first: number[];
  later: number[];
}
