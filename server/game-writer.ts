/**
 * One writer for the process (issue 18, docs/decisions/0035-one-writer.md): every game's group
 * commit that falls due in the same turn of the event loop goes to the database in one transaction,
 * each kind of write in one statement for all its games (docs/decisions/0058-one-statement-per-table.md).
 * Hundreds of live games then cost one `COMMIT` (one fsync) per tick instead of one each, and a handful
 * of round trips to PostgreSQL instead of a few per game. When the database refuses that (a constraint),
 * each game's part is written again alone in a transaction of its own: the refused one is told so while
 * the others' parts commit. Each game's outbox still waits for its part's commit before it says
 * anything, and sends its messages in order (server/game-outbox.ts).
 */
import type { DB } from "#db/connection.server";
import { isPostgres } from "#db/dialect";
import { writeGameBatches, type CommitOutcome, type GameWriteBatch } from "#app/models/game-batch.server";
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

/**
 * On PostgreSQL the transaction runs in the database's process and the event loop goes on meanwhile,
 * so the limit is only what one transaction should carry; several run side by side, each on a
 * connection of the pool, so a tick's commits are not queued behind one another's round trips and
 * fsync (docs/decisions/0058-one-statement-per-table.md).
 */
export const MAX_GAMES_PER_POSTGRES_TRANSACTION = 250;
export const POSTGRES_TRANSACTIONS_IN_FLIGHT = 4;

export interface GameWriterOptions {
  /** Games' batches in one transaction at most (by default MAX_GAMES_PER_TRANSACTION, or the PostgreSQL one). */
  maxGamesPerTransaction?: number;
  /** Transactions at once: 1 on SQLite, whose one connection writes one at a time; POSTGRES_TRANSACTIONS_IN_FLIGHT on PostgreSQL. */
  transactionsInFlight?: number;
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
  private inFlight = 0;
  /** The games with a batch in a transaction now: a game's next batch waits for it, so its batches commit in order. */
  private readonly writing = new Set<number>();
  private readonly maxGamesPerTransaction: number;
  private readonly transactionsInFlight: number;

  constructor(
    private readonly db: DB,
    private readonly options: GameWriterOptions = {},
  ) {
    const postgres = isPostgres(db);
    this.maxGamesPerTransaction = options.maxGamesPerTransaction ?? (postgres ? MAX_GAMES_PER_POSTGRES_TRANSACTION : MAX_GAMES_PER_TRANSACTION);
    this.transactionsInFlight = options.transactionsInFlight ?? (postgres ? POSTGRES_TRANSACTIONS_IN_FLIGHT : 1);
  }

  /**
   * Stores one game's batch with the others due now: "stored", "game-gone" when its row no
   * longer exists, or "fenced" when another node has claimed the game since `epoch` (nothing written
   * in either case). Rejects with the database's error when its part, written again alone after the
   * shared transaction failed, failed too (nothing of it is stored; the others still commit, and the
   * game tries again).
   */
  commit(gameId: number, batch: GameWriteBatch, epoch = 0): Promise<WriterOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ gameId, epoch, batch, resolve, reject });
      this.schedule();
    });
  }

  /** After the timers and I/O of this turn, so the games whose commits fall due together share one transaction. */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.transactionsInFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.inFlight < this.transactionsInFlight && this.startTransaction());
    });
  }

  /** Starts a transaction of what is due and not already being written; false when there is none. */
  private startTransaction(): boolean {
    const due: Pending[] = [];
    const waiting: Pending[] = [];
    for (const pending of this.queue) {
      if (due.length < this.maxGamesPerTransaction && !this.writing.has(pending.gameId)) {
        due.push(pending);
        this.writing.add(pending.gameId);
      } else waiting.push(pending);
    }
    if (due.length === 0) return false;
    this.queue = waiting;
    this.inFlight++;
    void this.write(due).finally(() => {
      this.inFlight--;
      for (const pending of due) this.writing.delete(pending.gameId);
      if (this.queue.length > 0) this.schedule();
    });
    return true;
  }

  private async write(due: Pending[]): Promise<void> {
    let results: ({ outcome: WriterOutcome } | { error: unknown })[];
    try {
      results = (await this.transaction(due)).map((outcome) => ({ outcome }));
    } catch {
      // Nothing of the shared transaction is stored (a constraint in one game's part, a busy or
      // failing disk): each game's part alone, in a transaction of its own, so that only a refused
      // part fails, and a failure that passes costs each game one retry of its own.
      results = [];
      for (const pending of due) {
        try {
          results.push({ outcome: (await this.transaction([pending]))[0] });
        } catch (error) {
          results.push({ error });
        }
      }
    }
    due.forEach((pending, index) => {
      const result = results[index];
      if ("outcome" in result) pending.resolve(result.outcome);
      else pending.reject(result.error);
    });
  }

  /** One transaction of these games' batches: the fence, then each kind of write in one statement for all of them. */
  private async transaction(due: Pending[]): Promise<WriterOutcome[]> {
    const started = performance.now();
    const fence = this.options.fence;
    const outcomes = await this.db.transaction().execute(async (trx) => {
      // The owner rows stay locked until this transaction ends, so no claim passes before the commit;
      // nor can a game's row be deleted meanwhile, since that deletes its owner row too.
      const owners = fence ? await fence(trx, due) : due.map(() => "owned" as const);
      const owned = due.filter((_, index) => owners[index] === "owned");
      const written = await writeGameBatches(trx, owned, { checkGamesExist: !fence });
      return owners.map((owner) => (owner === "owned" ? written.shift()! : owner === "lost" ? "fenced" : "game-gone"));
    });
    this.options.onTransaction?.(due.length, (performance.now() - started) / 1000);
    return outcomes;
  }
}
