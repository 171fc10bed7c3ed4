/**
 * Forwarding a game's socket to its owner (issue 28, docs/decisions/0056-forwarding-and-signals.md).
 *
 * A balancer hashes a socket on the game its URL names, so most reach the game's owner; a
 * round-robin balancer, a node joining or leaving, or a stale hash sends some elsewhere. The node
 * that gets such a socket finds the game's live owner (one indexed lookup) and passes the upgrade
 * on to it as bytes: the request's head again, with the proof and the player's address added
 * (server/socket/forward-auth.ts), then each side's bytes to the other until either closes. The
 * owner answers the handshake and runs the socket as its own; this node only carries it (one hop:
 * a forwarded upgrade is never forwarded again).
 *
 * When the owner cannot be reached, this node keeps the socket itself: its JOIN then claims the
 * game if the owner is dead (a claim checks its lock), and is closed with 4000 ("reconnect") if the
 * owner still lives, as any socket of a game another node owns is.
 */
import net from "node:net";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { GameOwner } from "../ownership";
import { silentLogger, type Logger } from "../logger";
import { checkForwarded, FORWARD_HEADER_PREFIX, forwardHeaders, type ForwardCheck } from "./forward-auth";

export interface ForwardingOptions {
  /** This node's id: a forwarded upgrade is signed for the owner's, and checked here against this one. */
  nodeId: string;
  /** The key every node of the cluster shares (`forwardingKeyOf(SESSION_SECRET)`). */
  key: Buffer;
  /** The game's owner when a live node owns it (app/models/game-owners.server.ts: `liveOwnerOfCode`). */
  liveOwnerOf(gameCode: string): Promise<GameOwner | undefined>;
  /** The owners of these games that live nodes own, by code, in one lookup (`liveOwnersOfCodes`). */
  liveOwnersOf(gameCodes: string[]): Promise<Map<string, GameOwner>>;
  logger?: Logger;
  metrics?: { socketForwarded(): void };
  /** How long the owner may take to accept the connection before this node keeps the socket. */
  connectTimeoutMs?: number;
  /** How long the owner may take to answer the handshake before both sides are closed (the client retries). */
  answerTimeoutMs?: number;
  /** How often the games of carried sockets are looked up: a pair whose game has lost that owner is closed. */
  ownerCheckMs?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 1000;
/**
 * A live owner answers an upgrade within milliseconds; one that has not answered in a second is hung
 * (SIGSTOP, a stalled loop), and every second waited here is a second its players wait before they
 * retry and reach a node that takes the game over once its lease lapses (issue 28: a hung owner
 * replaced within 10 s; the lease is NODE_LEASE_MS, 3 s).
 */
export const DEFAULT_ANSWER_TIMEOUT_MS = 1000;
/**
 * A carried socket's owner may hang (SIGSTOP) after the handshake: nothing on the connection says so,
 * and its players would wait on it. Once another node has claimed the game (its lease lapsed, and a
 * socket that came back through the balancer reached that node), the lookup says so within this,
 * and both sides are closed: the client reconnects and is carried to the new owner (issue 28: a
 * hung owner replaced within 10 s). No live owner at all is not enough: a finished game has none,
 * and its podium stays on the sockets it has.
 */
export const DEFAULT_OWNER_CHECK_MS = 1000;
/** How long one side may take to take in the last bytes after the other closed. */
const LINGER_MS = 10_000;

/** Where a node listens, host:port or [IPv6]:port, as the nodes table keeps it. */
export function hostAndPortOf(address: string): { host: string; port: number } | null {
  try {
    const url = new URL(`tcp://${address}`);
    const port = Number(url.port);
    if (!url.hostname || !Number.isInteger(port) || port <= 0) return null;
    return { host: url.hostname.replace(/^\[(.*)\]$/, "$1"), port };
  } catch {
    return null;
  }
}

/** The upgrade's head as it came, less any forwarding header of ours, plus `added`. */
export function forwardedHead(request: IncomingMessage, added: Record<string, string>): string {
  const lines = [`${request.method ?? "GET"} ${request.url ?? "/"} HTTP/${request.httpVersion}`];
  const raw = request.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    if (raw[index].toLowerCase().startsWith(FORWARD_HEADER_PREFIX)) continue;
    lines.push(`${raw[index]}: ${raw[index + 1]}`);
  }
  for (const [name, value] of Object.entries(added)) lines.push(`${name}: ${value}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}

interface CarriedPair {
  client: Duplex;
  owner: net.Socket;
  gameCode: string;
  ownerNodeId: string;
}

export class SocketForwarder {
  private readonly logger: Logger;
  /** Lookups under way, by game: a burst of one game's sockets (a reconnecting room) asks the database once. */
  private readonly lookups = new Map<string, Promise<GameOwner | undefined>>();
  /** The connections carried to an owner, each pair closed together at `close`. */
  private readonly carried = new Set<CarriedPair>();
  private ownerCheck: NodeJS.Timeout | null = null;

  constructor(private readonly options: ForwardingOptions) {
    this.logger = options.logger ?? silentLogger;
  }

  /** Sockets carried to other nodes now. */
  get carriedCount(): number {
    return this.carried.size;
  }

  /** What the upgrade's forwarding headers say (server/socket/forward-auth.ts). */
  check(request: IncomingMessage, gameCode: string | null): ForwardCheck {
    return checkForwarded(this.options.key, this.options.nodeId, request.headers, gameCode);
  }

  /**
   * Passes the upgrade on to the game's owner when another live node owns it: true once the two
   * are joined (the socket is carried from then on), false when this node should take it itself.
   */
  async forward(request: IncomingMessage, socket: Duplex, head: Buffer, gameCode: string, clientAddress: string): Promise<boolean> {
    const owner = await this.ownerElsewhere(gameCode);
    if (!owner || socket.destroyed) return false;
    const target = hostAndPortOf(owner.address);
    if (!target) {
      this.logger.error({ event: "forward_bad_address", gameCode, owner: owner.nodeId, address: owner.address }, "a node's address is not host:port");
      return false;
    }
    const upstream = await this.connect(target);
    if (!upstream) {
      this.logger.warn({ event: "forward_unreachable", gameCode, owner: owner.nodeId }, "the game's owner could not be reached; this node keeps the socket");
      return false;
    }
    if (socket.destroyed) {
      upstream.destroy();
      return true;
    }
    const headers = forwardHeaders(this.options.key, { targetNodeId: owner.nodeId, at: Date.now(), clientAddress, gameCode });
    upstream.write(forwardedHead(request, headers));
    if (head.length > 0) upstream.write(head);
    this.carry(socket, upstream, gameCode, owner.nodeId);
    this.options.metrics?.socketForwarded();
    return true;
  }

  /** Ends every carried connection (the server is closing). */
  close(): void {
    if (this.ownerCheck) clearInterval(this.ownerCheck);
    this.ownerCheck = null;
    for (const { client, owner } of this.carried) {
      client.destroy();
      owner.destroy();
    }
    this.carried.clear();
  }

  /** Closes the carried pairs whose game another live node owns now. */
  private async checkOwners(): Promise<void> {
    // The carried pairs by game, then one lookup for all their games: this runs every second, so
    // neither a statement per game nor a scan of every pair per game.
    const pairsByGame = new Map<string, CarriedPair[]>();
    for (const pair of this.carried) {
      const pairs = pairsByGame.get(pair.gameCode);
      if (pairs) pairs.push(pair);
      else pairsByGame.set(pair.gameCode, [pair]);
    }
    let owners: Map<string, GameOwner> | undefined;
    try {
      owners = pairsByGame.size > 0 ? await this.options.liveOwnersOf([...pairsByGame.keys()]) : new Map();
    } catch {
      owners = undefined; // the database did not answer: say nothing about the owners
    }
    for (const [gameCode, pairs] of owners ? pairsByGame : []) {
      const owner = owners!.get(gameCode);
      for (const pair of pairs) {
        if (!owner || owner.nodeId === pair.ownerNodeId) continue;
        this.logger.warn({ event: "forward_owner_lost", gameCode, owner: pair.ownerNodeId }, "a carried socket's game lost that owner; closing it");
        this.carried.delete(pair);
        pair.client.destroy();
        pair.owner.destroy();
      }
    }
    if (this.carried.size === 0 && this.ownerCheck) {
      clearInterval(this.ownerCheck);
      this.ownerCheck = null;
    }
  }

  private async ownerElsewhere(gameCode: string): Promise<GameOwner | undefined> {
    let lookup = this.lookups.get(gameCode);
    if (!lookup) {
      lookup = this.options.liveOwnerOf(gameCode).finally(() => this.lookups.delete(gameCode));
      this.lookups.set(gameCode, lookup);
    }
    try {
      const owner = await lookup;
      return owner && owner.nodeId !== this.options.nodeId ? owner : undefined;
    } catch (error) {
      // The socket is kept here: its JOIN meets the same database and says what it can.
      this.logger.warn({ event: "forward_lookup_failed", gameCode, err: error }, "could not look up the game's owner");
      return undefined;
    }
  }

  private connect(target: { host: string; port: number }): Promise<net.Socket | null> {
    return new Promise((resolve) => {
      const upstream = net.connect({ host: target.host, port: target.port, noDelay: true });
      const fail = () => {
        clearTimeout(timer);
        upstream.destroy();
        resolve(null);
      };
      const timer = setTimeout(fail, this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
      upstream.once("error", fail);
      upstream.once("connect", () => {
        clearTimeout(timer);
        upstream.off("error", fail);
        resolve(upstream);
      });
    });
  }

  /** Each side's bytes to the other; an end passes on, an error or a silent owner closes both. */
  private carry(client: Duplex, owner: net.Socket, gameCode: string, ownerNodeId: string): void {
    const pair: CarriedPair = { client, owner, gameCode, ownerNodeId };
    this.carried.add(pair);
    if (!this.ownerCheck) {
      let checking = false;
      this.ownerCheck = setInterval(() => {
        if (checking) return;
        checking = true;
        void this.checkOwners().finally(() => (checking = false));
      }, this.options.ownerCheckMs ?? DEFAULT_OWNER_CHECK_MS);
      this.ownerCheck.unref();
    }
    (client as Partial<net.Socket>).setNoDelay?.(true);
    const unanswered = setTimeout(() => {
      this.logger.warn({ event: "forward_unanswered" }, "the game's owner did not answer a forwarded socket; closing it");
      client.destroy();
      owner.destroy();
    }, this.options.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS);
    unanswered.unref();
    owner.once("data", () => clearTimeout(unanswered));
    const closeBoth = () => {
      clearTimeout(unanswered);
      this.carried.delete(pair);
      client.destroy();
      owner.destroy();
    };
    client.on("error", closeBoth);
    owner.on("error", closeBoth);
    // One side gone for good: the other goes too once what was written to it is out (pipe passed
    // the end on), or a little later at the latest, for a peer that reads no more.
    const afterClose = (other: Duplex) => {
      if (other.destroyed || other.writableFinished) return closeBoth();
      other.once("finish", closeBoth);
      setTimeout(closeBoth, LINGER_MS).unref();
    };
    client.once("close", () => afterClose(owner));
    owner.once("close", () => afterClose(client));
    owner.pipe(client);
    client.pipe(owner);
  }
}
