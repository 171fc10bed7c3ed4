import {
  joinMessages,
  answerProgress,
  isRejection,
  lobbyUpdate,
  teamsUpdate,
  recipientsOf,
  restoreGameState,
  transition,
  type Actor,
  type Command,
  type Effect,
  type GameSettings,
  type GameState,
  type Phase,
  type PlayerState,
} from "#app/game/engine/index";
import { CloseCode, encodeServerMessage } from "#app/game/protocol";
import { ANSWER_PROGRESS_INTERVAL_MS, LOBBY_UPDATE_INTERVAL_MS } from "#app/game/rules";
import { gameKeyMatches } from "#app/models/game-keys.server";
import type { GameWriteBatch } from "#app/models/game-batch.server";
import type { LoadedGame } from "#app/models/game-play.server";
import type { Requester } from "#app/models/quiz.server";
import { GameOutbox, type CommitOutcome, type OutboxMetrics } from "./game-outbox";
import type { Connection, Members } from "./game-delivery";
import type { CommitClock } from "./commit-clock";
import type { SendPacer } from "./send-pacer";
import type { Logger } from "./logger";
import { silentLogger } from "./logger";
import { Throttle } from "./throttle";

/** docs/decisions/0006: an accepted answer waits at most this long for the commit that stores it. */
export const DEFAULT_COMMIT_INTERVAL_MS = 10;

export type { CommitOutcome } from "./game-outbox";
export type { Connection, OutgoingData } from "./game-delivery";
export { DeliverySlot } from "./game-delivery";

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

/** A host connection let in by the remote key alone (a phone), not as the host's browser. */
type Binding = { role: "host"; byRemoteKey: boolean } | { role: "display" } | { role: "player"; playerId: number };
/** One answer as SUBMIT_ANSWER carries it: one of these, as the question's kind needs. */
export type SubmittedAnswer = { answerIndex?: number; answerIndexes?: number[]; text?: string; number?: number };

const HOST_ONLY_JOIN = "Only the host of this game can join as host.";
/** A display's key is wrong, or none was sent; also sent for a key of another game. */
export const BAD_DISPLAY_KEY = "This display link is not valid. Open the display again from the host's screen.";
export const GAME_CLOSED_MESSAGE = "This game has been closed on the server. Thanks for playing!";
/** Sent to a display or remote whose key the host replaced ("New links"), just before it is closed. */
export const LINK_REPLACED_MESSAGE = "The host made new links for this game, so this one no longer works. Ask the host for the new link.";

/**
 * A live game's membership and time: who is connected as host or player, joins, drops,
 * reconnects, leaves, the grace and phase timers, and disposal. It feeds commands to the pure
 * engine, hands what they write and say to its outbox (which sends nothing before the commit of
 * what came before it), and asks the engine who receives what.
 */
export class GameRoom {
  readonly gameCode: string;
  readonly gameId: number;
  readonly state: GameState;
  private readonly store: RoomStore;
  private readonly now: () => number;
  private readonly logger: Logger;
  private readonly onClosed: (room: GameRoom) => void;
  private readonly outbox: GameOutbox;

  /** The game's capabilities (docs/decisions/0032-display-and-remote.md): watch it, or run it from another device. */
  private displayKey: string | null;
  private remoteKey: string | null;
  private readonly hosts = new Set<Connection>();
  private readonly displays = new Set<Connection>();
  private readonly playerConnections = new Map<number, Connection>();
  private readonly members: Members = { hosts: this.hosts, displays: this.displays, players: this.playerConnections };
  private readonly bindings = new Map<Connection, Binding>();
  private readonly graceTimers = new Map<number, NodeJS.Timeout>();

  private phaseTimer: NodeJS.Timeout | null = null;
  private readonly lobbyThrottle: Throttle;
  private readonly progressThrottle: Throttle;
  /** The teams changed in the lobby: the next lobby update carries them. */
  private teamsChanged = false;
  private disposed = false;

  constructor(loaded: LoadedGame, store: RoomStore, options: RoomOptions = {}) {
    this.gameCode = loaded.game.game_code;
    this.gameId = loaded.game.id;
    this.displayKey = loaded.game.display_key;
    this.remoteKey = loaded.game.remote_key;
    this.store = store;
    this.now = options.now ?? Date.now;
    this.logger = (options.logger ?? silentLogger).child({ gameCode: this.gameCode });
    this.onClosed = options.onClosed ?? (() => {});
    this.outbox = new GameOutbox(this.gameId, {
      commit: (batch) => store.commit(batch),
      commitIntervalMs: options.commitIntervalMs ?? DEFAULT_COMMIT_INTERVAL_MS,
      commitClock: options.commitClock,
      sendPacer: options.sendPacer,
      now: this.now,
      logger: this.logger,
      metrics: options.metrics,
      onCommitFailed: (outcome) => (outcome === "game-gone" ? this.closeForGood() : this.reload()),
    });
    this.state = restoreGameState(
      {
        gameCode: loaded.game.game_code,
        title: loaded.title,
        timeLimitSeconds: loaded.timeLimit,
        questions: loaded.questions,
        settings: options.settings,
        firstRoundTitle: loaded.firstRoundTitle,
        laterRounds: loaded.laterRounds,
      },
      {
        phase: loaded.game.phase as Phase,
        round: loaded.game.round,
        questionIndex: loaded.game.question_index,
        questionStartedAt: loaded.game.question_started_at,
        locked: loaded.game.locked === 1,
        picturesOnPlayers: loaded.game.pictures_on_players === 1,
        kickedClientIds: loaded.kickedClientIds,
        questionPauses: loaded.questionPauses,
        evening: loaded.evening ?? undefined,
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

  /** Players in the game, connected or not. */
  get playerCount(): number {
    return this.state.players.size;
  }

  isFinished(): boolean {
    return this.state.phase === "finished";
  }

  isInLobby(): boolean {
    return this.state.phase === "lobby";
  }

  // ------------------------------------------------------------------ lifecycle

  /**
   * A host seat: the game's host browser (its client id, and its account or host secret as the
   * socket's cookies give them: `claim`), or any device with the game's remote key (the host's
   * phone). Several host connections at once each get every host message.
   */
  async joinAsHost(connection: Connection, remoteKey?: string, claim: Omit<Requester, "clientId"> = {}): Promise<void> {
    if (this.refuseIfStopped(connection)) return;
    const byKey = remoteKey !== undefined && gameKeyMatches(this.remoteKey, remoteKey);
    // Read afresh every time: the host may have registered, or signed in or out, since the room loaded.
    const hostBrowser = await this.store.isHost({ ...claim, clientId: connection.clientId });
    if (!byKey && !hostBrowser) {
      this.sendError(connection, HOST_ONLY_JOIN, "NOT_HOST");
      return;
    }
    this.unbind(connection);
    this.hosts.add(connection);
    // The host's own browser keeps its seat when the keys change, even if it came with the key.
    this.bindings.set(connection, { role: "host", byRemoteKey: !hostBrowser });
    this.outbox.sendTo(connection, ...joinMessages(this.state, { role: "host" }, this.now()));
    this.outbox.scheduleFlush();
  }

  /**
   * A screen for the projector: with the game's display key it watches (any number of them), never
   * acts; a display that comes back gets the current screen, as a host does.
   */
  joinAsDisplay(connection: Connection, key: string): void {
    if (this.refuseIfStopped(connection)) return;
    if (!gameKeyMatches(this.displayKey, key)) {
      this.sendError(connection, BAD_DISPLAY_KEY, "BAD_KEY");
      return;
    }
    this.unbind(connection);
    this.displays.add(connection);
    this.bindings.set(connection, { role: "display" });
    this.outbox.sendTo(connection, ...joinMessages(this.state, { role: "display" }, this.now()));
    this.outbox.scheduleFlush();
  }

  /** `team`: in team mode, the team chosen on the join form. */
  joinAsPlayer(connection: Connection, nickname: string, team?: string): void {
    if (this.refuseIfStopped(connection)) return;
    const current = this.bindings.get(connection);
    if (current?.role === "player" && this.state.players.get(current.playerId)?.clientId === connection.clientId) {
      this.sendJoinReply(connection, this.state.players.get(current.playerId)!);
      this.outbox.scheduleFlush();
      return;
    }
    const result = transition(this.state, { type: "join", clientId: connection.clientId, nickname, team }, this.now());
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
    this.sendJoinReply(connection, player);
    this.outbox.scheduleFlush();
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
    const questionDeliveredAt = this.outbox.deliveredAt(connection);
    this.apply({ type: "answer", actor: this.actorOf(connection), playerId, ...answer, questionDeliveredAt }, connection);
  }

  acceptTypedAnswer(connection: Connection, questionNumber: number, text: string): void {
    this.apply({ type: "acceptTypedAnswer", actor: this.actorOf(connection), questionNumber, text }, connection);
  }

  setPicturesOnPlayers(connection: Connection, enabled: boolean): void {
    this.apply({ type: "picturesOnPlayers", actor: this.actorOf(connection), enabled }, connection);
  }

  pause(connection: Connection): void {
    this.apply({ type: "pause", actor: this.actorOf(connection) }, connection);
  }

  resume(connection: Connection): void {
    this.apply({ type: "resume", actor: this.actorOf(connection) }, connection);
  }

  /** End game: the podium now. */
  end(connection: Connection): void {
    this.apply({ type: "end", actor: this.actorOf(connection) }, connection);
  }

  setTeamMode(connection: Connection, enabled: boolean): void {
    this.apply({ type: "teamMode", actor: this.actorOf(connection), enabled }, connection);
  }

  addTeam(connection: Connection, name: string): void {
    this.apply({ type: "addTeam", actor: this.actorOf(connection), name }, connection);
  }

  removeTeam(connection: Connection, teamId: number): void {
    this.apply({ type: "removeTeam", actor: this.actorOf(connection), teamId }, connection);
  }

  /** A player's pick on the waiting screen; the player is the one this connection plays as. */
  chooseTeam(connection: Connection, team: string): void {
    const actor = this.actorOf(connection);
    this.apply({ type: "chooseTeam", actor, playerId: actor.role === "player" ? actor.playerId : 0, team }, connection);
  }

  setBreakTimer(connection: Connection, minutes: number): void {
    this.apply({ type: "breakTimer", actor: this.actorOf(connection), minutes }, connection);
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
    return binding.role === "player" ? { role: "player", playerId: binding.playerId } : { role: binding.role };
  }

  /**
   * Someone signed in or out on the browser with this client id: its sockets at the host seat (not
   * a phone's, by the remote key) are closed, and reopen with the browser's cookies as they are now,
   * which may no longer make it the host (docs/decisions/0044-shared-browsers.md).
   */
  releaseHostSeats(clientId: string): void {
    if (this.disposed) return;
    // The host seats only: a sign-in anywhere must not scan a 10,000-player room.
    const released = [...this.hosts].filter((connection) => {
      const binding = this.bindings.get(connection);
      return binding?.role === "host" && !binding.byRemoteKey && connection.clientId === clientId;
    });
    for (const connection of released) {
      this.unbind(connection);
      connection.close(CloseCode.SIGN_IN_CHANGED, "Signed in or out");
    }
    if (released.length > 0) this.logger.info({ event: "host_seats_released", closed: released.length }, "a sign-in or sign-out ended a browser's host seat");
  }

  /**
   * "New links" (docs/decisions/0032-display-and-remote.md): the keys the host just stored replace
   * these, and every display and every remote that came in with the old ones is told and closed
   * for good. The host browser's own connections stay.
   */
  replaceKeys(keys: { displayKey: string; remoteKey: string }): void {
    this.displayKey = keys.displayKey;
    this.remoteKey = keys.remoteKey;
    if (this.disposed) return;
    const revoked = [...this.bindings].filter(([, binding]) => binding.role === "display" || (binding.role === "host" && binding.byRemoteKey));
    if (revoked.length === 0) return;
    const notice = encodeServerMessage("ERROR", { message: LINK_REPLACED_MESSAGE, code: "LINK_REPLACED" });
    for (const [connection] of revoked) {
      this.unbind(connection);
      connection.send(notice);
      connection.close(CloseCode.LINK_REPLACED, "New links");
    }
    this.outbox.countSent("ERROR", revoked.length);
    this.logger.info({ event: "links_replaced", closed: revoked.length }, "the host made new display and remote links");
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
    this.outbox.scheduleFlush();
  }

  private unbind(connection: Connection): void {
    const binding = this.bindings.get(connection);
    if (!binding) return;
    this.bindings.delete(connection);
    if (binding.role === "host") {
      this.hosts.delete(connection);
      return;
    }
    if (binding.role === "display") {
      this.displays.delete(connection);
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

  // ------------------------------------------------------------------ effects -> writes, messages, membership and timers

  private handleEffects(effects: Effect[]): void {
    for (const effect of effects) this.handleEffect(effect);
  }

  private handleEffect(effect: Effect): void {
    const state = this.state;
    this.outbox.record(state, effect);
    for (const addressed of recipientsOf(state, effect, { now: this.now(), hasHosts: this.hosts.size > 0 })) this.outbox.send(addressed, this.members);
    switch (effect.type) {
      case "playerJoined": {
        if (!effect.rejoined && state.phase === "lobby") this.lobbyThrottle.request();
        return;
      }
      case "playerLeft": {
        this.cancelGrace(effect.player.id);
        this.lobbyThrottle.request();
        return;
      }
      case "playerKicked": {
        const { player } = effect;
        this.cancelGrace(player.id);
        // Its last message (queued above) closes the connection; the room forgets it now.
        const connection = this.playerConnections.get(player.id);
        if (connection) {
          this.playerConnections.delete(player.id);
          this.bindings.delete(connection);
        }
        if (state.phase === "lobby") this.lobbyThrottle.request();
        else if (this.hasScreens() && state.phase === "question") this.progressThrottle.request();
        this.logger.info({ event: "player_kicked", playerId: player.id, players: state.players.size }, "player removed by the host");
        return;
      }
      case "teamsChanged": {
        if (state.phase === "lobby") {
          this.teamsChanged = true;
          this.lobbyThrottle.request();
        }
        return;
      }
      case "roundOver": {
        this.logger.info({ event: "round_over", round: state.round + 1, rounds: state.rounds.length }, "round over: break");
        return;
      }
      case "roundStarted": {
        this.logger.info({ event: "round_started", round: state.round + 1, rounds: state.rounds.length }, "next round started");
        return;
      }
      case "lobbyLocked": {
        this.logger.info({ event: effect.locked ? "game_locked" : "game_unlocked" }, effect.locked ? "game locked" : "game unlocked");
        return;
      }
      case "gameStarted": {
        if (effect.questionCount > 0) {
          this.logger.info({ event: "game_started", players: state.players.size, questions: effect.questionCount, round: state.round }, "game started");
          this.lobbyThrottle.cancel();
          for (const playerId of this.graceTimers.keys()) this.cancelGrace(playerId);
        }
        return;
      }
      case "questionStarted":
      case "answerAccepted": {
        if (this.hasScreens()) this.progressThrottle.request();
        return;
      }
      case "questionClosed": {
        this.progressThrottle.cancel();
        return;
      }
      case "questionPaused":
      case "questionResumed": {
        this.logger.info(
          { event: effect.type === "questionPaused" ? "question_paused" : "question_resumed", question: state.questionIndex + 1 },
          effect.type === "questionPaused" ? "question paused" : "question resumed",
        );
        return;
      }
      case "typedAnswerAccepted": {
        this.logger.info({ event: "typed_answer_accepted", players: effect.changedPlayers.length }, "host accepted a typed answer");
        return;
      }
      case "gameOver": {
        this.logger.info(
          { event: "game_finished", players: state.players.size, round: state.round, ...(effect.endedEarly ? { endedEarly: true } : {}) },
          effect.endedEarly ? "game ended by the host" : "game finished",
        );
        return;
      }
    }
  }

  /** What a (re)joining player is sent: itself, the lobby, and the current phase as it stands. */
  private sendJoinReply(connection: Connection, player: PlayerState): void {
    this.outbox.sendTo(connection, ...joinMessages(this.state, { role: "player", player }, this.now()));
  }

  /** Someone sees the live answer count: a host or a display. */
  private hasScreens(): boolean {
    return this.hosts.size > 0 || this.displays.size > 0;
  }

  private sendLobbyUpdate(): void {
    const teams = this.teamsChanged ? teamsUpdate(this.state) : null;
    this.teamsChanged = false;
    if (teams) this.outbox.send(teams, this.members);
    const update = this.playerConnections.size === 0 && this.displays.size === 0 ? null : lobbyUpdate(this.state);
    if (update) this.outbox.send(update, this.members);
    if (teams || update) this.outbox.scheduleFlush();
  }

  private sendAnswerProgress(): void {
    const progress = answerProgress(this.state);
    if (progress.length === 0) return;
    for (const addressed of progress) this.outbox.send(addressed, this.members);
    this.outbox.scheduleFlush();
  }

  private sendError(to: Connection, message: string, code: string): void {
    this.outbox.sendTo(to, { type: "ERROR", payload: { message, code } });
    this.outbox.scheduleFlush();
  }

  // ------------------------------------------------------------------ ending

  /** The game's row is gone: everyone is told the game is over, and nobody reconnects to it. */
  private closeForGood(): void {
    this.logger.warn({ event: "game_gone", players: this.state.players.size }, "the game's row is gone; closing its room");
    const notice = encodeServerMessage("ERROR", { message: GAME_CLOSED_MESSAGE, code: "GAME_CLOSED" });
    for (const connection of this.bindings.keys()) connection.send(notice);
    this.outbox.countSent("ERROR", this.bindings.size);
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
    this.outbox.drop();
    this.closeConnections(closeCode, reason);
    this.onClosed(this);
  }

  private closeConnections(closeCode: number, reason: string): void {
    for (const connection of this.bindings.keys()) connection.close(closeCode, reason);
    this.bindings.clear();
    this.hosts.clear();
    this.displays.clear();
    this.playerConnections.clear();
  }

  /** Commits and delivers everything pending now (used at shutdown and by tests). */
  settle(): Promise<void> {
    return this.outbox.settle();
  }

  private cancelTimers(): void {
    if (this.phaseTimer) clearTimeout(this.phaseTimer);
    this.phaseTimer = null;
    this.outbox.cancelTimer();
    this.lobbyThrottle.cancel();
    this.progressThrottle.cancel();
    for (const timer of this.graceTimers.values()) clearTimeout(timer);
    this.graceTimers.clear();
  }

  async dispose(closeCode: number = CloseCode.SERVER_RESTARTING, reason = "Server restarting"): Promise<void> {
    if (this.disposed) return;
    this.cancelTimers();
    await this.outbox.close();
    // Its last commit may have found the game gone and stopped the room already.
    if (this.disposed) return;
    this.disposed = true;
    this.closeConnections(closeCode, reason);
  }
}
