/**
 * A game's outbox: what its effects must write and say, held until the group commit of the writes
 * is stored, then delivered in order. A client is never told of something the database does not
 * hold, however often the commit fails first.
 */
import {
  AUDIENCES,
  eveningToStored,
  isNight,
  pausesToStored,
  type Addressed,
  type AnswerRecord,
  type Effect,
  type GameState,
  type Message,
} from "#app/game/engine/index";
import { encodeServerMessage, type ServerMessageType } from "#app/game/protocol";
import type { GameWriteBatch } from "#app/models/game-batch.server";
import { CommitClock } from "./commit-clock";
import type { Logger } from "./logger";
import { SendPacer } from "./send-pacer";
import { SharedAcks } from "./shared-acks";

/**
 * A serialised message. A broadcast is encoded to UTF-8 once (a Buffer) rather than once per socket;
 * either way it goes out as a text frame.
 */
export type OutgoingData = string | Buffer;

/** One client's socket as the room sees it; the transport adapts `ws` to this. */
export interface Connection {
  readonly clientId: string;
  /** Where this connection stands in the deliveries of the game it is in (the outbox's alone). */
  readonly slot: DeliverySlot;
  /** Sends the messages in order, several in one write where the transport can. */
  send(...messages: OutgoingData[]): void;
  close(code: number, reason: string): void;
}

/**
 * A connection's place in its game's deliveries, kept on the connection so that a flush groups its
 * messages by connection, and knows when the open question reached a player, without a map: a map
 * of thousands of connections per broadcast, grown and emptied again, was a large part of what a
 * big game left for the garbage collector (issue 18, docs/decisions/0037-no-object-per-message.md).
 */
export class DeliverySlot {
  /** The flush that last grouped messages for this connection; ids come from one count for the process. */
  flush = 0;
  /** That flush's first and last message to this connection, by index; `next` chains the ones between. */
  first = -1;
  last = -1;
  /** The flush whose messages have been written to this connection. */
  written = 0;
  /** Which opening of a question last reached this connection, and when it was written. */
  question = 0;
  questionAt = 0;
}

/** Ids of flushes and of question openings, unique across the process's games. */
let lastId = 0;
const nextId = (): number => ++lastId;

/** The connections the roles of `Addressed` stand for, as the room keeps them. */
export interface Members {
  readonly hosts: ReadonlySet<Connection>;
  /** Screens that watch the game (docs/decisions/0032-display-and-remote.md). */
  readonly displays: ReadonlySet<Connection>;
  readonly players: ReadonlyMap<number, Connection>;
}

/**
 * How a group commit ended when it did not throw: stored; the game's row is gone (the room
 * closes); or refused for good by a rule of the database (the room reloads from what is stored).
 * A thrown error is one that may pass (a busy or full disk): the commit is tried again.
 */
export type CommitOutcome = "stored" | "game-gone" | "refused";

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
  /** The commit found the game's row gone, or the database refused it for good; what was pending is dropped. */
  onCommitFailed: (outcome: "game-gone" | "refused") => void;
}

/**
 * A player's own copy of a message that is shared but for one field: the shared part serialised once
 * for all players (`head`), this player's field (`own`). The two are joined only when the message is
 * written to the player's socket, so a large game never holds thousands of full copies at once
 * while they wait for their commit and their slice of the delivery (issue 18: they outlived the
 * young generation and piled up as garbage in the old one).
 */
class PersonalMessage {
  constructor(
    private readonly head: string,
    private readonly own: string,
  ) {}

  text(): string {
    return `${this.head}${this.own}}}`;
  }
}

type QueuedData = OutgoingData | PersonalMessage;
const outgoing = (data: QueuedData): OutgoingData => (data instanceof PersonalMessage ? data.text() : data);

type Close = { code: number; reason: string };

/**
 * Messages waiting for their commit, in order, as columns rather than an object per message: a
 * broadcast to thousands of players, and each player's acknowledgement, wait through a commit and
 * the slices of a delivery, long enough to outlive the young generation (issue 18).
 */
class Deliveries {
  readonly to: Connection[] = [];
  readonly data: QueuedData[] = [];
  /** The index of the same connection's next message in the same flush, or -1 (see `chain`). */
  readonly next: number[] = [];
  /** Messages after which the connection is closed (a removed player): rare, so by index. */
  closes: Map<number, Close> | null = null;
  /** Messages that open a question, with that opening's id: each player's answer is timed from their write. */
  opening: Map<QueuedData, number> | null = null;

  get length(): number {
    return this.to.length;
  }

  push(to: Connection, data: QueuedData, close?: Close): number {
    const index = this.to.length;
    this.to.push(to);
    this.data.push(data);
    this.next.push(-1);
    if (close) (this.closes ??= new Map()).set(index, close);
    return index;
  }

  /**
   * Links message `index` after its connection's earlier ones of flush `flush`, or makes it the
   * connection's first. A connection's messages of one flush leave in one write: the first question
   * follows GAME_STARTED to every player, and two passes over thousands of sockets would double the
   * time until the last one has its question.
   */
  chain(index: number, flush: number): void {
    const slot = this.to[index].slot;
    if (slot.flush !== flush) {
      slot.flush = flush;
      slot.first = slot.last = index;
      return;
    }
    this.next[slot.last] = index;
    slot.last = index;
  }
}

/** Waits between attempts of a group commit that failed: the game holds its messages meanwhile. */
const COMMIT_RETRY_DELAYS_MS = [20, 50, 100, 250, 500, 1000];

const noMetrics: OutboxMetrics = { sent: () => {}, committed: () => {} };

function emptyBatch(): GameWriteBatch {
  return {
    joined: [],
    kicked: [],
    locked: null,
    picturesOnPlayers: null,
    resetScores: false,
    left: [],
    answers: [],
    rescored: [],
    scores: [],
    progress: null,
    teamAssignments: [],
    evening: null,
  };
}

function isEmptyBatch(batch: GameWriteBatch): boolean {
  return (
    batch.joined.length === 0 &&
    batch.kicked.length === 0 &&
    batch.locked === null &&
    batch.picturesOnPlayers == null &&
    !batch.rescored?.length &&
    !batch.resetScores &&
    batch.left.length === 0 &&
    batch.answers.length === 0 &&
    batch.scores.length === 0 &&
    batch.progress === null &&
    !batch.teamAssignments?.length &&
    !batch.evening
  );
}

/** Rows and changes in a batch, as the commit histogram counts them. */
function writesIn(batch: GameWriteBatch): number {
  return (
    batch.joined.length +
    batch.kicked.length +
    batch.left.length +
    batch.answers.length +
    batch.scores.length +
    (batch.rescored?.length ?? 0) +
    (batch.locked === null ? 0 : 1) +
    (batch.picturesOnPlayers == null ? 0 : 1) +
    (batch.resetScores ? 1 : 0) +
    (batch.progress === null ? 0 : 1) +
    (batch.teamAssignments?.length ?? 0) +
    (batch.evening ? 1 : 0)
  );
}

function rescoreOf(round: number, answer: AnswerRecord) {
  return { playerId: answer.playerId, round, questionIndex: answer.questionIndex, correct: answer.correct, points: answer.points };
}

/** Builds `{type, payload: {...shared, [key]: value}}` per recipient while serialising `shared` once. */
function personalized(type: ServerMessageType, shared: object, key: string): (value: unknown) => PersonalMessage {
  const head = JSON.stringify({ type, payload: shared }).slice(0, -2);
  const prefix = `${head}${head.endsWith("{") ? "" : ","}${JSON.stringify(key)}:`;
  return (value) => new PersonalMessage(prefix, JSON.stringify(value));
}

export class GameOutbox {
  private readonly gameId: number;
  private readonly options: OutboxOptions;
  private readonly logger: Logger;
  private readonly metrics: OutboxMetrics;

  private batch = emptyBatch();
  private deliveries = new Deliveries();
  private readonly acks = new SharedAcks();
  /** Messages per type among `deliveries`, counted as sent once their commit is stored. */
  private counts = new Map<ServerMessageType, number>();
  private readonly commitClock: CommitClock;
  private readonly sendPacer: SendPacer;
  /** A flush due at once, for a change of phase; a waiting one is on `commitClock` instead. */
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  /** The batch holds a change of phase: it is committed and announced now, not at the end of the interval. */
  private phaseChanged = false;
  /** The opening of the open question (an id from `nextId`); connections keep when it reached them. */
  private question = 0;
  private stopped = false;
  /** Shutting down: a failing commit is tried only a few more times. */
  private closing = false;

  constructor(gameId: number, options: OutboxOptions) {
    this.gameId = gameId;
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

  // ------------------------------------------------------------------ writes

  /** What an effect changes in the database, added to the next group commit. */
  record(state: GameState, effect: Effect): void {
    const batch = this.batch;
    switch (effect.type) {
      case "playerJoined": {
        if (effect.rejoined) return;
        const { player } = effect;
        batch.joined.push({ id: player.id, nickname: player.nickname, clientId: player.clientId, joinedAt: player.joinedAt });
        return;
      }
      case "playerLeft":
      case "playerKicked": {
        const { player } = effect;
        // A player who joins and goes within one batch is never written.
        const pending = batch.joined.findIndex((joined) => joined.id === player.id);
        if (pending >= 0) batch.joined.splice(pending, 1);
        else batch.left.push(player.id);
        if (effect.type === "playerLeft") return;
        // Its answers go with it (the database deletes them with the player row).
        batch.answers = batch.answers.filter((answer) => answer.player_id !== player.id);
        batch.scores = batch.scores.filter((score) => score.id !== player.id);
        batch.kicked.push(player.clientId);
        return;
      }
      case "teamsChanged":
        for (const player of effect.players) batch.teamAssignments!.push({ id: player.id, teamId: player.teamId });
        batch.evening = eveningToStored(state);
        return;
      case "breakTimerSet":
        batch.evening = eveningToStored(state);
        this.phaseChanged = true;
        return;
      case "roundOver":
      case "roundStarted":
        this.recordProgress(state);
        return;
      case "lobbyLocked":
        batch.locked = effect.locked;
        return;
      case "picturesOnPlayersChanged":
        batch.picturesOnPlayers = effect.enabled;
        return;
      case "gameStarted":
        return;
      case "answerAccepted": {
        const { answer } = effect;
        batch.answers.push({
          game_id: this.gameId,
          player_id: answer.playerId,
          round: state.round,
          question_id: answer.questionId,
          question_index: answer.questionIndex,
          answer_index: answer.answerIndex,
          answer_value: answer.value === null ? null : JSON.stringify(answer.value),
          response_ms: answer.responseTimeMs,
          correct: answer.correct ? 1 : 0,
          points: answer.points,
          answered_at: answer.answeredAt,
        });
        return;
      }
      case "questionClosed":
      case "typedAnswerAccepted": {
        for (const player of effect.changedPlayers) {
          batch.scores.push({ id: player.id, score: player.score, streak: player.streak, correctCount: player.correctCount, teamPoints: player.teamPoints });
        }
        const rescored = effect.type === "questionClosed" ? effect.scoredAnswers : effect.answers;
        for (const answer of rescored) batch.rescored!.push(rescoreOf(state.round, answer));
        if (effect.type === "questionClosed") this.recordProgress(state);
        else if (state.teamMode) batch.evening = eveningToStored(state);
        return;
      }
      case "gameReset":
        batch.resetScores = true;
        batch.scores = [];
        this.recordProgress(state);
        return;
      case "questionStarted":
        this.recordProgress(state, { opensGame: state.questionIndex === 0 });
        return;
      // A pause too is stored before anyone is told, so a restart finds the question as its players last saw it.
      case "leaderboardShown":
      case "gameOver":
      case "questionPaused":
      case "questionResumed":
        this.recordProgress(state);
        return;
    }
  }

  private recordProgress(state: GameState, { opensGame = false } = {}): void {
    this.phaseChanged = true;
    // Team scores and a night's rounds change with the phases; they are a few kilobytes at most.
    if (state.teamMode || isNight(state)) this.batch.evening = eveningToStored(state);
    const now = this.options.now();
    const started = opensGame && state.phase === "question";
    this.batch.progress = {
      ...this.batch.progress,
      phase: state.phase,
      round: state.round,
      questionIndex: state.questionIndex,
      questionStartedAt: state.questionIndex >= 0 ? state.questionStartedAt : null,
      questionPauses: state.phase === "question" ? pausesToStored(state.questionPauses) : [],
      status: state.phase === "finished" ? "finished" : state.phase === "lobby" ? "waiting" : "active",
      ...(started ? { startedAt: now } : {}),
      ...(state.phase === "finished" ? { endedAt: now } : {}),
    };
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
    if (this.deliveries.length === 0 && isEmptyBatch(this.batch)) return;
    // Answers are grouped for up to the commit interval, on the clock all games share; a new phase
    // (a question opening or closing) reaches everyone at once, since every player waits on it.
    if (this.phaseChanged) {
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
    const batch = this.batch;
    const queue = this.deliveries;
    const counts = this.counts;
    this.batch = emptyBatch();
    this.deliveries = new Deliveries();
    this.counts = new Map();
    this.phaseChanged = false;
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
    if (this.deliveries.length === 0 && isEmptyBatch(this.batch)) return;
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
    this.batch = emptyBatch();
    this.deliveries = new Deliveries();
    this.counts = new Map();
  }
}
