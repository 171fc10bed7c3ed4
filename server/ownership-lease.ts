/**
 * A node's lease on the games it owns, as this node sees it (docs/decisions/0052-game-ownership-and-fencing.md).
 * Pure: no timers, no database; server/ownership-postgres.ts drives it.
 *
 * Other nodes take this node's games once its heartbeat in the database is older than `leaseMs`
 * (measured on the database's clock from the moment the heartbeat statement ran). This node stops
 * all its rooms (self-fence) once `selfFenceMs` has passed since the last heartbeat that succeeded
 * was *sent* (measured on its own monotonic clock). A heartbeat runs after it is sent, so the
 * database's stamp is never earlier than the send; with `selfFenceMs < leaseMs` a node that can
 * still run its timers has stopped its rooms before anyone may claim them, with `leaseMs -
 * selfFenceMs` to spare for a late timer. A node that cannot run its timers (stopped, swapped out)
 * is held by the epoch fence instead: its next commit writes nothing.
 */

export interface LeaseTimings {
  /** How often the node renews its heartbeat row. */
  heartbeatMs: number;
  /** How old another node's heartbeat must be before its games may be claimed. */
  leaseMs: number;
  /** How long after the last successful renewal's send this node stops all its rooms. */
  selfFenceMs: number;
}

export const DEFAULT_HEARTBEAT_MS = 1000;
export const DEFAULT_LEASE_MS = 3000;

/**
 * The timings for a heartbeat and a lease: the node fences itself one heartbeat before the lease
 * ends, which leaves it two heartbeats to renew (one may be slow) and one heartbeat's margin for a
 * late timer. Throws when the lease is shorter than three heartbeats, where that would not hold.
 */
export function leaseTimings(heartbeatMs = DEFAULT_HEARTBEAT_MS, leaseMs = DEFAULT_LEASE_MS): LeaseTimings {
  if (!Number.isFinite(heartbeatMs) || heartbeatMs <= 0)
    throw new Error(`The heartbeat interval must be a positive number of milliseconds, not ${heartbeatMs}.`);
  if (!Number.isFinite(leaseMs) || leaseMs < 3 * heartbeatMs) {
    throw new Error(`The ownership lease (${leaseMs} ms) must be at least three heartbeats (${3 * heartbeatMs} ms).`);
  }
  return { heartbeatMs, leaseMs, selfFenceMs: leaseMs - heartbeatMs };
}

/**
 * This node's own view of its lease: when the last renewal that succeeded was sent, and whether
 * the node must stop its rooms now. A renewal counts from its send, never from its answer: the
 * database may have stamped it any time in between.
 */
export class LeaseClock {
  /** When the last successful renewal was sent; null before the first and after a loss. */
  private renewedFrom: number | null = null;

  constructor(private readonly timings: LeaseTimings) {}

  /** A renewal sent at `sentAt` succeeded (an older one answering late never moves the lease back). */
  renewed(sentAt: number): void {
    if (this.renewedFrom === null || sentAt > this.renewedFrom) this.renewedFrom = sentAt;
  }

  /** The lease is gone for certain (the lock's session ended, the node's row was taken): nothing counts until the next renewal. */
  lose(): void {
    this.renewedFrom = null;
  }

  /** Whether this node may own games at `now`: a renewal sent less than `selfFenceMs` ago succeeded. */
  holds(now: number): boolean {
    return this.renewedFrom !== null && now - this.renewedFrom < this.timings.selfFenceMs;
  }

  /** How long from `now` the node may still own games (0 when it may not). */
  remainingMs(now: number): number {
    return this.renewedFrom === null ? 0 : Math.max(0, this.renewedFrom + this.timings.selfFenceMs - now);
  }
}

/**
 * Whether another node's games may be claimed, from what the database says of it (the claim's SQL
 * asks the same in one statement: app/models/game-owners.server.ts). `heartbeatAt` and `now` are
 * the database's clock; `lockHeld` whether its session's advisory lock is still held. A node with
 * no row (never registered, or removed at its stop) is dead.
 */
export function ownerIsDead(owner: { heartbeatAt: number; lockHeld: boolean } | null, now: number, leaseMs: number): boolean {
  if (!owner) return true;
  return !owner.lockHeld || owner.heartbeatAt < now - leaseMs;
}
