/**
 * One writer for the process (issue 18, docs/decisions/0035-one-writer.md): every game's group
 * commit that falls due in the same turn of the event loop goes to SQLite in one transaction, each
 * game's part in a savepoint of its own. Hundreds of live games then cost one `COMMIT` (one fsync)
 * per tick instead of one each, and a game whose write SQLite refuses (a constraint) is rolled back
 * to its savepoint and told so while the others' parts commit. Each game's outbox still waits for
 * its part's commit before it says anything, and sends its messages in order (server/game-outbox.ts).
 */
import { sql } from "kysely";
import type { DB } from "#db/connection.server";
import { writeGameBatch, type CommitOutcome, type GameWriteBatch } from "#app/models/game-batch.server";
import type { GameFence } from "./ownership";

/** A batch's end: stored, its game's row gone, or "fenced": this node no longer owns the game, and nothing was written. */
export type WriterOutcome = CommitOutcome | "fenced";

interface Pending {
  gameId: number;
  /** The epoch this node claimed the game at (server/ownership.ts). */
  epoch: number;
  batch: GameWriteBatch;
  resolve: (outcome: WriterOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Games' batches in one transaction at most. SQLite holds the event loop for the whole transaction;
 * when every game changes phase at the same moment, hundreds of batches would hold it for a few
 * hundred milliseconds, and the answers arriving meanwhile would wait unread (issue 18). The rest go
 * in the next turn, after the event loop has read what came meanwhile.
 */
export const MAX_GAMES_PER_TRANSACTION = 100;

export interface GameWriterOptions {
  /** Games' batches in one transaction at most (MAX_GAMES_PER_TRANSACTION). */
  maxGamesPerTransaction?: number;
  /** A shared transaction of `games` games' batches returned after `seconds` (for /metrics and tests). */
  onTransaction?: (games: number, seconds: number) => void;
  /**
   * Checks that this node still owns each game at its epoch, first thing in the transaction, in one
   * statement for all its games (docs/decisions/0052-game-ownership-and-fencing.md); absent on a
   * single node, which adds no statement.
   */
  fence?: GameFence | null;
}

export class GameWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  private running = false;

  constructor(
    private readonly db: DB,
    private readonly options: GameWriterOptions = {},
  ) {}

  /**
   * Stores one game's batch with the others due now: "stored", "game-gone" when its row no
   * longer exists, or "fenced" when another node has claimed the game since `epoch` (nothing written
   * in either case). Rejects with the database's error when its part was refused
   * (the others still commit), or when the shared transaction failed as a whole (nothing of it is
   * stored; each game tries again).
   */
  commit(gameId: number, batch: GameWriteBatch, epoch = 0): Promise<WriterOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ gameId, epoch, batch, resolve, reject });
      this.schedule();
    });
  }

  /** After the timers and I/O of this turn, so the games whose commits fall due together share one transaction. */
  private schedule(): void {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  private async run(): Promise<void> {
    const due = this.queue.splice(0, this.options.maxGamesPerTransaction ?? MAX_GAMES_PER_TRANSACTION);
    if (due.length === 0) return;
    this.running = true;
    try {
      await this.write(due);
    } finally {
      this.running = false;
      if (this.queue.length > 0) this.schedule();
    }
  }

  private async write(due: Pending[]): Promise<void> {
    const results: ({ outcome: WriterOutcome } | { error: unknown })[] = [];
    const started = performance.now();
    const fence = this.options.fence;
    try {
      await this.db.transaction().execute(async (trx) => {
        // The owner rows stay locked until this transaction ends, so no claim passes before the commit.
        const owners = fence ? await fence(trx, due) : null;
        for (const [index, { gameId, batch }] of due.entries()) {
          const owner = owners?.[index] ?? "owned";
          if (owner !== "owned") {
            results.push({ outcome: owner === "lost" ? "fenced" : "game-gone" });
            continue;
          }
          await sql`savepoint game_batch`.execute(trx);
          try {
            results.push({ outcome: await writeGameBatch(trx, gameId, batch) });
            await sql`release game_batch`.execute(trx);
          } catch (error) {
            // Only this game's part goes; if SQLite undid the whole transaction, this throws and all retry.
            await sql`rollback to game_batch`.execute(trx);
            await sql`release game_batch`.execute(trx);
            results.push({ error });
          }
        }
      });
    } catch (error) {
      for (const pending of due) pending.reject(error);
      return;
    }
    this.options.onTransaction?.(due.length, (performance.now() - started) / 1000);
    due.forEach((pending, index) => {
      const result = results[index];
      if ("outcome" in result) pending.resolve(result.outcome);
      else pending.reject(result.error);
    });
  }
}
