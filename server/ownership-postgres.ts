/**
 * Game ownership on PostgreSQL (docs/decisions/0052-game-ownership-and-fencing.md): a heartbeat
 * row and a session advisory lock per node, on a connection of their own, and an owner row with an
 * epoch per game (app/models/game-owners.server.ts).
 *
 * - The heartbeat renews the node's row every `heartbeatMs` on its own connection, which also holds
 *   the node's advisory lock for as long as the session lives: a killed process loses it at once,
 *   and the others claim its games without waiting for the lease.
 * - This node stops all its rooms (self-fence) when a renewal fails, when it finds its lock's
 *   session gone or its row taken, or when `selfFenceMs` passed without a renewal
 *   (server/ownership-lease.ts says why that is before anyone else may claim them). It then takes
 *   its lock again, releases whatever still names it, and claims afresh.
 * - A node that cannot even run its timers is held by the fence in each commit instead.
 */
import { randomInt } from "node:crypto";
import type { DB } from "#db/connection.server";
import {
  claimGame,
  dropNodeLocks,
  fenceGames,
  ownedGameIds,
  registerNode,
  releaseGame,
  releaseGamesOf,
  removeNode,
  renewHeartbeat,
  takeNodeLock,
} from "#app/models/game-owners.server";
import { silentLogger, type Logger } from "./logger";
import { LeaseClock, type LeaseTimings } from "./ownership-lease";
import type { Claim, GameFence, GameOwnership } from "./ownership";

export interface PostgresOwnershipOptions {
  /** The app's database: claims, releases and (inside the writer's transaction) the fence. */
  db: DB;
  /**
   * A database handle of one connection of its own, for the heartbeat and the advisory lock, which
   * lives as long as that connection's session: never the app's pool, whose connections come and go.
   * Owned by this object (destroyed at `stop`).
   */
  heartbeatDb: DB;
  nodeId: string;
  /** Where the other nodes reach this one (host:port), read when the node registers (the port may be known only once it listens). */
  address: string | (() => string);
  timings: LeaseTimings;
  logger?: Logger;
  /** A monotonic clock in milliseconds (performance.now by default): the lease is measured on it. */
  now?: () => number;
}

/** A new lock key: positive, so it reads the same as an `int` and as pg_locks's `oid`. */
const newLockKey = () => randomInt(1, 2 ** 31 - 1);

export class PostgresOwnership implements GameOwnership {
  readonly nodeId: string;
  readonly clustered = true;
  readonly fence: GameFence;
  private readonly addressOf: () => string;
  private readonly db: DB;
  private readonly heartbeatDb: DB;
  private readonly timings: LeaseTimings;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly lease: LeaseClock;
  private readonly selfFenceListeners: ((reason: string) => void)[] = [];

  private lockKey = newLockKey();
  /** The session holding the lock; null until it is taken, and again once it is lost. */
  private lockPid: number | null = null;
  /** Whether the node may own games: set once the lock is taken, cleared by a self-fence. */
  private holding = false;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private selfFenceTimer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;
  private stopped = false;
  private suspended = false;

  constructor(options: PostgresOwnershipOptions) {
    this.db = options.db;
    this.heartbeatDb = options.heartbeatDb;
    this.nodeId = options.nodeId;
    const { address } = options;
    this.addressOf = typeof address === "string" ? () => address : address;
    this.timings = options.timings;
    this.logger = (options.logger ?? silentLogger).child({ nodeId: options.nodeId });
    this.now = options.now ?? (() => performance.now());
    this.lease = new LeaseClock(options.timings);
    this.fence = (trx, claims) => fenceGames(trx, this.nodeId, claims);
  }

  /** Takes the node's lock and writes its row; throws when the database cannot be reached. */
  async start(): Promise<void> {
    await this.establish();
    this.heartbeatTimer = setInterval(() => this.tick(), this.timings.heartbeatMs);
    this.heartbeatTimer.unref();
  }

  onSelfFence(listener: (reason: string) => void): void {
    this.selfFenceListeners.push(listener);
  }

  get address(): string {
    return this.addressOf();
  }

  /** Whether this node may own games now. */
  holdsLease(): boolean {
    return this.holding && this.lease.holds(this.now());
  }

  async claim(gameId: number): Promise<Claim> {
    // A node that may be fenced at any moment claims nothing: the others would take it straight back.
    if (!this.holdsLease()) return { owned: false, owner: null };
    const result = await claimGame(this.db, gameId, this.nodeId, this.timings.leaseMs);
    return result.claimed ? { owned: true, epoch: result.epoch } : { owned: false, owner: result.owner };
  }

  async release(gameId: number, epoch: number): Promise<void> {
    try {
      await releaseGame(this.db, gameId, this.nodeId, epoch);
    } catch (error) {
      // Not fatal: the game still names this node, which claims it again when asked for it, and gives it up when it stops or fences itself.
      this.logger.warn({ event: "game_release_failed", gameId, err: error }, "could not release a game");
    }
  }

  ownedGames(): Promise<number[]> {
    return ownedGameIds(this.db, this.timings.leaseMs);
  }

  /**
   * Stands in for a process that stopped running (SIGSTOP, a long pause): neither the heartbeat nor
   * the self-fence timer runs until `resume`. For tests; the rooms' own timers go on.
   */
  suspend(): void {
    this.suspended = true;
    this.clearSelfFenceTimer();
  }

  /** The process runs again: the lease is looked at first, as a resumed process's timers would. */
  resume(): void {
    this.suspended = false;
    this.checkLease();
    this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.clearSelfFenceTimer();
    await this.beating;
    try {
      if (this.lockPid !== null) {
        await releaseGamesOf(this.db, this.nodeId);
        await removeNode(this.heartbeatDb, this.nodeId, this.lockKey);
        await dropNodeLocks(this.heartbeatDb);
      }
    } catch (error) {
      this.logger.warn({ event: "node_stop_failed", err: error }, "could not remove this node's row; its lease will lapse");
    }
    await this.heartbeatDb.destroy();
  }

  // ------------------------------------------------------------------ heartbeat

  private tick(): void {
    if (this.stopped || this.suspended || this.beating) return;
    this.beating = this.beat().finally(() => (this.beating = null));
  }

  private async beat(): Promise<void> {
    if (this.lockPid === null) {
      try {
        await this.establish();
      } catch (error) {
        this.logger.warn({ event: "node_lock_failed", err: error }, "could not take this node's lock again; retrying");
      }
      return;
    }
    const sentAt = this.now();
    try {
      const renewed = await renewHeartbeat(this.heartbeatDb, this.nodeId, this.lockKey);
      if (this.stopped || this.suspended) return;
      if (!renewed) return this.selfFence("this node's row was removed or taken by another process with its id");
      if (renewed.pid !== this.lockPid) return this.selfFence("the session holding this node's lock ended");
      this.lease.renewed(sentAt);
      this.armSelfFence();
    } catch (error) {
      if (this.stopped || this.suspended) return;
      this.logger.error({ event: "heartbeat_failed", err: error }, "the ownership heartbeat failed");
      this.selfFence("the heartbeat failed");
    }
  }

  /**
   * Takes the node's lock (on the heartbeat's session, a new one if the last died), writes its row,
   * and releases what still names it from before: its rooms are gone, so any node may claim those.
   */
  private async establish(): Promise<void> {
    await dropNodeLocks(this.heartbeatDb);
    let lock = await takeNodeLock(this.heartbeatDb, this.lockKey);
    // Another node's session holds this key (one chance in two billion): draw another.
    for (let attempt = 0; !lock.locked && attempt < 5; attempt++) {
      this.lockKey = newLockKey();
      lock = await takeNodeLock(this.heartbeatDb, this.lockKey);
    }
    if (!lock.locked) throw new Error("could not take a node lock");
    // The row's heartbeat is stamped by this statement: the lease counts from its send.
    const sentAt = this.now();
    await registerNode(this.heartbeatDb, { nodeId: this.nodeId, address: this.address, lockKey: this.lockKey });
    const released = await releaseGamesOf(this.db, this.nodeId);
    if (this.stopped) return;
    this.lockPid = lock.pid;
    this.holding = true;
    this.lease.renewed(sentAt);
    this.armSelfFence();
    this.logger.info({ event: "node_registered", address: this.address, released }, "this node may own games");
  }

  // ------------------------------------------------------------------ self-fence

  /** A timer at the moment the lease this node holds runs out, moved on by every renewal. */
  private armSelfFence(): void {
    this.clearSelfFenceTimer();
    if (this.suspended || this.stopped) return;
    this.selfFenceTimer = setTimeout(() => this.checkLease(), this.lease.remainingMs(this.now()) + 1);
    this.selfFenceTimer.unref();
  }

  private clearSelfFenceTimer(): void {
    if (this.selfFenceTimer) clearTimeout(this.selfFenceTimer);
    this.selfFenceTimer = null;
  }

  private checkLease(): void {
    if (this.holding && !this.lease.holds(this.now())) this.selfFence("no heartbeat renewed the lease in time");
    else if (this.holding) this.armSelfFence();
  }

  /** Stops every room of this node now, and takes the lock again at the next heartbeat. */
  private selfFence(reason: string): void {
    this.lease.lose();
    this.lockPid = null;
    this.clearSelfFenceTimer();
    if (!this.holding) return;
    this.holding = false;
    this.logger.error({ event: "node_self_fenced", reason }, "this node stops all its games");
    for (const listener of this.selfFenceListeners) listener(reason);
  }
}
