import type { DB } from "#db/connection.server";
import type { GameSettings } from "#app/game/engine/index";
import { isConstraintViolation } from "#db/errors";
import { runAlone } from "#db/locks.server";
import { expireUnopenedGames, expireWaitingGames, loadGameForPlay } from "#app/models/game-play.server";
import { findLiveGame } from "#app/models/game.server";
import { isGameHostById } from "#app/models/game-host.server";
import type { GameWriteBatch } from "#app/models/game-batch.server";
import { purgeExpiredGames } from "#app/models/game-purge.server";
import { purgeUnusedImages } from "#app/models/image.server";
import { purgeDeletedQuizzes } from "#app/models/quiz-delete.server";
import { ensureGameKeys } from "#app/models/game-keys.server";
import type { ClusterSignal, SignalPublisher } from "./cluster-signals";
import type { OutboxMetrics } from "./game-outbox";
import { CommitClock } from "./commit-clock";
import { SendPacer } from "./send-pacer";
import { DEFAULT_COMMIT_INTERVAL_MS, GameRoom, type CommitOutcome, type RoomOptions } from "./game-room";
import { GameWriter } from "./game-writer";
import { silentLogger, type Logger } from "./logger";
import { singleNodeOwnership, type GameOwner, type GameOwnership } from "./ownership";

export interface HubOptions {
  settings?: Partial<GameSettings>;
  commitIntervalMs?: number;
  /** How long a finished game with nobody connected stays in memory. */
  finishedRoomTtlMs?: number;
  /**
   * How long a game still in its lobby may go with nobody connected (LOBBY_IDLE_MINUTES) before it
   * is closed: its room leaves memory and its code stops working. A waiting game nobody ever
   * opened closes this long after it was created.
   */
  idleLobbyTtlMs?: number;
  /** How long a finished game's report (its players and answers) is kept after it ended (REPORT_RETENTION_DAYS). */
  reportRetentionMs?: number;
  /** How often rooms and stale games are looked over. */
  sweepIntervalMs?: number;
  now?: () => number;
  logger?: Logger;
  /** Every room's messages sent and group commits, for /metrics. */
  metrics?: OutboxMetrics;
  /** A shared transaction of `games` rooms' batches returned after `seconds`. */
  onSharedCommit?: (games: number, seconds: number) => void;
  /**
   * Who owns which game (docs/decisions/0052-game-ownership-and-fencing.md): on PostgreSQL a
   * started `PostgresOwnership`, which the hub stops at `close`; by default this node owns every game.
   */
  ownership?: GameOwnership;
  /** What ownership did, for /metrics. */
  ownershipEvents?: OwnershipEvents;
  /**
   * In a cluster: how the other nodes hear what a request on this one changed for a live room
   * (server/cluster-signals.ts); their signals come in through `receiveSignal`. None on one node.
   */
  signals?: SignalPublisher;
}

export interface OwnershipEvents {
  /** This node claimed a game as it loaded its room. */
  claimed?(): void;
  /** A room was handed over: committed, released and its sockets closed for another node to take it. */
  handedOver?(): void;
  /** A commit wrote nothing: another node had claimed the game. */
  fencedCommit?(): void;
  /** This node stopped all its rooms: its heartbeat or lock connection failed. */
  selfFenced?(): void;
}

/**
 * `getRoom`'s answer for a game this node does not run: another live node owns it (`owner`, where
 * the connection belongs), or this node may take no game now (`owner` null: it fenced itself or is
 * draining). Either way the client reconnects; the transport may forward it to `owner` instead.
 */
export class GameElsewhere {
  constructor(readonly owner: GameOwner | null) {}
}

/** How long `handOverAll` waits at most for a game to reach a safe point (issue 28: "at most 20 s"). */
export const DEFAULT_HANDOVER_DEADLINE_MS = 20_000;

const DEFAULT_IDLE_LOBBY_TTL_MS = 30 * 60_000;
const DEFAULT_FINISHED_ROOM_TTL_MS = 10 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
const DEFAULT_REPORT_RETENTION_MS = 365 * DAY_MS;

/** The live games of this process, loaded from the database on first use. */
export class GameHub {
  private readonly rooms = new Map<string, GameRoom>();
  private readonly loading = new Map<string, Promise<GameRoom | GameElsewhere | null>>();
  private readonly sweepTimer: NodeJS.Timeout;
  /** Every room's group commits of a tick in one transaction (docs/decisions/0035-one-writer.md). */
  private readonly writer: GameWriter;
  /** Every room's waiting group commits fall due on this one clock, so they reach the writer together. */
  private readonly commitClock: CommitClock;
  /** Every room's deliveries count against one slice of socket writes per turn of the event loop. */
  private readonly sendPacer = new SendPacer();
  private readonly ownership: GameOwnership;
  /** The epoch each room's game was claimed at, which its commits are fenced with. */
  private readonly epochs = new Map<GameRoom, number>();
  /** Counts this node's self-fences: a load that began before one must not open its room after it. */
  private fences = 0;
  /** Handing its games over (a drain): no game is claimed any more. */
  private leaving = false;

  constructor(
    private readonly db: DB,
    private readonly options: HubOptions = {},
  ) {
    this.ownership = options.ownership ?? singleNodeOwnership();
    this.ownership.onSelfFence(() => this.fenceAll());
    this.writer = new GameWriter(db, { onTransaction: options.onSharedCommit, fence: this.ownership.fence });
    this.commitClock = new CommitClock(options.commitIntervalMs ?? DEFAULT_COMMIT_INTERVAL_MS);
    // The timer's turn is skipped while a sweep is under way.
    this.sweepTimer = setInterval(() => void (this.sweepUnderWay ?? this.sweep()), options.sweepIntervalMs ?? 30_000);
    this.sweepTimer.unref();
  }

  /** How long a finished game's report is kept (the report page says until when). */
  get reportRetentionMs(): number {
    return this.options.reportRetentionMs ?? DEFAULT_REPORT_RETENTION_MS;
  }

  /** Whether other nodes may take this node's games (a cluster on PostgreSQL): a drain hands them over. */
  get clustered(): boolean {
    return this.ownership.clustered;
  }

  get roomCount(): number {
    return this.rooms.size;
  }

  /** Players in the live games, connected or not; read when /metrics is scraped, a step per game. */
  get playerCount(): number {
    let players = 0;
    for (const room of this.rooms.values()) players += room.playerCount;
    return players;
  }

  /**
   * The room of a game already in memory and not finished, without loading one: for what only
   * reads a game (the join form's team list), which a stranger must not be able to fill memory with.
   */
  liveRoom(gameCode: string): GameRoom | null {
    const room = this.rooms.get(gameCode);
    return room && !room.isFinished() ? room : null;
  }

  /**
   * The room of a live game, loading it (and claiming the game) if it is not in memory;
   * `GameElsewhere` when another node owns the game or this one may own none now; null when no live
   * game has this code.
   */
  async getRoom(gameCode: string): Promise<GameRoom | GameElsewhere | null> {
    const room = this.rooms.get(gameCode);
    if (room && !room.isFinished()) return room;
    if (room) {
      // A finished game's code may have been drawn again for a new game, which then takes precedence.
      const live = await findLiveGame(this.db, gameCode);
      if (!live || live.id === room.gameId) return room;
      this.forget(room);
      void this.retire(room);
    }
    if (this.leaving) return new GameElsewhere(null);
    let pending = this.loading.get(gameCode);
    if (!pending) {
      pending = this.load(gameCode).finally(() => this.loading.delete(gameCode));
      this.loading.set(gameCode, pending);
    }
    return pending;
  }

  private signInChanged: ((clientId: string) => void) | null = null;

  /** What else a sign-in or sign-out on a browser does (server.ts: the transport reopens that browser's sockets). */
  onSignInChange(listener: (clientId: string) => void): void {
    this.signInChanged = listener;
  }

  /**
   * Someone signed in or out on the browser with this client id: its sockets leave the host seats
   * they hold (`GameRoom.releaseHostSeats`), and all of them reopen, so that each carries the
   * browser's cookies as they are now (docs/decisions/0044-shared-browsers.md). In a cluster the
   * browser's sockets may be on any node: every other node is told, and does the same.
   */
  async releaseHostSeats(clientId: string): Promise<void> {
    this.releaseHostSeatsHere(clientId);
    await this.options.signals?.publish({ type: "host-seats-released", clientId });
  }

  private releaseHostSeatsHere(clientId: string): void {
    for (const room of this.rooms.values()) room.releaseHostSeats(clientId);
    this.signInChanged?.(clientId);
  }

  /**
   * The host made new links (`renewGameKeys`, already stored): the game's room, if it is in memory
   * or loading, takes the new keys and closes the displays and remotes of the old ones. A room not
   * in memory reads the new keys when it loads. In a cluster the room may be on another node, which
   * is told, and reads the keys from the database.
   */
  async replaceGameKeys(gameCode: string, gameId: number, keys: { displayKey: string; remoteKey: string }): Promise<void> {
    await this.replaceGameKeysHere(gameCode, gameId, async () => keys);
    await this.options.signals?.publish({ type: "game-keys-replaced", gameCode, gameId });
  }

  private async replaceGameKeysHere(gameCode: string, gameId: number, keysOf: () => Promise<{ displayKey: string; remoteKey: string } | null>): Promise<void> {
    const room = this.rooms.get(gameCode) ?? (await this.loading.get(gameCode)) ?? null;
    if (!(room instanceof GameRoom) || room.gameId !== gameId) return;
    const keys = await keysOf();
    if (keys) room.replaceKeys(keys);
  }

  /** What another node's request changed for a live room (server/cluster-signals.ts): this node's share of it. */
  async receiveSignal(signal: ClusterSignal): Promise<void> {
    switch (signal.type) {
      case "host-seats-released":
        this.releaseHostSeatsHere(signal.clientId);
        return;
      case "game-keys-replaced":
        // Only the owner has the room: the others look no further.
        await this.replaceGameKeysHere(signal.gameCode, signal.gameId, () => ensureGameKeys(this.db, signal.gameId));
        return;
    }
  }

  /**
   * Claims the game, then restores its room from what is stored: after the claim, so that it reads
   * everything the game's previous owner committed (a commit still running holds the claim back).
   */
  private async load(gameCode: string): Promise<GameRoom | GameElsewhere | null> {
    const fences = this.fences;
    const live = await findLiveGame(this.db, gameCode);
    if (!live) return null;
    const claim = await this.ownership.claim(live.id);
    if (!claim.owned) return new GameElsewhere(claim.owner);
    const { epoch } = claim;
    const loaded = await loadGameForPlay(this.db, gameCode);
    if (!loaded || loaded.game.id !== live.id || fences !== this.fences || this.leaving) {
      // The game ended or its code went to another game meanwhile, or this node fenced itself or began to leave.
      await this.ownership.release(live.id, epoch);
      return loaded && loaded.game.id === live.id ? new GameElsewhere(null) : null;
    }
    this.options.ownershipEvents?.claimed?.();
    const gameId = loaded.game.id;
    const roomOptions: RoomOptions = {
      settings: this.options.settings,
      commitIntervalMs: this.options.commitIntervalMs,
      commitClock: this.commitClock,
      sendPacer: this.sendPacer,
      now: this.options.now,
      logger: this.options.logger,
      metrics: this.options.metrics,
      onClosed: (closed) => this.forget(closed),
    };
    const room = new GameRoom(
      loaded,
      {
        commit: (batch) => this.commit(gameId, epoch, gameCode, batch),
        isHost: (requester) => isGameHostById(this.db, gameId, requester),
      },
      roomOptions,
    );
    this.rooms.set(gameCode, room);
    this.epochs.set(room, epoch);
    const resumed = room.state.phase !== "lobby" || room.state.players.size > 0;
    (this.options.logger ?? silentLogger).info(
      { event: resumed ? "game_resumed" : "game_opened", gameCode, phase: room.state.phase, players: room.state.players.size, epoch },
      resumed ? "game resumed from the database" : "game opened",
    );
    return room;
  }

  /**
   * A batch the database refuses for good is told apart from one that may pass if tried again. A
   * vanished game row is found by the commit itself, inside its transaction, so a refusal here is
   * never that.
   */
  private async commit(gameId: number, epoch: number, gameCode: string, batch: GameWriteBatch): Promise<CommitOutcome> {
    try {
      const outcome = await this.writer.commit(gameId, batch, epoch);
      if (outcome === "fenced") this.options.ownershipEvents?.fencedCommit?.();
      return outcome;
    } catch (error) {
      if (!isConstraintViolation(error)) throw error;
      (this.options.logger ?? silentLogger).error({ event: "commit_refused", gameCode, gameId, err: error }, "the database refused a group commit");
      return "refused";
    }
  }

  /** Since when each room has had nobody connected. */
  private readonly idleSince = new Map<GameRoom, number>();
  private sweepUnderWay: Promise<void> | null = null;

  /**
   * Forgets finished games nobody is watching any more (their results stay in the database),
   * closes lobbies nobody has been in for the idle time and waiting games nobody ever opened, and
   * removes deleted quizzes whose games are all over and finished games past the report retention.
   * Asked for while one is under way, it waits for that one and sweeps again: the one under way may
   * have looked before what the caller did (on PostgreSQL a sweep's queries take long enough to be
   * caught mid-way by the timer's next turn).
   */
  async sweep(): Promise<void> {
    while (this.sweepUnderWay) await this.sweepUnderWay;
    this.sweepUnderWay = this.sweepOnce().finally(() => {
      this.sweepUnderWay = null;
    });
    return this.sweepUnderWay;
  }

  private async sweepOnce(): Promise<void> {
    try {
      const now = (this.options.now ?? Date.now)();
      const finishedTtl = this.options.finishedRoomTtlMs ?? DEFAULT_FINISHED_ROOM_TTL_MS;
      const lobbyTtl = this.options.idleLobbyTtlMs ?? DEFAULT_IDLE_LOBBY_TTL_MS;
      const idleLobbies: GameRoom[] = [];
      for (const room of this.rooms.values()) {
        if (room.connectionCount > 0) {
          this.idleSince.delete(room);
          continue;
        }
        const since = this.idleSince.get(room) ?? now;
        this.idleSince.set(room, since);
        const idleFor = now - since;
        const done = room.isFinished() ? idleFor >= finishedTtl : room.isInLobby() && idleFor >= lobbyTtl;
        if (!done) continue;
        if (!room.isFinished()) idleLobbies.push(room);
        this.forget(room);
        void this.retire(room);
      }
      const logger = this.options.logger ?? silentLogger;
      await expireWaitingGames(
        this.db,
        idleLobbies.map((room) => room.gameId),
        now,
      );
      for (const room of idleLobbies) {
        logger.info({ event: "game_expired", gameCode: room.gameCode, idleMinutes: Math.round(lobbyTtl / 60_000) }, "idle lobby closed");
      }
      // The rest is the whole database's, not this hub's rooms': one server at a time does it, the
      // others skip it this turn (db/locks.server.ts).
      await runAlone(this.db, "hub-sweep", async () => {
        const open = new Set([...this.rooms.values()].map((room) => room.gameId));
        // In a cluster a waiting game another node runs is open too (docs/decisions/0052-game-ownership-and-fencing.md).
        for (const gameId of await this.ownership.ownedGames()) open.add(gameId);
        const stale = await expireUnopenedGames(this.db, now - lobbyTtl, open, now);
        if (stale > 0) logger.info({ event: "games_expired", games: stale }, "waiting games nobody opened were closed");
        // Before the deleted quizzes: a quiz whose last report goes now goes in the same sweep.
        const retentionMs = this.reportRetentionMs;
        const reports = await purgeExpiredGames(this.db, now - retentionMs);
        if (reports > 0) {
          logger.info(
            { event: "reports_purged", games: reports, retentionDays: Math.round(retentionMs / DAY_MS) },
            "finished games past the report retention were removed",
          );
        }
        const purged = await purgeDeletedQuizzes(this.db);
        if (purged > 0) logger.info({ event: "quizzes_purged", quizzes: purged }, "deleted quizzes whose last game went were removed");
        const pictures = await purgeUnusedImages(this.db, now);
        if (pictures > 0) logger.info({ event: "images_purged", images: pictures }, "pictures no quiz uses any more were removed");
      });
    } catch (error) {
      (this.options.logger ?? silentLogger).error({ event: "sweep_failed", err: error }, "the sweep of idle games failed");
    }
  }

  /** The room leaves memory (its game's ownership is released by `retire`, or was lost). */
  private forget(room: GameRoom): void {
    if (this.rooms.get(room.gameCode) === room) this.rooms.delete(room.gameCode);
    this.idleSince.delete(room);
  }

  /**
   * Commits the room's pending writes, gives its game up for any node to claim, and closes its
   * sockets; false when the room had stopped already (its game gone, fenced), so nothing was given up.
   */
  private async retire(room: GameRoom, closeCode?: number, reason?: string): Promise<boolean> {
    const epoch = this.epochs.get(room);
    this.epochs.delete(room);
    let released = false;
    await room.dispose(closeCode, reason, async () => {
      if (epoch !== undefined) await this.ownership.release(room.gameId, epoch);
      released = true;
    });
    return released;
  }

  /**
   * This node fenced itself (server/ownership.ts): every room stops at once, storing and saying
   * nothing more, and its clients reconnect to whichever node claims the game next.
   */
  private fenceAll(): void {
    this.fences++;
    const rooms = [...this.rooms.values()];
    this.rooms.clear();
    this.idleSince.clear();
    for (const room of rooms) {
      this.epochs.delete(room);
      room.fence();
    }
    this.options.ownershipEvents?.selfFenced?.();
    (this.options.logger ?? silentLogger).error({ event: "games_fenced", games: rooms.length }, "this node stopped all its games");
  }

  /**
   * A drain (SIGTERM): every game is handed over at its next safe point (`GameRoom.atSafePoint`: not
   * in an open question, which runs to its close) or after `deadlineMs` at the latest: its pending
   * writes committed, its ownership released so another node claims it at once, its sockets closed
   * with the "server restarting" code, on which clients reconnect (docs/decisions/0052). From now on
   * this node claims no game.
   */
  async handOverAll(deadlineMs = DEFAULT_HANDOVER_DEADLINE_MS): Promise<void> {
    this.leaving = true;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, deadlineMs)));
    try {
      await Promise.all(
        [...this.rooms.values()].map(async (room) => {
          await Promise.race([room.atSafePoint(), deadline]);
          this.forget(room);
          if (await this.retire(room)) this.options.ownershipEvents?.handedOver?.();
        }),
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /** Commits every game's pending writes, releases them, closes every socket with `closeCode`, and stops the ownership. */
  async close(closeCode?: number, reason?: string): Promise<void> {
    clearInterval(this.sweepTimer);
    this.leaving = true;
    const rooms = [...this.rooms.values()];
    this.rooms.clear();
    await Promise.all(rooms.map((room) => this.retire(room, closeCode, reason)));
    await this.ownership.stop();
  }
}
