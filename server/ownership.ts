/**
 * Who may run a game's room and commit its batches (issue 28, docs/decisions/0052-game-ownership-and-fencing.md).
 * The hub claims a game before it restores its room, hands its epoch to every commit, and releases
 * it when the room leaves memory; the writer fences each batch with it. On SQLite (one process, the
 * default) this node owns every game and nothing is asked of the database: `singleNodeOwnership`,
 * whose `fence` is null so the writer adds no statement. On PostgreSQL, server/ownership-postgres.ts.
 */
import os from "node:os";
import { randomBytes } from "node:crypto";
import type { DB } from "#db/connection.server";
import type { GameOwner } from "#app/models/game-owners.server";

export type { GameOwner } from "#app/models/game-owners.server";

/** A claim: this node owns the game at `epoch`; or another node does (`owner`), or none may be claimed by this node now (null). */
export type Claim = { owned: true; epoch: number } | { owned: false; owner: GameOwner | null };

/**
 * First in the transaction of some games' batches, before their writes: for each game, whether this
 * node still owns it at its epoch ("owned", and no claim can pass until the transaction ends), lost
 * it, or the game's row is gone. One statement for all of them.
 */
export type GameFence = (trx: DB, claims: readonly { gameId: number; epoch: number }[]) => Promise<("owned" | "lost" | "game-gone")[]>;

export interface GameOwnership {
  readonly nodeId: string;
  /** Whether other nodes may run games too (PostgreSQL): a drain then hands games over rather than serving them to the end. */
  readonly clustered: boolean;
  /** Where the other nodes reach this one (host:port); null on a single node. */
  readonly address: string | null;
  /** The writer's check of each batch; null when there is nothing to check (a single node). */
  readonly fence: GameFence | null;
  /** Claims a game for this node (bumping its epoch), before its room is restored. */
  claim(gameId: number): Promise<Claim>;
  /** Gives a game up so that any node may claim it at once (its room committed and left memory). */
  release(gameId: number, epoch: number): Promise<void>;
  /** The games any node owns now; none on a single node, whose own rooms the hub knows. */
  ownedGames(): Promise<number[]>;
  /** Called when this node must stop all its rooms at once (its heartbeat or lock connection failed). */
  onSelfFence(listener: (reason: string) => void): void;
  start(): Promise<void>;
  /** Stops the heartbeat and gives up every game and the node's row. */
  stop(): Promise<void>;
}

/** SQLite, or any single process: every game is this node's, at epoch 0, and nothing is fenced. */
export function singleNodeOwnership(nodeId = "single"): GameOwnership {
  const owned: Claim = { owned: true, epoch: 0 };
  return {
    nodeId,
    clustered: false,
    address: null,
    fence: null,
    claim: () => Promise.resolve(owned),
    release: () => Promise.resolve(),
    ownedGames: () => Promise.resolve([]),
    onSelfFence: () => {},
    start: () => Promise.resolve(),
    stop: () => Promise.resolve(),
  };
}

/** NODE_ID when set; otherwise unique to this process: host name, process id and a random part. */
export function nodeIdOf(configured: string | undefined): string {
  return configured || `${os.hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;
}

/** NODE_ADDRESS when set; otherwise this machine's host name and the port the server listens on. */
export function nodeAddressOf(configured: string | undefined, port: number): string {
  return configured || `${os.hostname()}:${port}`;
}
