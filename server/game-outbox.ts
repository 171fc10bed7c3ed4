/**
 * A game's outbox: what its effects must write and say, held until the group commit of the writes
 * is stored, then delivered in order. A client is never told of something the database does not
 * hold, however often the commit fails first.
 */
import { AUDIENCES, type Addressed, type Effect, type GameState, type Message } from "#app/game/engine/index";
import { encodeServerMessage, type ServerMessageType } from "#app/game/protocol";
import type { GameWriteBatch } from "#app/models/game-batch.server";
import { CommitClock } from "./commit-clock";
import type { Logger } from "./logger";
import { SendPacer } from "./send-pacer";
import { SharedAcks } from "./shared-acks";
import { type OutgoingData, type Connection, nextId, type Members, outgoing, type Close, Deliveries, personalized } from "./game-delivery";
import { emptyBatch, GameWrites, isEmptyBatch, writesIn } from "./game-writes";

/**
 * How a group commit ended when it did not throw: stored; the game's row is gone (the room
 * closes); refused for good by a rule of the database (the room reloads from what is stored); or
 * fenced: another node owns the game now and nothing was written (the room stops, its clients
 * reconnect to the new owner; docs/decisions/0052-game-ownership-and-fencing.md). A thrown error
 * is one that may pass (a busy or full disk): the commit is tried again.
 */
export type CommitOutcome = "stored" | "game-gone" | "refused" | "fenced";

export interface OutboxMetrics {
  /** `count` messages of `type` were handed to their sockets. */
  sent(type: ServerMessageType, count: number): void;
  /** A group commit of `writes` rows and changes returned after `seconds`. */
  committed(writes: number, seconds: number): void;
}

export interface OutboxOptions {
  commit(batch: GameWriteBatch): Promise<CommitOutcome>;
  commitIntervalMs: number;
  /** The process's one clock for waiting commits (the hub's); by default one of the outbox's own. */
  commitClock?: CommitClock;
  /** The slice of socket writes all games share (the hub's); by default one of the outbox's own. */
  sendPacer?: SendPacer;
  now: () => number;
  logger: Logger;
  metrics?: OutboxMetrics;
  /** The commit found the game's row gone, the database refused it for good, or it was fenced; what was pending is dropped. */
  onCommitFailed: (outcome: Exclude<CommitOutcome, "stored">) => void;
}

/** Waits between attempts of a group commit that failed: the game holds its messages meanwhile. */
const COMMIT_RETRY_DELAYS_MS = [20, 50, 100, 250, 500, 1000];

const noMetrics: OutboxMetrics = { sent: () => {}, committed: () => {} };

export class GameOutbox {
  private readonly options: OutboxOptions;
  private readonly logger: Logger;
  private readonly metrics: OutboxMetrics;

  private readonly writes: GameWrites;
  private deliveries = new Deliveries();
  private readonly acks = new SharedAcks();
  /** Messages per type among `deliveries`, counted as sent once their commit is stored. */
  private counts = new Map<ServerMessageType, number>();
  private readonly commitClock: CommitClock;
  private readonly sendPacer: SendPacer;
  /** A flush due at once, for a change of phase; a waiting one is on `commitClock` instead. */
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  /** The opening of the open question (an id from `nextId`); connections keep when it reached them. */
  private question = 0;
  private stopped = false;
  /** Shutting down: a failing commit is tried only a few more times. */
  private closing = false;

  constructor(gameId: number, options: OutboxOptions) {
    this.writes = new GameWrites(gameId, options);
    this.options = options;
    this.logger = options.logger;
    this.metrics = options.metrics ?? noMetrics;
    this.commitClock = options.commitClock ?? new CommitClock(options.commitIntervalMs);
    this.sendPacer = options.sendPacer ?? new SendPacer();
  }

  /** When the open question reached this connection, if it did in its broadcast. */
  deliveredAt(connection: Connection): number | undefined {
    const { slot } = connection;
    return slot.question === this.question && this.question !== 0 ? slot.questionAt : undefined;
  }

  /** What an effect changes in the database, added to the next group commit. */
  record(state: GameState, effect: Effect): void {
    this.writes.record(state, effect);
  }

  // ------------------------------------------------------------------ messages

  /** Queues a message for its recipients, encoded once for all of them (once per player when personal). */
  send(addressed: Addressed, members: Members): void {
    switch (addressed.to) {
      case "player": {
        const connection = members.players.get(addressed.playerId);
        if (!connection) return;
        const shared = addressed.type === "ANSWER_ACCEPTED" ? this.acks.of(addressed.payload) : null;
        this.deliveries.push(connection, shared ?? encodeServerMessage(addressed.type, addressed.payload), addressed.close);
        this.count(addressed.type, 1);
        return;
      }
      case "eachPlayer": {
        const render = personalized(addressed.type, addressed.shared, addressed.key);
        for (const [playerId, connection] of members.players) this.deliveries.push(connection, render(addressed.each(playerId)));
        this.count(addressed.type, members.players.size);
        return;
      }
      default: {
        // One encoding for the whole audience, whichever roles it reaches.
        const reaches = AUDIENCES[addressed.to];
        const data = encodeServerMessage(addressed.type, addressed.payload);
        for (const group of [reaches.hosts ? members.hosts : null, reaches.displays ? members.displays : null]) {
          if (!group) continue;
          for (const connection of group) this.deliveries.push(connection, data);
          this.count(addressed.type, group.size);
        }
        if (reaches.players) this.toPlayers(data, addressed.type, members, addressed.opensQuestion ?? false);
        return;
      }
    }
  }

  /** `opensQuestion`: each player's answer is timed from this message's delivery. */
  private toPlayers(data: string, type: ServerMessageType, members: Members, opensQuestion: boolean): void {
    const encoded = Buffer.from(data);
    if (opensQuestion) {
      this.question = nextId();
      (this.deliveries.opening ??= new Map()).set(encoded, this.question);
    }
    for (const connection of members.players.values()) this.deliveries.push(connection, encoded);
    this.count(type, members.players.size);
  }

  /** Queues messages for one connection, in order. */
  sendTo(to: Connection, ...messages: Message[]): void {
    for (const { type, payload } of messages) {
      this.deliveries.push(to, encodeServerMessage(type, payload));
      this.count(type, 1);
    }
  }

  /** For messages sent at once, not after a commit (the game is gone: nothing is left to wait for). */
  countSent(type: ServerMessageType, count: number): void {
    this.metrics.sent(type, count);
  }

  private count(type: ServerMessageType, recipients: number): void {
    if (recipients > 0) this.counts.set(type, (this.counts.get(type) ?? 0) + recipients);
  }

  // ------------------------------------------------------------------ commit, then deliver

  scheduleFlush(): void {
    if (this.flushing || this.stopped || this.flushTimer) return;
    if (this.deliveries.length === 0 && isEmptyBatch(this.writes.batch)) return;
    // Answers are grouped for up to the commit interval, on the clock all games share; a new phase
    // (a question opening or closing) reaches everyone at once, since every player waits on it.
    if (this.writes.phaseChanged) {
      this.commitClock.cancel(this.startFlush);
      this.flushTimer = setTimeout(this.startFlush, 0);
      return;
    }
    this.commitClock.schedule(this.startFlush);
  }

  private readonly startFlush = (): void => {
    this.cancelTimer();
    this.flushing = this.flush().finally(() => {
      this.flushing = null;
      this.scheduleFlush();
    });
  };

  /**
   * Commits what happened since the last flush in one transaction, then delivers its messages. A
   * failed commit is tried again (new actions wait in the next batch) and nothing is delivered until
   * it holds: no one is told of an answer the database does not have.
   */
  private async flush(): Promise<void> {
    const queue = await this.takeCommitted();
    if (!queue) return;
    const flush = nextId();
    for (let index = 0; index < queue.length; index++) queue.chain(index, flush);
    // Each connection is written at its first message, with the rest of its chain. `queue` grows
    // while this runs: messages committed between slices join the chain of a connection still waiting.
    for (let index = 0; index < queue.length; index++) {
      const slot = queue.to[index].slot;
      if (slot.flush !== flush || slot.first !== index || slot.written === flush) continue;
      if (this.sendPacer.sliceSpent) {
        // This game's or others': the answers that came meanwhile are read, then committed and told.
        await this.sendPacer.nextTurn();
        await this.flushBetweenSlices(queue, flush);
        // The connection may have been grouped again by a later flush of another game it joined.
        if (slot.flush !== flush) continue;
      }
      this.deliver(queue, index, flush);
    }
  }

  /** Takes the batch and its messages, and commits the batch; null when it could not be stored. */
  private async takeCommitted(): Promise<Deliveries | null> {
    const batch = this.writes.take();
    const queue = this.deliveries;
    const counts = this.counts;
    this.deliveries = new Deliveries();
    this.counts = new Map();
    if (!isEmptyBatch(batch)) {
      const outcome = await this.commitUntilStored(batch);
      // A batch lost at shutdown takes its messages with it: its clients rejoin and see what was stored.
      if (outcome === "lost") return null;
      if (outcome !== "stored") {
        this.options.onCommitFailed(outcome);
        return null;
      }
    }
    for (const [type, count] of counts) this.metrics.sent(type, count);
    return queue;
  }

  /**
   * Commits and delivers what happened during a slice of a large delivery (flush `flush` of
   * `queue`). A connection still waiting for that delivery gets the new messages after it, in order;
   * the rest get them now.
   */
  private async flushBetweenSlices(queue: Deliveries, flush: number): Promise<void> {
    if (this.deliveries.length === 0 && isEmptyBatch(this.writes.batch)) return;
    const added = await this.takeCommitted();
    if (!added) return;
    const now = nextId();
    const from = queue.length;
    for (let index = 0; index < added.length; index++) {
      const slot = added.to[index].slot;
      const waiting = slot.flush === flush && slot.written !== flush;
      const at = queue.push(added.to[index], added.data[index], added.closes?.get(index));
      queue.chain(at, waiting ? flush : now);
    }
    if (added.opening) for (const [data, question] of added.opening) (queue.opening ??= new Map()).set(data, question);
    for (let index = from; index < queue.length; index++) {
      const slot = queue.to[index].slot;
      if (slot.flush === now && slot.first === index) this.deliver(queue, index, now);
    }
  }

  /** Writes the chain of messages of flush `flush` that begins at `first` to its connection. */
  private deliver(queue: Deliveries, first: number, flush: number): void {
    this.sendPacer.wrote();
    const to = queue.to[first];
    to.slot.written = flush;
    let close: Close | undefined;
    let question: number | undefined;
    try {
      if (queue.next[first] === -1) {
        to.send(outgoing(queue.data[first]));
      } else {
        const messages: OutgoingData[] = [];
        for (let index = first; index !== -1; index = queue.next[index]) messages.push(outgoing(queue.data[index]));
        to.send(...messages);
      }
      for (let index = first; index !== -1; index = queue.next[index]) {
        close = queue.closes?.get(index) ?? close;
        question = queue.opening?.get(queue.data[index]) ?? question;
      }
      if (question !== undefined) {
        to.slot.question = question;
        to.slot.questionAt = this.options.now();
      }
      if (close) to.close(close.code, close.reason);
    } catch (error) {
      this.logger.warn({ event: "send_failed", err: error }, "a message could not be sent");
    }
  }

  /**
   * Tries a batch until it is stored, the game's row is found gone, or the database refuses it for
   * good; gives up ("lost") only when shutting down and it still fails after a few attempts.
   */
  private async commitUntilStored(batch: GameWriteBatch): Promise<CommitOutcome | "lost"> {
    for (let attempt = 0; ; attempt++) {
      try {
        const started = performance.now();
        const outcome = await this.options.commit(batch);
        this.metrics.committed(writesIn(batch), (performance.now() - started) / 1000);
        if (attempt > 0 && outcome === "stored") this.logger.info({ event: "commit_recovered", attempts: attempt + 1 }, "group commit stored after retrying");
        return outcome;
      } catch (error) {
        if (this.closing && attempt >= 2) {
          this.logger.error({ event: "commit_lost", err: error, answers: batch.answers.length }, "group commit failed at shutdown");
          return "lost";
        }
        const delay = COMMIT_RETRY_DELAYS_MS[Math.min(attempt, COMMIT_RETRY_DELAYS_MS.length - 1)];
        this.logger.error({ event: "commit_failed", err: error, attempt: attempt + 1, retryInMs: delay }, "group commit failed; retrying");
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /** Commits and delivers everything pending now (used at shutdown and by tests). */
  async settle(): Promise<void> {
    if (this.flushing) await this.flushing;
    this.cancelTimer();
    await this.flush();
  }

  cancelTimer(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.commitClock.cancel(this.startFlush);
  }

  /** Shutting down: commits and delivers what is pending, trying a failing commit only a few more times, then takes nothing more. */
  async close(): Promise<void> {
    this.cancelTimer();
    this.closing = true;
    await this.settle();
    this.stopped = true;
  }

  /** The room ends at once: what is pending is dropped, and nothing more is taken. */
  drop(): void {
    this.cancelTimer();
    this.stopped = true;
    this.writes.batch = emptyBatch();
    this.deliveries = new Deliveries();
    this.counts = new Map();
  }
}
