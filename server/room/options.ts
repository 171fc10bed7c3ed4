import type { GameSettings } from "#app/game/engine/index";
import type { GameWriteBatch } from "#app/models/game-batch.server";
import type { Requester } from "#app/models/quiz.server";
import type { CommitClock } from "../commit-clock";
import type { CommitOutcome, OutboxMetrics } from "../game-outbox";
import type { GameRoom } from "../game-room";
import type { Logger } from "../logger";
import type { SendPacer } from "../send-pacer";

/** docs/decisions/0006: an accepted answer waits at most this long for the commit that stores it. */
export const DEFAULT_COMMIT_INTERVAL_MS = 10;

/** What a room needs from storage; server.ts binds it to the database. */
export interface RoomStore {
  commit(batch: GameWriteBatch): Promise<CommitOutcome>;
  /** Whether the requester (a socket's browser) is the game's host now (`isGameHost`, docs/decisions/0044-shared-browsers.md). */
  isHost(requester: Requester): Promise<boolean>;
}

export interface RoomOptions {
  settings?: Partial<GameSettings>;
  /** Longest time an accepted action waits for its group commit. */
  commitIntervalMs?: number;
  /** The clock the process's rooms share for that wait (the hub's), so their commits share transactions. */
  commitClock?: CommitClock;
  /** The slice of socket writes the process's rooms share (the hub's). */
  sendPacer?: SendPacer;
  now?: () => number;
  logger?: Logger;
  /** Messages sent and group commits, for /metrics. */
  metrics?: OutboxMetrics;
  /** The room ended itself (its game is gone, or it reloads); the hub forgets it. */
  onClosed?: (room: GameRoom) => void;
}
