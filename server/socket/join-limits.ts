import { WindowCounter } from "../window-counter";
import type { ErrorCode } from "#app/i18n/app-error";

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

/** The allowances of new players, per address, per game and per address in a game. Rejoins never count. */
export class JoinLimiter {
  private readonly limits: JoinLimits;
  private readonly joinsPerAddressPerGame = new WindowCounter(60);
  private readonly joinsPerAddress = new WindowCounter(60);
  private readonly joinsPerGame = new WindowCounter(60);
  private readonly playersPerAddressPerGame = new WindowCounter(PLAYERS_PER_IP_WINDOW_SECONDS);

  constructor(limits?: Partial<JoinLimits>) {
    this.limits = { ...DEFAULT_JOIN_LIMITS, ...limits };
  }

  /**
   * Spends one new-player join from the address's and the game's allowances; the name of the
   * one used up (its message in JOIN_LIMIT_MESSAGES), or null when the player may come in. The per-minute ones count attempts; the
   * address's total in a game counts players admitted (see `countAdmitted`).
   */
  refusalOf(address: string, gameCode: string): JoinLimitName | null {
    const limits = this.limits;
    const addressInGame = `${gameCode}|${address}`;
    if (this.playersPerAddressPerGame.count(addressInGame) >= limits.playersPerIpPerGame) return "ipGameTotal";
    for (const [counter, key, limit, name] of [
      [this.joinsPerAddressPerGame, addressInGame, limits.joinsPerIpPerGamePerMinute, "ipGame"],
      [this.joinsPerAddress, address, limits.joinsPerIpPerMinute, "ip"],
      [this.joinsPerGame, gameCode, limits.joinsPerGamePerMinute, "game"],
    ] as const) {
      if (!counter.take(key, limit)) return name;
    }
    return null;
  }

  /** A new player from this address is in the game; over the cap already, the next one from there is refused before it joins. */
  countAdmitted(address: string, gameCode: string): void {
    this.playersPerAddressPerGame.add(`${gameCode}|${address}`);
  }

  stop(): void {
    for (const counter of [this.joinsPerAddressPerGame, this.joinsPerAddress, this.joinsPerGame, this.playersPerAddressPerGame]) counter.stop();
  }
}
