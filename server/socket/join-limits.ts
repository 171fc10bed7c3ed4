import { WindowCounter } from "../window-counter";
import type { ErrorCode } from "#app/i18n/app-error";
import type { SharedAllowance } from "#app/limits/rate-limits.server";

export type { SharedAllowance };

/**
 * How many new players may come in. A classroom or an assembly joins one game from one address
 * (a school's NAT), so the per-address limits are per game and sized for a crowd; a flood from one
 * address is still held to that, and can never bring more than `playersPerIpPerGame` into a game.
 */
export interface JoinLimits {
  /** New players one address may add to one game per minute (JOIN_LIMIT_PER_IP). */
  joinsPerIpPerGamePerMinute: number;
  /** New players one address may add across all games per minute (JOIN_LIMIT_PER_IP_ALL_GAMES). */
  joinsPerIpPerMinute: number;
  /** Players one address may bring into one game in all (PLAYERS_PER_IP_PER_GAME). */
  playersPerIpPerGame: number;
  /** New players one game may take per minute, from everywhere (JOIN_LIMIT_PER_GAME). */
  joinsPerGamePerMinute: number;
}

export const DEFAULT_JOIN_LIMITS: JoinLimits = {
  joinsPerIpPerGamePerMinute: 300,
  joinsPerIpPerMinute: 1000,
  playersPerIpPerGame: 1000,
  joinsPerGamePerMinute: 20_000,
};

export const JOIN_LIMIT_MESSAGES = {
  ipGame: "Too many players joined this game from your network in the last minute. Please wait a moment and try again.",
  ip: "Too many players joined from your network in the last minute. Please wait a moment and try again.",
  game: "Too many players are joining this game right now. Please try again in a few seconds.",
  ipGameTotal: "This game has taken all the players it can from your network.",
} as const;

/** Which of the join limits refused a player. */
export type JoinLimitName = keyof typeof JOIN_LIMIT_MESSAGES;

/** The code of the ERROR a refused join is answered with: one family for the four limits. */
export const JOIN_LIMIT_CODE = "JOIN_RATE_LIMITED";

/** The `errors` catalog key of each limit's message, the ERROR's `key` (docs/decisions/0047-errors-as-codes.md). */
export const JOIN_LIMIT_KEYS = {
  ipGame: "JOIN_RATE_LIMITED_IP_GAME",
  ip: "JOIN_RATE_LIMITED_IP",
  game: "JOIN_RATE_LIMITED_GAME",
  ipGameTotal: "JOIN_LIMIT_NETWORK_TOTAL",
} as const satisfies Record<JoinLimitName, ErrorCode>;

/** How long the count of players an address brought into a game is kept: longer than any game lasts. */
const PLAYERS_PER_IP_WINDOW_SECONDS = 24 * 60 * 60;

/** The per-minute windows of the join limits. */
export const JOIN_WINDOW_SECONDS = 60;

/**
 * The largest lease a node takes of an address's shared allowance at once, as a share of the
 * limit: a node refuses early by at most what other nodes hold leased and unspent, each at most
 * this share (docs/decisions/0054-limits-across-nodes.md).
 */
export const LEASE_SHARE = 1 / 20;

interface Lease {
  /** Joins granted to this node and not spent yet. */
  left: number;
  /** How many the last lease asked for: the next asks twice as many, up to the share. */
  size: number;
  /** When the shared window ends (epoch ms); the lease ends with it. */
  until: number;
}

/**
 * One node's side of a shared per-address allowance: joins are spent from leases taken of the
 * shared count, so the shared store is asked once per lease, not once per join. A lease starts
 * at one join and doubles while the address keeps joining here, up to `maxLease`: an address
 * that joins once (a phone at home) strands nothing, and a flood asks the store a handful of times.
 * Cluster-wide, an address never gets more than the limit in a window: every join spent was
 * granted by the store first.
 */
export class LeasedAllowance {
  private readonly leases = new Map<string, Lease>();
  private readonly renewing = new Map<string, Promise<void>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly shared: SharedAllowance,
    private readonly maxLease: number,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), JOIN_WINDOW_SECONDS * 1000);
    this.sweeper.unref();
  }

  /** Spends one of `key`'s allowance: false when the cluster has none left in this window. */
  async take(key: string): Promise<boolean> {
    for (;;) {
      const lease = this.leases.get(key);
      const current = lease && lease.until > this.now() ? lease : undefined;
      if (current && current.left > 0) {
        current.left--;
        return true;
      }
      // The store said none is left (`size` 0) until the window ends: refused without asking again.
      if (current && current.size === 0) return false;
      let renewal = this.renewing.get(key);
      if (!renewal) {
        renewal = this.renew(key, current).finally(() => this.renewing.delete(key));
        this.renewing.set(key, renewal);
      }
      // Joins of one address arriving together wait for one lease, then spend it in turn.
      await renewal;
    }
  }

  private async renew(key: string, current: Lease | undefined): Promise<void> {
    const wanted = current ? Math.min(this.maxLease, current.size * 2) : 1;
    const { granted, msLeft } = await this.shared.lease(key, wanted);
    const until = this.now() + (msLeft > 0 ? msLeft : JOIN_WINDOW_SECONDS * 1000);
    this.leases.set(key, granted > 0 ? { left: granted, size: wanted, until } : { left: 0, size: 0, until });
  }

  /** Addresses holding a lease, ended or not (for tests). */
  get size(): number {
    return this.leases.size;
  }

  sweep(): void {
    const now = this.now();
    for (const [key, lease] of this.leases) if (lease.until <= now) this.leases.delete(key);
  }

  stop(): void {
    clearInterval(this.sweeper);
  }
}

/** The allowances of new players, per address, per game and per address in a game. Rejoins never count. */
export class JoinLimiter {
  private readonly limits: JoinLimits;
  private readonly joinsPerAddressPerGame = new WindowCounter(JOIN_WINDOW_SECONDS);
  private readonly joinsPerAddress = new WindowCounter(JOIN_WINDOW_SECONDS);
  private readonly joinsPerGame = new WindowCounter(JOIN_WINDOW_SECONDS);
  private readonly playersPerAddressPerGame = new WindowCounter(PLAYERS_PER_IP_WINDOW_SECONDS);
  /** In a cluster, an address's joins across games, counted with the other nodes; null on one node, where `joinsPerAddress` is exact. */
  private readonly sharedJoinsPerAddress: LeasedAllowance | null;

  /**
   * `shared`: in a cluster, where an address's joins across games are counted for every node
   * (docs/decisions/0054-limits-across-nodes.md). The per-game limits need nothing shared: every
   * socket of a game reaches the game's owner, which counts them exactly.
   */
  constructor(limits?: Partial<JoinLimits>, shared?: SharedAllowance) {
    this.limits = { ...DEFAULT_JOIN_LIMITS, ...limits };
    const acrossGames = this.limits.joinsPerIpPerMinute;
    this.sharedJoinsPerAddress = shared && Number.isFinite(acrossGames) ? new LeasedAllowance(shared, Math.max(1, Math.ceil(acrossGames * LEASE_SHARE))) : null;
  }

  /**
   * Spends one new-player join from the address's and the game's allowances; the name of the
   * one used up (its message in JOIN_LIMIT_MESSAGES), or null when the player may come in. The per-minute ones count attempts; the
   * address's total in a game counts players admitted (see `countAdmitted`). A promise only in a
   * cluster, when the address's lease of its shared allowance is spent (`LeasedAllowance`).
   */
  refusalOf(address: string, gameCode: string): JoinLimitName | null | Promise<JoinLimitName | null> {
    const limits = this.limits;
    const addressInGame = `${gameCode}|${address}`;
    if (this.playersPerAddressPerGame.count(addressInGame) >= limits.playersPerIpPerGame) return "ipGameTotal";
    if (!this.joinsPerAddressPerGame.take(addressInGame, limits.joinsPerIpPerGamePerMinute)) return "ipGame";
    if (this.sharedJoinsPerAddress) {
      return this.sharedJoinsPerAddress.take(address).then((taken) => (taken ? this.gameRefusal(gameCode) : "ip"));
    }
    if (!this.joinsPerAddress.take(address, limits.joinsPerIpPerMinute)) return "ip";
    return this.gameRefusal(gameCode);
  }

  private gameRefusal(gameCode: string): JoinLimitName | null {
    return this.joinsPerGame.take(gameCode, this.limits.joinsPerGamePerMinute) ? null : "game";
  }

  /** A new player from this address is in the game; over the cap already, the next one from there is refused before it joins. */
  countAdmitted(address: string, gameCode: string): void {
    this.playersPerAddressPerGame.add(`${gameCode}|${address}`);
  }

  stop(): void {
    for (const counter of [this.joinsPerAddressPerGame, this.joinsPerAddress, this.joinsPerGame, this.playersPerAddressPerGame]) counter.stop();
    this.sharedJoinsPerAddress?.stop();
  }
}
