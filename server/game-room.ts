import { joinMessages, isRejection, recipientsOf, transition, type Command, type Effect, type GameState, type PlayerState } from "#app/game/engine/index";
import { CloseCode, encodeServerMessage } from "#app/game/protocol";
import type { ErrorCode } from "#app/i18n/app-error";
import { roomRouteOf, type RoomMessage } from "#app/game/protocol-routes";
import type { LoadedGame } from "#app/models/game-play.server";
import type { Requester } from "#app/models/quiz.server";
import { GameOutbox } from "./game-outbox";
import type { Connection, Members } from "./game-delivery";
import type { Logger } from "./logger";
import { silentLogger } from "./logger";
import { logEffect } from "./room/effect-log";
import { LiveUpdates } from "./room/live-updates";
import { RoomMembership } from "./room/membership";
import { DEFAULT_COMMIT_INTERVAL_MS, type RoomOptions, type RoomStore } from "./room/options";
import { restoredState } from "./room/restored-state";
import { RoomTimers } from "./room/timers";

export { DEFAULT_COMMIT_INTERVAL_MS, type RoomOptions, type RoomStore } from "./room/options";
export type { CommitOutcome } from "./game-outbox";
export type { Connection, OutgoingData } from "./game-delivery";
export { DeliverySlot } from "./game-delivery";

/** One answer as SUBMIT_ANSWER carries it: one of these, as the question's kind needs. */
export type SubmittedAnswer = { answerIndex?: number; answerIndexes?: number[]; text?: string; number?: number };

const HOST_ONLY_JOIN = "Only the host of this game can join as host.";
/** A display's key is wrong, or none was sent; also sent for a key of another game. */
export const BAD_DISPLAY_KEY = "This display link is not valid. Open the display again from the host's screen.";
export const GAME_CLOSED_MESSAGE = "This game has been closed on the server. Thanks for playing!";
/** Sent to a display or remote whose key the host replaced ("New links"), just before it is closed. */
export const LINK_REPLACED_MESSAGE = "The host made new links for this game, so this one no longer works. Ask the host for the new link.";

/**
 * A live game's lifecycle: joins, drops, reconnects, leaves and disposal, and every message from a
 * connection in it through one entry point (`handle`). Who is seated is its membership's
 * (room/membership.ts), its timers are room/timers.ts's, its running lobby and answer-count
 * updates room/live-updates.ts's. It feeds commands to the pure engine, hands what they write and
 * say to its outbox (which sends nothing before the commit of what came before it), and asks the
 * engine who receives what.
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

  private readonly membership: RoomMembership;
  private readonly members: Members;
  private readonly timers: RoomTimers;
  private readonly updates: LiveUpdates;
  private disposed = false;
  /** Waiting for the game to leave its open question (`atSafePoint`); empty but for a node handing its games over. */
  private safePointWaiters: (() => void)[] = [];

  constructor(loaded: LoadedGame, store: RoomStore, options: RoomOptions = {}) {
    this.gameCode = loaded.game.game_code;
    this.gameId = loaded.game.id;
    this.membership = new RoomMembership(loaded.game.display_key, loaded.game.remote_key);
    this.members = this.membership.members;
    this.timers = new RoomTimers(
      (playerId) => {
        if (!this.membership.players.has(playerId)) this.apply({ type: "leave", playerId });
      },
      () => this.apply({ type: "tick" }),
    );
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
      onCommitFailed: (outcome) => (outcome === "game-gone" ? this.closeForGood() : outcome === "fenced" ? this.moved() : this.reload()),
    });
    this.state = restoredState(loaded, options.settings, this.now());
    this.updates = new LiveUpdates(this.state, this.outbox, this.membership, this.now);
    // A game resumed after a restart carries on from where its stored phase left it; restored
    // lobby players get the usual grace period to reconnect.
    this.armPhaseTimer();
    if (this.state.phase === "lobby") for (const playerId of this.state.players.keys()) this.startGrace(playerId);
  }

  get connectionCount(): number {
    return this.membership.size;
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
    const byKey = this.membership.remoteKeyMatches(remoteKey);
    // Read afresh every time: the host may have registered, or signed in or out, since the room loaded.
    const hostBrowser = await this.store.isHost({ ...claim, clientId: connection.clientId });
    if (!byKey && !hostBrowser) {
      this.sendError(connection, { message: HOST_ONLY_JOIN, code: "NOT_HOST", key: "NICKNAME_RESERVED" });
      return;
    }
    this.unbind(connection);
    // The host's own browser keeps its seat when the keys change, even if it came with the key.
    this.membership.seatHost(connection, !hostBrowser);
    this.outbox.sendTo(connection, ...joinMessages(this.state, { role: "host" }, this.now()));
    this.outbox.scheduleFlush();
  }

  /**
   * A screen for the projector: with the game's display key it watches (any number of them), never
   * acts; a display that comes back gets the current screen, as a host does.
   */
  joinAsDisplay(connection: Connection, key: string): void {
    if (this.refuseIfStopped(connection)) return;
    if (!this.membership.displayKeyMatches(key)) {
      this.sendError(connection, { message: BAD_DISPLAY_KEY, code: "BAD_KEY", key: "BAD_DISPLAY_KEY" });
      return;
    }
    this.unbind(connection);
    this.membership.seatDisplay(connection);
    this.outbox.sendTo(connection, ...joinMessages(this.state, { role: "display" }, this.now()));
    this.outbox.scheduleFlush();
  }

  /** `team`: in team mode, the team chosen on the join form. */
  joinAsPlayer(connection: Connection, nickname: string, team?: string): void {
    if (this.refuseIfStopped(connection)) return;
    const currentId = this.membership.playerIdOf(connection);
    const current = currentId === undefined ? undefined : this.state.players.get(currentId);
    if (current?.clientId === connection.clientId) {
      this.sendJoinReply(connection, current);
      this.outbox.scheduleFlush();
      return;
    }
    const result = transition(this.state, { type: "join", clientId: connection.clientId, nickname, team }, this.now());
    if (isRejection(result)) {
      this.sendError(connection, result.error);
      return;
    }
    const joined = result.effects[0] as Extract<Effect, { type: "playerJoined" }>;
    const player = joined.player;
    this.unbind(connection);
    this.timers.cancelGrace(player.id);
    const replaced = this.membership.seatPlayer(connection, player.id);
    replaced?.close(CloseCode.REPLACED, "Opened in another tab or device");
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
    this.unbind(connection);
  }

  /** LEAVE_GAME: leaves the lobby at once; during a game the player keeps its score. */
  leave(connection: Connection): void {
    const playerId = this.membership.playerIdOf(connection);
    if (!this.unbind(connection)) return;
    if (playerId !== undefined) this.apply({ type: "leave", playerId });
  }

  // ------------------------------------------------------------------ messages

  /**
   * Every message from a connection in this room, routed by its type through the protocol's table
   * (app/game/protocol-routes.ts, docs/decisions/0046-messages-routed-once.md): a leave, or one
   * engine command from the connection's actor. False when the connection is no longer in the room.
   */
  handle(connection: Connection, message: RoomMessage): boolean {
    const route = roomRouteOf(message.type);
    if (route.by === "leave") {
      this.leave(connection);
      return false;
    }
    const questionDeliveredAt = route.timed ? this.outbox.deliveredAt(connection) : undefined;
    this.apply(route.command(message.payload as never, this.membership.actorOf(connection), questionDeliveredAt), connection);
    return true;
  }

  /** The host's or a player's message as the socket would send it, for callers in the process (tests, benchmarks): the same route. */
  start(connection: Connection): void {
    this.handle(connection, { type: "START_GAME", payload: { gameCode: this.gameCode } });
  }

  answer(connection: Connection, playerId: number, answer: SubmittedAnswer): void {
    this.handle(connection, { type: "SUBMIT_ANSWER", payload: { gameCode: this.gameCode, playerId, ...answer } });
  }

  pause(connection: Connection): void {
    this.handle(connection, { type: "PAUSE_QUESTION", payload: { gameCode: this.gameCode } });
  }

  resume(connection: Connection): void {
    this.handle(connection, { type: "RESUME_QUESTION", payload: { gameCode: this.gameCode } });
  }

  kick(connection: Connection, playerId: number): void {
    this.handle(connection, { type: "KICK_PLAYER", payload: { gameCode: this.gameCode, playerId } });
  }

  /** Whether this browser already has a player here (a rejoin, not a new player). */
  hasClient(clientId: string): boolean {
    return this.state.playersByClientId.has(clientId);
  }

  /**
   * Someone signed in or out on the browser with this client id: its sockets at the host seat (not
   * a phone's, by the remote key) are closed, and reopen with the browser's cookies as they are now,
   * which may no longer make it the host (docs/decisions/0044-shared-browsers.md).
   */
  releaseHostSeats(clientId: string): void {
    if (this.disposed) return;
    // The host seats only: a sign-in anywhere must not scan a 10,000-player room.
    const released = this.membership.browserHostSeatsOf(clientId);
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
    const revoked = this.membership.replaceKeys(keys);
    if (this.disposed) return;
    if (revoked.length === 0) return;
    const notice = encodeServerMessage("ERROR", { message: LINK_REPLACED_MESSAGE, code: "LINK_REPLACED", key: "LINK_REPLACED" });
    for (const connection of revoked) {
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
      if (from) this.sendError(from, result.error);
    } else {
      this.handleEffects(result.effects);
    }
    this.armPhaseTimer();
    this.outbox.scheduleFlush();
    if (this.safePointWaiters.length > 0 && this.state.phase !== "question") this.reachSafePoint();
  }

  /**
   * Resolves once the game is anywhere but in an open question (the lobby, a question's results,
   * the leaderboard, a break, the end), or stopped: where it can move to another node costing its
   * players no more than a reconnect (docs/decisions/0052-game-ownership-and-fencing.md). A question
   * in progress is left to run to its close.
   */
  atSafePoint(): Promise<void> {
    if (this.disposed || this.state.phase !== "question") return Promise.resolve();
    return new Promise((resolve) => this.safePointWaiters.push(resolve));
  }

  private reachSafePoint(): void {
    const waiters = this.safePointWaiters;
    this.safePointWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** The connection leaves its seat (a player's current one disconnects it); false when it had none. */
  private unbind(connection: Connection): boolean {
    const { seated, disconnected } = this.membership.unseat(connection);
    if (disconnected === undefined) return seated;
    this.apply({ type: "disconnect", playerId: disconnected });
    if (this.state.phase === "lobby" && this.state.players.has(disconnected)) this.startGrace(disconnected);
    return seated;
  }

  private startGrace(playerId: number): void {
    this.timers.startGrace(playerId, this.state.settings.lobbyGraceMs);
  }

  private armPhaseTimer(): void {
    this.timers.armPhase(this.disposed ? null : this.state.deadline, this.now());
  }

  // ------------------------------------------------------------------ effects -> writes, messages, membership and timers

  private handleEffects(effects: Effect[]): void {
    for (const effect of effects) this.handleEffect(effect);
  }

  private handleEffect(effect: Effect): void {
    const state = this.state;
    this.outbox.record(state, effect);
    for (const addressed of recipientsOf(state, effect, { now: this.now(), hasHosts: this.membership.hosts.size > 0 }))
      this.outbox.send(addressed, this.members);
    logEffect(this.logger, state, effect);
    switch (effect.type) {
      case "playerLeft": {
        this.timers.cancelGrace(effect.player.id);
        break;
      }
      case "playerKicked": {
        this.timers.cancelGrace(effect.player.id);
        // Its last message (queued above) closes the connection; the room forgets it now.
        this.membership.forgetPlayer(effect.player.id);
        break;
      }
      case "gameStarted": {
        if (effect.questionCount > 0) this.timers.cancelAllGrace();
        break;
      }
    }
    this.updates.follow(effect);
  }

  /** What a (re)joining player is sent: itself, the lobby, and the current phase as it stands. */
  private sendJoinReply(connection: Connection, player: PlayerState): void {
    this.outbox.sendTo(connection, ...joinMessages(this.state, { role: "player", player }, this.now()));
  }

  /** An ERROR: its English, its family code and its `errors` catalog key (docs/decisions/0047-errors-as-codes.md). */
  private sendError(to: Connection, error: { message: string; code: string; key: ErrorCode }): void {
    this.outbox.sendTo(to, { type: "ERROR", payload: { message: error.message, code: error.code, key: error.key } });
    this.outbox.scheduleFlush();
  }

  // ------------------------------------------------------------------ ending

  /** The game's row is gone: everyone is told the game is over, and nobody reconnects to it. */
  private closeForGood(): void {
    this.logger.warn({ event: "game_gone", players: this.state.players.size }, "the game's row is gone; closing its room");
    const notice = encodeServerMessage("ERROR", { message: GAME_CLOSED_MESSAGE, code: "GAME_CLOSED", key: "GAME_CLOSED" });
    for (const connection of this.membership.connections()) connection.send(notice);
    this.outbox.countSent("ERROR", this.membership.size);
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

  /**
   * Another node claimed the game since this one did: this commit wrote nothing, and nothing more
   * of this room may be stored or said. Its clients reconnect and reach the game at its new owner,
   * as the database has it (docs/decisions/0052-game-ownership-and-fencing.md).
   */
  private moved(): void {
    this.logger.warn({ event: "game_fenced", players: this.state.players.size }, "another node owns this game now; its commit was fenced");
    this.stop(CloseCode.SERVER_RESTARTING, "The game moved to another server");
  }

  /**
   * This node fenced itself (its heartbeat or lock connection failed): the room ends at once,
   * storing nothing more, and its clients reconnect to whichever node owns the game next.
   */
  fence(): void {
    if (this.disposed) return;
    this.stop(CloseCode.SERVER_RESTARTING, "The game moved to another server");
  }

  /** Ends the room at once, dropping what is pending, and tells the hub to forget it. */
  private stop(closeCode: number, reason: string): void {
    this.cancelTimers();
    this.disposed = true;
    this.reachSafePoint();
    this.outbox.drop();
    this.closeConnections(closeCode, reason);
    this.onClosed(this);
  }

  private closeConnections(closeCode: number, reason: string): void {
    for (const connection of this.membership.connections()) connection.close(closeCode, reason);
    this.membership.clear();
  }

  /** Commits and delivers everything pending now (used at shutdown and by tests). */
  settle(): Promise<void> {
    return this.outbox.settle();
  }

  private cancelTimers(): void {
    this.timers.cancel();
    this.outbox.cancelTimer();
    this.updates.cancel();
  }

  /**
   * Commits what is pending, then closes every connection with `closeCode`. `afterCommit` runs
   * between the two (the hub releases the game's ownership there, so the clients that reconnect find
   * it free to claim); not when the last commit stopped the room instead (the game gone, or fenced).
   */
  async dispose(closeCode: number = CloseCode.SERVER_RESTARTING, reason = "Server restarting", afterCommit?: () => Promise<void>): Promise<void> {
    if (this.disposed) return;
    this.cancelTimers();
    await this.outbox.close();
    // Its last commit may have found the game gone and stopped the room already.
    if (this.disposed) return;
    this.disposed = true;
    this.reachSafePoint();
    await afterCommit?.();
    this.closeConnections(closeCode, reason);
  }
}
