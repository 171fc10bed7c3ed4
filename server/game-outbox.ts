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
import type { GameWriteBatch } from "#app/models/game.server";
import { CommitClock } from "./commit-clock";
import type { Logger } from "./logger";
import { SendPacer } from "./send-pacer";

/**
 * A serialised message. A broadcast is encoded to UTF-8 once (a Buffer) rather than once per socket;
 * either way it goes out as a text frame.
 */
export type OutgoingData = string | Buffer;

/** One client's socket as the room sees it; the transport adapts `ws` to this. */
export interface Connection {
  readonly clientId: string;
  /** Sends the messages in order, several in one write where the transport can. */
  send(...messages: OutgoingData[]): void;
  close(code: number, reason: string): void;
}

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

/** A message to send once the batch before it is committed; `close` then ends the connection. */
type Delivery = {
  to: Connection;
  data: QueuedData;
  close?: { code: number; reason: string };
  /** This is the current question for that player: note when it was written to the socket. */
  questionFor?: number;
};
type DeliveryGroup = { messages: QueuedData[]; close?: Delivery["close"]; questionFor?: number };
/**
 * One connection's messages of a flush: a lone delivery as it is (the case of nearly every
 * connection: a broadcast reaches each player once), several as a group. A large game makes no
 * group object per player for a broadcast (issue 18).
 */
type ConnectionMessages = Delivery | DeliveryGroup;

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

/**
 * A connection's messages of one flush, in order, so they leave in one write: the first question
 * follows GAME_STARTED to every player, and two passes over thousands of sockets would double the
 * time until the last one has its question.
 */
function groupByConnection(outbox: Delivery[]): Map<Connection, ConnectionMessages> {
  const groups = new Map<Connection, ConnectionMessages>();
  for (const delivery of outbox) addDelivery(groups, delivery);
  return groups;
}

/** Adds a delivery after its connection's others; the first stays a lone delivery until a second comes. */
function addDelivery(groups: Map<Connection, ConnectionMessages>, delivery: Delivery): void {
  const existing = groups.get(delivery.to);
  if (!existing) {
    groups.set(delivery.to, delivery);
    return;
  }
  let group: DeliveryGroup;
  if ("messages" in existing) group = existing;
  else {
    group = { messages: [existing.data], close: existing.close, questionFor: existing.questionFor };
    groups.set(delivery.to, group);
  }
  group.messages.push(delivery.data);
  if (delivery.close) group.close = delivery.close;
  if (delivery.questionFor !== undefined) group.questionFor = delivery.questionFor;
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
  private deliveries: Delivery[] = [];
  /** Messages per type among `deliveries`, counted as sent once their commit is stored. */
  private counts = new Map<ServerMessageType, number>();
  private readonly commitClock: CommitClock;
  private readonly sendPacer: SendPacer;
  /** A flush due at once, for a change of phase; a waiting one is on `commitClock` instead. */
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  /** The batch holds a change of phase: it is committed and announced now, not at the end of the interval. */
  private phaseChanged = false;
  /** When the open question was written to each player's socket (players it reached in its broadcast). */
  private readonly questionDeliveredAt = new Map<number, number>();
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

  /** When the open question reached this player, if it did in its broadcast. */
  deliveredAt(playerId: number): number | undefined {
    return this.questionDeliveredAt.get(playerId);
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
        this.deliveries.push({ to: connection, data: encodeServerMessage(addressed.type, addressed.payload), close: addressed.close });
        this.count(addressed.type, 1);
        return;
      }
      case "eachPlayer": {
        const render = personalized(addressed.type, addressed.shared, addressed.key);
        for (const [playerId, connection] of members.players) this.deliveries.push({ to: connection, data: render(addressed.each(playerId)) });
        this.count(addressed.type, members.players.size);
        return;
      }
      default: {
        // One encoding for the whole audience, whichever roles it reaches.
        const reaches = AUDIENCES[addressed.to];
        const data = encodeServerMessage(addressed.type, addressed.payload);
        for (const group of [reaches.hosts ? members.hosts : null, reaches.displays ? members.displays : null]) {
          if (!group) continue;
          for (const connection of group) this.deliveries.push({ to: connection, data });
          this.count(addressed.type, group.size);
        }
        if (reaches.players) this.toPlayers(data, addressed.type, members, addressed.opensQuestion ?? false);
        return;
      }
    }
  }

  /** `opensQuestion`: each player's answer is timed from this message's delivery. */
  private toPlayers(data: string, type: ServerMessageType, members: Members, opensQuestion: boolean): void {
    if (opensQuestion) this.questionDeliveredAt.clear();
    const encoded = Buffer.from(data);
    for (const [playerId, connection] of members.players) {
      this.deliveries.push({ to: connection, data: encoded, questionFor: opensQuestion ? playerId : undefined });
    }
    this.count(type, members.players.size);
  }

  /** Queues messages for one connection, in order. */
  sendTo(to: Connection, ...messages: Message[]): void {
    for (const { type, payload } of messages) {
      this.deliveries.push({ to, data: encodeServerMessage(type, payload) });
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
    const outbox = await this.takeCommitted();
    if (!outbox) return;
    // `pending` holds the connections this flush has yet to write to, in order.
    const pending = groupByConnection(outbox);
    for (const to of pending.keys()) {
      if (this.sendPacer.sliceSpent) {
        // This game's or others': the answers that came meanwhile are read, then committed and told.
        await this.sendPacer.nextTurn();
        await this.flushBetweenSlices(pending);
      }
      // Read after the wait: a message added meanwhile may have made the lone delivery a group.
      const messages = pending.get(to)!;
      pending.delete(to);
      this.deliver(to, messages);
    }
  }

  /** Takes the batch and its messages, and commits the batch; null when it could not be stored. */
  private async takeCommitted(): Promise<Delivery[] | null> {
    const batch = this.batch;
    const outbox = this.deliveries;
    const counts = this.counts;
    this.batch = emptyBatch();
    this.deliveries = [];
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
    return outbox;
  }

  /**
   * Commits and delivers what happened during a slice of a large delivery. A connection still
   * waiting for that delivery gets the new messages after it, in order; the rest get them now.
   */
  private async flushBetweenSlices(pending: Map<Connection, ConnectionMessages>): Promise<void> {
    if (this.deliveries.length === 0 && isEmptyBatch(this.batch)) return;
    const outbox = await this.takeCommitted();
    if (!outbox) return;
    const now: Delivery[] = [];
    for (const delivery of outbox) {
      if (pending.has(delivery.to)) addDelivery(pending, delivery);
      else now.push(delivery);
    }
    for (const [to, messages] of groupByConnection(now)) this.deliver(to, messages);
  }

  private deliver(to: Connection, connectionMessages: ConnectionMessages): void {
    this.sendPacer.wrote();
    const { close, questionFor } = connectionMessages;
    try {
      if (!("messages" in connectionMessages)) to.send(outgoing(connectionMessages.data));
      else if (connectionMessages.messages.length === 1) to.send(outgoing(connectionMessages.messages[0]));
      else to.send(...connectionMessages.messages.map(outgoing));
      if (questionFor !== undefined) this.questionDeliveredAt.set(questionFor, this.options.now());
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
    this.deliveries = [];
    this.counts = new Map();
  }
}
