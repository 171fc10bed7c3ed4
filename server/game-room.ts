import {
  MESSAGES,
  answerProgressView,
  answerToCurrentQuestion,
  restoreGameState,
  gameOverView,
  isRejection,
  leaderboardView,
  lobbyView,
  ownStanding,
  playerRef,
  playerResultView,
  questionView,
  resultsHeaderView,
  snapshotView,
  transition,
  typedAnswersView,
  type AnswerRecord,
  type Actor,
  type Command,
  type Effect,
  type GameSettings,
  type GameState,
  type Phase,
  type PlayerState,
} from "#app/game/engine/index";
import { CloseCode, encodeServerMessage, type ServerMessageType, type ServerPayload } from "#app/game/protocol";
import { ANSWER_PROGRESS_INTERVAL_MS, LOBBY_UPDATE_INTERVAL_MS } from "#app/game/rules";
import type { GameWriteBatch, LoadedGame } from "#app/models/game.server";
import type { Logger } from "./logger";
import { silentLogger } from "./logger";
import { Throttle } from "./throttle";

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

/**
 * How a group commit ended when it did not throw: stored; the game's row is gone (the room
 * closes); or refused for good by a rule of the database (the room reloads from what is stored).
 * A thrown error is one that may pass (a busy or full disk): the commit is tried again.
 */
export type CommitOutcome = "stored" | "game-gone" | "refused";

/** What a room needs from storage; server.ts binds it to the database. */
export interface RoomStore {
  commit(batch: GameWriteBatch): Promise<CommitOutcome>;
  getHostClientId(): Promise<string | null>;
}

export interface RoomOptions {
  settings?: Partial<GameSettings>;
  /** Longest time an accepted action waits for its group commit. */
  commitIntervalMs?: number;
  now?: () => number;
  logger?: Logger;
  /** The room ended itself (its game is gone, or it reloads); the hub forgets it. */
  onClosed?: (room: GameRoom) => void;
}

type Binding = { role: "host" } | { role: "player"; playerId: number };
/** One answer as SUBMIT_ANSWER carries it: one of these, as the question's kind needs. */
export type SubmittedAnswer = { answerIndex?: number; answerIndexes?: number[]; text?: string; number?: number };

/** ANSWER_ACCEPTED echoes what was stored: the option, or the picks, text or number. */
function acceptedPayload(answer: AnswerRecord): ServerPayload<"ANSWER_ACCEPTED"> {
  const questionNumber = answer.questionIndex + 1;
  return answer.answerIndex >= 0 ? { questionNumber, answerIndex: answer.answerIndex } : { questionNumber, value: answer.value };
}

function rescoreOf(round: number, answer: AnswerRecord) {
  return { playerId: answer.playerId, round, questionIndex: answer.questionIndex, correct: answer.correct, points: answer.points };
}
/** A message to send once the batch before it is committed; `close` then ends the connection. */
type Delivery = {
  to: Connection;
  data: OutgoingData;
  close?: { code: number; reason: string };
  /** This is the current question for that player: note when it was written to the socket. */
  questionFor?: number;
};
type DeliveryGroup = { messages: OutgoingData[]; close?: Delivery["close"]; questionFor?: number };

/** Waits between attempts of a group commit that failed: the game holds its messages meanwhile. */
const COMMIT_RETRY_DELAYS_MS = [20, 50, 100, 250, 500, 1000];

const HOST_ONLY_JOIN = "Only the host of this game can join as host.";
export const GAME_CLOSED_MESSAGE = "This game has been closed on the server. Thanks for playing!";

function emptyBatch(): GameWriteBatch {
  return { joined: [], kicked: [], locked: null, picturesOnPlayers: null, resetScores: false, left: [], answers: [], rescored: [], scores: [], progress: null };
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
    batch.progress === null
  );
}

/**
 * A connection's messages of one flush, in order, so they leave in one write: the first question
 * follows GAME_STARTED to every player, and two passes over thousands of sockets would double the
 * time until the last one has its question.
 */
function groupByConnection(outbox: Delivery[]): Map<Connection, DeliveryGroup> {
  const groups = new Map<Connection, DeliveryGroup>();
  for (const delivery of outbox) {
    let group = groups.get(delivery.to);
    if (!group) {
      group = { messages: [] };
      groups.set(delivery.to, group);
    }
    addToGroup(group, delivery);
  }
  return groups;
}

function addToGroup(group: DeliveryGroup, { data, close, questionFor }: Delivery): void {
  group.messages.push(data);
  if (close) group.close = close;
  if (questionFor !== undefined) group.questionFor = questionFor;
}

/**
 * Sockets written between two looks at the event loop during a large delivery (some 50 ms of work
 * on a small machine). A broadcast to 10,000 sockets takes a few hundred milliseconds; in slices,
 * the answers that arrive meanwhile are timed when they arrive and acknowledged before it ends.
 * Smaller slices cost the broadcast itself more (measured with `npm run bench`).
 */
const SEND_SLICE = 2000;

const nextTurnOfEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Builds `{type, payload: {...shared, [key]: value}}` per recipient while serialising `shared` once. */
function personalized<T extends ServerMessageType>(type: T, shared: object, key: string): (value: unknown) => string {
  const head = JSON.stringify({ type, payload: shared }).slice(0, -2);
  const prefix = `${head}${head.endsWith("{") ? "" : ","}${JSON.stringify(key)}:`;
  return (value) => `${prefix}${JSON.stringify(value)}}}`;
}

/**
 * A live game: owns its players' connections, its timers and its group commits, and feeds
 * commands to the pure engine. Every outgoing message waits for the commit of what came
 * before it, so a client is never told of something the database does not hold.
 */
export class GameRoom {
  readonly gameCode: string;
  readonly gameId: number;
  readonly state: GameState;
  private readonly store: RoomStore;
  private readonly now: () => number;
  private readonly commitIntervalMs: number;
  private readonly logger: Logger;
  private readonly onClosed: (room: GameRoom) => void;

  private hostClientId: string | null;
  private readonly hosts = new Set<Connection>();
  private readonly playerConnections = new Map<number, Connection>();
  private readonly bindings = new Map<Connection, Binding>();
  private readonly graceTimers = new Map<number, NodeJS.Timeout>();
  /** When the open question was written to each player's socket (players it reached in its broadcast). */
  private readonly questionDeliveredAt = new Map<number, number>();

  private batch = emptyBatch();
  private outbox: Delivery[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private flushTimerDelayMs = 0;
  private flushing: Promise<void> | null = null;
  /** The batch holds a change of phase: it is committed and announced now, not at the end of the interval. */
  private phaseChanged = false;
  private phaseTimer: NodeJS.Timeout | null = null;
  private readonly lobbyThrottle: Throttle;
  private readonly progressThrottle: Throttle;
  private disposed = false;
  /** Shutting down: a failing commit is tried only a few more times. */
  private closing = false;

  constructor(loaded: LoadedGame, store: RoomStore, options: RoomOptions = {}) {
    this.gameCode = loaded.game.game_code;
    this.gameId = loaded.game.id;
    this.hostClientId = loaded.game.host_client_id;
    this.store = store;
    this.now = options.now ?? Date.now;
    this.commitIntervalMs = options.commitIntervalMs ?? 10;
    this.logger = (options.logger ?? silentLogger).child({ gameCode: this.gameCode });
    this.onClosed = options.onClosed ?? (() => {});
    this.state = restoreGameState(
      {
        gameCode: loaded.game.game_code,
        title: loaded.title,
        timeLimitSeconds: loaded.timeLimit,
        questions: loaded.questions,
        settings: options.settings,
      },
      {
        phase: loaded.game.phase as Phase,
        round: loaded.game.round,
        questionIndex: loaded.game.question_index,
        questionStartedAt: loaded.game.question_started_at,
        locked: loaded.game.locked === 1,
        picturesOnPlayers: loaded.game.pictures_on_players === 1,
        kickedClientIds: loaded.kickedClientIds,
      },
      loaded.players,
      loaded.answers,
      this.now(),
    );
    this.lobbyThrottle = new Throttle(LOBBY_UPDATE_INTERVAL_MS, () => this.sendLobbyUpdate(), this.now);
    this.progressThrottle = new Throttle(ANSWER_PROGRESS_INTERVAL_MS, () => this.sendAnswerProgress(), this.now);
    // A game resumed after a restart carries on from where its stored phase left it; restored
    // lobby players get the usual grace period to reconnect.
    this.armPhaseTimer();
    if (this.state.phase === "lobby") for (const playerId of this.state.players.keys()) this.startGrace(playerId);
  }

  get connectionCount(): number {
    return this.bindings.size;
  }

  isFinished(): boolean {
    return this.state.phase === "finished";
  }

  isInLobby(): boolean {
    return this.state.phase === "lobby";
  }

  // ------------------------------------------------------------------ lifecycle

  async joinAsHost(connection: Connection): Promise<void> {
    if (this.refuseIfStopped(connection)) return;
    if (connection.clientId !== this.hostClientId) {
      // The host may have registered after this room was loaded.
      this.hostClientId = await this.store.getHostClientId();
    }
    if (connection.clientId !== this.hostClientId) {
      this.sendError(connection, HOST_ONLY_JOIN, "NOT_HOST");
      return;
    }
    this.unbind(connection);
    this.hosts.add(connection);
    this.bindings.set(connection, { role: "host" });
    this.queue(connection, "GAME_SNAPSHOT", snapshotView(this.state, { role: "host" }));
    // A host that (re)opens its screen hears of every player, as if it had been there all along.
    for (const player of this.state.players.values()) this.queue(connection, "PLAYER_JOINED", { player: playerRef(player) });
    this.queueCatchUp(connection, null);
    this.scheduleFlush();
  }

  joinAsPlayer(connection: Connection, nickname: string): void {
    if (this.refuseIfStopped(connection)) return;
    const current = this.bindings.get(connection);
    if (current?.role === "player" && this.state.players.get(current.playerId)?.clientId === connection.clientId) {
      this.queueJoinReply(connection, this.state.players.get(current.playerId)!);
      this.scheduleFlush();
      return;
    }
    const result = transition(this.state, { type: "join", clientId: connection.clientId, nickname }, this.now());
    if (isRejection(result)) {
      this.sendError(connection, result.error.message, result.error.code);
      return;
    }
    const joined = result.effects[0] as Extract<Effect, { type: "playerJoined" }>;
    const player = joined.player;
    this.unbind(connection);
    this.cancelGrace(player.id);
    const previous = this.playerConnections.get(player.id);
    if (previous && previous !== connection) {
      this.bindings.delete(previous);
      previous.close(CloseCode.REPLACED, "Opened in another tab or device");
    }
    this.playerConnections.set(player.id, connection);
    this.bindings.set(connection, { role: "player", playerId: player.id });
    this.handleEffects(result.effects);
    this.queueJoinReply(connection, player);
    this.scheduleFlush();
  }

  /** A join that reached this room after it stopped goes round again, to the game as stored. */
  private refuseIfStopped(connection: Connection): boolean {
    if (!this.disposed) return false;
    connection.close(CloseCode.SERVER_RESTARTING, "Reloading the game");
    return true;
  }

  /** The socket closed: the player keeps its place (in the lobby for a grace period). */
  drop(connection: Connection): void {
    const binding = this.bindings.get(connection);
    if (!binding) return;
    this.unbind(connection);
  }

  /** LEAVE_GAME: leaves the lobby at once; during a game the player keeps its score. */
  leave(connection: Connection): void {
    const binding = this.bindings.get(connection);
    if (!binding) return;
    this.unbind(connection);
    if (binding.role === "player") this.apply({ type: "leave", playerId: binding.playerId });
  }

  // ------------------------------------------------------------------ commands

  start(connection: Connection): void {
    this.apply({ type: "start", actor: this.actorOf(connection) }, connection);
  }

  next(connection: Connection): void {
    this.apply({ type: "next", actor: this.actorOf(connection) }, connection);
  }

  playAgain(connection: Connection): void {
    this.apply({ type: "playAgain", actor: this.actorOf(connection) }, connection);
  }

  answer(connection: Connection, playerId: number, answer: SubmittedAnswer): void {
    const questionDeliveredAt = this.questionDeliveredAt.get(playerId);
    this.apply({ type: "answer", actor: this.actorOf(connection), playerId, ...answer, questionDeliveredAt }, connection);
  }

  acceptTypedAnswer(connection: Connection, questionNumber: number, text: string): void {
    this.apply({ type: "acceptTypedAnswer", actor: this.actorOf(connection), questionNumber, text }, connection);
  }

  setPicturesOnPlayers(connection: Connection, enabled: boolean): void {
    this.apply({ type: "picturesOnPlayers", actor: this.actorOf(connection), enabled }, connection);
  }

  kick(connection: Connection, playerId: number): void {
    this.apply({ type: "kick", actor: this.actorOf(connection), playerId }, connection);
  }

  lock(connection: Connection, locked: boolean): void {
    this.apply({ type: "lock", actor: this.actorOf(connection), locked }, connection);
  }

  /** Whether this browser already has a player here (a rejoin, not a new player). */
  hasClient(clientId: string): boolean {
    return this.state.playersByClientId.has(clientId);
  }

  private actorOf(connection: Connection): Actor {
    const binding = this.bindings.get(connection);
    if (!binding) return { role: "guest" };
    return binding.role === "host" ? { role: "host" } : { role: "player", playerId: binding.playerId };
  }

  private apply(command: Command, from?: Connection): void {
    if (this.disposed) return;
    const result = transition(this.state, command, this.now());
    if (isRejection(result)) {
      if (from) this.sendError(from, result.error.message, result.error.code);
    } else {
      this.handleEffects(result.effects);
    }
    this.armPhaseTimer();
    this.scheduleFlush();
  }

  private unbind(connection: Connection): void {
    const binding = this.bindings.get(connection);
    if (!binding) return;
    this.bindings.delete(connection);
    if (binding.role === "host") {
      this.hosts.delete(connection);
      return;
    }
    if (this.playerConnections.get(binding.playerId) !== connection) return;
    this.playerConnections.delete(binding.playerId);
    this.apply({ type: "disconnect", playerId: binding.playerId });
    if (this.state.phase === "lobby" && this.state.players.has(binding.playerId)) this.startGrace(binding.playerId);
  }

  private startGrace(playerId: number): void {
    this.cancelGrace(playerId);
    const timer = setTimeout(() => {
      this.graceTimers.delete(playerId);
      if (!this.playerConnections.has(playerId)) this.apply({ type: "leave", playerId });
    }, this.state.settings.lobbyGraceMs);
    timer.unref?.();
    this.graceTimers.set(playerId, timer);
  }

  private cancelGrace(playerId: number): void {
    const timer = this.graceTimers.get(playerId);
    if (timer) clearTimeout(timer);
    this.graceTimers.delete(playerId);
  }

  private armPhaseTimer(): void {
    if (this.phaseTimer) clearTimeout(this.phaseTimer);
    this.phaseTimer = null;
    const { deadline } = this.state;
    if (deadline === null || this.disposed) return;
    this.phaseTimer = setTimeout(() => this.apply({ type: "tick" }), Math.max(0, deadline - this.now()));
  }

  // ------------------------------------------------------------------ effects -> writes and messages

  private handleEffects(effects: Effect[]): void {
    for (const effect of effects) this.handleEffect(effect);
  }

  private handleEffect(effect: Effect): void {
    const state = this.state;
    switch (effect.type) {
      case "playerJoined": {
        if (effect.rejoined) return;
        const { player } = effect;
        this.batch.joined.push({ id: player.id, nickname: player.nickname, clientId: player.clientId, joinedAt: player.joinedAt });
        const data = encodeServerMessage("PLAYER_JOINED", { player: playerRef(player) });
        for (const host of this.hosts) this.outbox.push({ to: host, data });
        if (state.phase === "lobby") this.lobbyThrottle.request();
        return;
      }
      case "playerLeft": {
        const { player } = effect;
        const pending = this.batch.joined.findIndex((joined) => joined.id === player.id);
        if (pending >= 0) this.batch.joined.splice(pending, 1);
        else this.batch.left.push(player.id);
        this.cancelGrace(player.id);
        const data = encodeServerMessage("PLAYER_LEFT", { playerId: player.id });
        for (const host of this.hosts) this.outbox.push({ to: host, data });
        this.lobbyThrottle.request();
        return;
      }
      case "playerKicked": {
        const { player } = effect;
        const pending = this.batch.joined.findIndex((joined) => joined.id === player.id);
        if (pending >= 0) this.batch.joined.splice(pending, 1);
        else this.batch.left.push(player.id);
        // Its answers go with it (the database deletes them with the player row).
        this.batch.answers = this.batch.answers.filter((answer) => answer.player_id !== player.id);
        this.batch.scores = this.batch.scores.filter((score) => score.id !== player.id);
        this.batch.kicked.push(player.clientId);
        this.cancelGrace(player.id);
        const data = encodeServerMessage("PLAYER_LEFT", { playerId: player.id });
        for (const host of this.hosts) this.outbox.push({ to: host, data });
        const connection = this.playerConnections.get(player.id);
        if (connection) {
          this.playerConnections.delete(player.id);
          this.bindings.delete(connection);
          this.outbox.push({
            to: connection,
            data: encodeServerMessage("ERROR", { message: MESSAGES.KICKED, code: "KICKED" }),
            close: { code: CloseCode.KICKED, reason: "Removed by the host" },
          });
        }
        if (state.phase === "lobby") this.lobbyThrottle.request();
        else if (this.hosts.size > 0 && state.phase === "question") this.progressThrottle.request();
        this.logger.info({ event: "player_kicked", playerId: player.id, players: state.players.size }, "player removed by the host");
        return;
      }
      case "lobbyLocked": {
        this.batch.locked = effect.locked;
        this.broadcast(encodeServerMessage("LOBBY_LOCKED", { locked: effect.locked }));
        this.logger.info({ event: effect.locked ? "game_locked" : "game_unlocked" }, effect.locked ? "game locked" : "game unlocked");
        return;
      }
      case "gameStarted": {
        this.broadcast(encodeServerMessage("GAME_STARTED", { questionCount: effect.questionCount }));
        if (effect.questionCount > 0) {
          this.logger.info({ event: "game_started", players: state.players.size, questions: effect.questionCount, round: state.round }, "game started");
        }
        if (effect.questionCount > 0) {
          this.lobbyThrottle.cancel();
          for (const playerId of this.graceTimers.keys()) this.cancelGrace(playerId);
        }
        return;
      }
      case "questionStarted": {
        this.recordProgress();
        this.questionDeliveredAt.clear();
        this.broadcast(encodeServerMessage("QUESTION_STARTED", questionView(state, this.now())), { isQuestion: true });
        if (this.hosts.size > 0) this.progressThrottle.request();
        return;
      }
      case "answerAccepted": {
        const { answer, player } = effect;
        this.batch.answers.push({
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
        const connection = this.playerConnections.get(player.id);
        if (connection) {
          this.queue(connection, "ANSWER_ACCEPTED", acceptedPayload(answer));
        }
        if (this.hosts.size > 0) this.progressThrottle.request();
        return;
      }
      case "questionClosed": {
        this.progressThrottle.cancel();
        for (const player of effect.changedPlayers) {
          this.batch.scores.push({ id: player.id, score: player.score, streak: player.streak, correctCount: player.correctCount });
        }
        for (const answer of effect.scoredAnswers) this.batch.rescored!.push(rescoreOf(state.round, answer));
        this.recordProgress();
        this.sendResults();
        return;
      }
      case "typedAnswerAccepted": {
        for (const player of effect.changedPlayers) {
          this.batch.scores.push({ id: player.id, score: player.score, streak: player.streak, correctCount: player.correctCount });
        }
        for (const answer of effect.answers) this.batch.rescored!.push(rescoreOf(state.round, answer));
        this.logger.info({ event: "typed_answer_accepted", players: effect.changedPlayers.length }, "host accepted a typed answer");
        // Everyone's standing changed: each viewer gets the current screen again with the new scores.
        if (state.phase === "results") this.sendResults();
        else if (state.phase === "leaderboard") this.sendStandings("LEADERBOARD_UPDATE", leaderboardView(state));
        else this.sendStandings("GAME_OVER", gameOverView(state));
        return;
      }
      case "picturesOnPlayersChanged": {
        this.batch.picturesOnPlayers = effect.enabled;
        this.broadcast(encodeServerMessage("PICTURES_ON_PLAYERS", { enabled: effect.enabled }));
        return;
      }
      case "leaderboardShown": {
        this.recordProgress();
        this.sendStandings("LEADERBOARD_UPDATE", leaderboardView(state));
        return;
      }
      case "gameOver": {
        this.logger.info({ event: "game_finished", players: state.players.size, round: state.round }, "game finished");
        this.recordProgress();
        this.sendStandings("GAME_OVER", gameOverView(state));
        return;
      }
      case "gameReset": {
        this.batch.resetScores = true;
        this.batch.scores = [];
        this.recordProgress();
        for (const host of this.hosts) this.queue(host, "GAME_SNAPSHOT", snapshotView(state, { role: "host" }));
        const { playerId: _, ...shared } = snapshotView(state, { role: "host" as const });
        const render = personalized("GAME_SNAPSHOT", { ...shared, role: "player", players: lobbyView(state).players }, "playerId");
        for (const [playerId, connection] of this.playerConnections) this.outbox.push({ to: connection, data: render(playerId) });
        return;
      }
    }
  }

  /** ANSWER_RESULTS: hosts get every player's result (and the typed answers); each player its own. */
  private sendResults(): void {
    const state = this.state;
    const header = resultsHeaderView(state);
    if (this.hosts.size > 0) {
      const all = encodeServerMessage("ANSWER_RESULTS", { ...this.hostResultsHeader(header), playerResults: state.ranking.map((player) => playerResultView(state, player)) });
      for (const host of this.hosts) this.outbox.push({ to: host, data: all });
    }
    const render = personalized("ANSWER_RESULTS", header, "playerResults");
    for (const [playerId, connection] of this.playerConnections) {
      this.outbox.push({ to: connection, data: render([playerResultView(state, state.players.get(playerId)!)]) });
    }
  }

  private hostResultsHeader(header: ReturnType<typeof resultsHeaderView>): ReturnType<typeof resultsHeaderView> {
    return header.kind === "typeAnswer" ? { ...header, typedAnswers: typedAnswersView(this.state) } : header;
  }

  private sendStandings(type: "LEADERBOARD_UPDATE" | "GAME_OVER", shared: object): void {
    const forHost = JSON.stringify({ type, payload: shared });
    for (const host of this.hosts) this.outbox.push({ to: host, data: forHost });
    const render = personalized(type, shared, "you");
    for (const [playerId, connection] of this.playerConnections) {
      this.outbox.push({ to: connection, data: render(ownStanding(this.state.players.get(playerId)!)) });
    }
  }

  private recordProgress(): void {
    this.phaseChanged = true;
    const state = this.state;
    const now = this.now();
    const started = state.phase === "question" && state.questionIndex === 0;
    this.batch.progress = {
      ...this.batch.progress,
      phase: state.phase,
      round: state.round,
      questionIndex: state.questionIndex,
      questionStartedAt: state.questionIndex >= 0 ? state.questionStartedAt : null,
      status: state.phase === "finished" ? "finished" : state.phase === "lobby" ? "waiting" : "active",
      ...(started ? { startedAt: now } : {}),
      ...(state.phase === "finished" ? { endedAt: now } : {}),
    };
  }

  /** What a (re)joining player is sent: itself, the lobby, and the current phase as it stands. */
  private queueJoinReply(connection: Connection, player: PlayerState): void {
    this.queue(connection, "PLAYER_JOINED", { player: playerRef(player) });
    this.queue(connection, "GAME_SNAPSHOT", snapshotView(this.state, { role: "player", player }));
    this.queueCatchUp(connection, player);
  }

  private queueCatchUp(connection: Connection, player: PlayerState | null): void {
    const state = this.state;
    switch (state.phase) {
      case "lobby":
        return;
      case "question": {
        this.queue(connection, "QUESTION_STARTED", questionView(state, this.now()));
        const answer = player && answerToCurrentQuestion(state, player);
        if (answer) this.queue(connection, "ANSWER_ACCEPTED", acceptedPayload(answer));
        if (!player) this.queue(connection, "ANSWER_PROGRESS", answerProgressView(state));
        return;
      }
      case "results": {
        const results = player ? [player] : state.ranking;
        const header = resultsHeaderView(state);
        this.queue(connection, "ANSWER_RESULTS", {
          ...(player ? header : this.hostResultsHeader(header)),
          playerResults: results.map((entry) => playerResultView(state, entry)),
          question: questionView(state, this.now()).question,
        });
        return;
      }
      case "leaderboard":
        this.queue(connection, "LEADERBOARD_UPDATE", { ...leaderboardView(state), ...(player ? { you: ownStanding(player) } : {}) });
        return;
      case "finished":
        this.queue(connection, "GAME_OVER", { ...gameOverView(state), ...(player ? { you: ownStanding(player) } : {}) });
        return;
    }
  }

  private sendLobbyUpdate(): void {
    if (this.state.phase !== "lobby" || this.playerConnections.size === 0) return;
    this.broadcastToPlayers(encodeServerMessage("LOBBY_UPDATE", lobbyView(this.state)));
    this.scheduleFlush();
  }

  private sendAnswerProgress(): void {
    if (this.state.phase !== "question") return;
    const data = encodeServerMessage("ANSWER_PROGRESS", answerProgressView(this.state));
    for (const host of this.hosts) this.outbox.push({ to: host, data });
    this.scheduleFlush();
  }

  // ------------------------------------------------------------------ delivery

  private queue<T extends ServerMessageType>(to: Connection, type: T, payload: ServerPayload<T>): void {
    this.outbox.push({ to, data: encodeServerMessage(type, payload) });
  }

  private sendError(to: Connection, message: string, code?: string): void {
    this.outbox.push({ to, data: encodeServerMessage("ERROR", { message, ...(code ? { code } : {}) }) });
    this.scheduleFlush();
  }

  private broadcast(data: string, options: { isQuestion?: boolean } = {}): void {
    for (const host of this.hosts) this.outbox.push({ to: host, data });
    this.broadcastToPlayers(data, options);
  }

  /** `isQuestion`: the message opens a question, and each player's answer is timed from its delivery. */
  private broadcastToPlayers(data: string, { isQuestion = false }: { isQuestion?: boolean } = {}): void {
    const encoded = Buffer.from(data);
    for (const [playerId, connection] of this.playerConnections) {
      this.outbox.push({ to: connection, data: encoded, questionFor: isQuestion ? playerId : undefined });
    }
  }

  private scheduleFlush(): void {
    if (this.flushing || this.disposed) return;
    if (this.outbox.length === 0 && isEmptyBatch(this.batch)) return;
    // Answers are grouped for up to the commit interval; a new phase (a question opening or closing)
    // reaches everyone at once, since every player waits on it.
    const delay = this.phaseChanged ? 0 : this.commitIntervalMs;
    if (this.flushTimer) {
      if (delay >= this.flushTimerDelayMs) return;
      clearTimeout(this.flushTimer);
    }
    this.flushTimerDelayMs = delay;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.flushing = this.flush().finally(() => {
        this.flushing = null;
        this.scheduleFlush();
      });
    }, delay);
  }

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
    let sinceLastTurn = 0;
    for (const [to, group] of pending) {
      pending.delete(to);
      this.deliver(to, group);
      if (++sinceLastTurn < SEND_SLICE || pending.size === 0) continue;
      sinceLastTurn = 0;
      await nextTurnOfEventLoop();
      await this.flushBetweenSlices(pending);
    }
  }

  /** Takes the batch and its messages, and commits the batch; null when it could not be stored. */
  private async takeCommitted(): Promise<Delivery[] | null> {
    const batch = this.batch;
    const outbox = this.outbox;
    this.batch = emptyBatch();
    this.outbox = [];
    this.phaseChanged = false;
    if (isEmptyBatch(batch)) return outbox;
    const outcome = await this.commitUntilStored(batch);
    if (outcome === "stored") return outbox;
    // A batch lost at shutdown takes its messages with it: its clients rejoin and see what was stored.
    if (outcome === "game-gone") this.closeForGood();
    else if (outcome === "refused") this.reload();
    return null;
  }

  /** The game's row is gone: everyone is told the game is over, and nobody reconnects to it. */
  private closeForGood(): void {
    this.logger.warn({ event: "game_gone", players: this.state.players.size }, "the game's row is gone; closing its room");
    const notice = encodeServerMessage("ERROR", { message: GAME_CLOSED_MESSAGE, code: "GAME_CLOSED" });
    for (const connection of this.bindings.keys()) connection.send(notice);
    this.stop(CloseCode.GAME_CLOSED, "Game closed");
  }

  /**
   * The database refused the batch for good, so this room's state is no longer what is stored.
   * Its clients reconnect as after a restart and find the game as the database has it.
   */
  private reload(): void {
    this.logger.error({ event: "game_reloaded" }, "a group commit was refused by the database; reloading the game from what is stored");
    this.stop(CloseCode.SERVER_RESTARTING, "Reloading the game");
  }

  /** Ends the room at once, dropping what is pending, and tells the hub to forget it. */
  private stop(closeCode: number, reason: string): void {
    this.cancelTimers();
    this.disposed = true;
    this.batch = emptyBatch();
    this.outbox = [];
    this.closeConnections(closeCode, reason);
    this.onClosed(this);
  }

  private closeConnections(closeCode: number, reason: string): void {
    for (const connection of this.bindings.keys()) connection.close(closeCode, reason);
    this.bindings.clear();
    this.hosts.clear();
    this.playerConnections.clear();
  }

  /**
   * Commits and delivers what happened during a slice of a large delivery. A connection still
   * waiting for that delivery gets the new messages after it, in order; the rest get them now.
   */
  private async flushBetweenSlices(pending: Map<Connection, DeliveryGroup>): Promise<void> {
    if (this.outbox.length === 0 && isEmptyBatch(this.batch)) return;
    const outbox = await this.takeCommitted();
    if (!outbox) return;
    const now: Delivery[] = [];
    for (const delivery of outbox) {
      const waiting = pending.get(delivery.to);
      if (waiting) addToGroup(waiting, delivery);
      else now.push(delivery);
    }
    for (const [to, group] of groupByConnection(now)) this.deliver(to, group);
  }

  private deliver(to: Connection, { messages, close, questionFor }: DeliveryGroup): void {
    try {
      to.send(...messages);
      if (questionFor !== undefined) this.questionDeliveredAt.set(questionFor, this.now());
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
        const outcome = await this.store.commit(batch);
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
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    await this.flush();
  }

  private cancelTimers(): void {
    if (this.phaseTimer) clearTimeout(this.phaseTimer);
    this.phaseTimer = null;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.lobbyThrottle.cancel();
    this.progressThrottle.cancel();
    for (const timer of this.graceTimers.values()) clearTimeout(timer);
    this.graceTimers.clear();
  }

  async dispose(closeCode: number = CloseCode.SERVER_RESTARTING, reason = "Server restarting"): Promise<void> {
    if (this.disposed) return;
    this.cancelTimers();
    this.closing = true;
    await this.settle();
    // Its last commit may have found the game gone and stopped the room already.
    if (this.disposed) return;
    this.disposed = true;
    this.closeConnections(closeCode, reason);
  }
}
