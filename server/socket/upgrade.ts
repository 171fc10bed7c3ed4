import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { z } from "zod";
import { WS_PATH } from "#app/game/protocol";
import { addressKey } from "#app/limits/address-key";
import { HOST_SECRET_COOKIE } from "#app/sessions/host-secret.server";
import { ClientIdSchema, GameCodeSchema } from "#app/schemas/validation";
import { GAME_URL_PARAM } from "#app/game/protocol-constants";
import { isAllowedOrigin } from "../http-security";
import type { ForwardCheck } from "./forward-auth";

/**
 * Open sockets per address: twice the players one address may bring into a game, so a school's
 * assembly behind one NAT fits with its reconnecting phones (an old socket lingers until the
 * heartbeat ends it).
 */
export const DEFAULT_MAX_SOCKETS_PER_ADDRESS = 2000;

export interface UpgradeOptions {
  /** Origins allowed besides the server's own; a request without Origin (a script) is always allowed. */
  allowedOrigins: string[];
  /** In production nothing else upgrades; in dev Vite's HMR socket shares the server. */
  rejectOtherUpgrades: boolean;
  /** The cookies a socket keeps from its upgrade for `signedInUserOf` (the session's); the host secret's is always kept. */
  hostCookieNames?: string[];
  /** The client's address, found as for HTTP requests (TRUST_PROXY); the socket's peer when absent. */
  clientAddressOf?: (request: IncomingMessage) => string | undefined;
  /** An IPv6 client counts by the network of this prefix (IPV6_PREFIX_LENGTH; app/limits/address-key.ts). */
  ipv6PrefixLength?: number;
  /** Sockets one address may hold open at once; past it an upgrade is refused with 429 (SOCKETS_PER_IP). */
  maxSocketsPerAddress?: number;
  /**
   * In a cluster (server/socket/forward.ts, docs/decisions/0056-forwarding-and-signals.md): a
   * forwarded upgrade's proof is checked, and a socket for a game another live node owns is passed
   * on to it. Absent on one node, which then looks nothing up.
   */
  forwarding?: UpgradeForwarding;
  /** An upgrade whose forwarding headers did not check out was refused (logged by the caller). */
  onForwardRefused?: (reason: string) => void;
}

/** What the upgrade asks of forwarding (server/socket/forward.ts: `SocketForwarder`). */
export interface UpgradeForwarding {
  /** What the upgrade's forwarding headers say: a socket from a client, one another node forwarded (with its player's address), or a forgery. */
  check(request: IncomingMessage, gameCode: string | null): ForwardCheck;
  /** Passes the upgrade on to the game's owner if another live node owns it: true when it did, false when this node takes the socket. */
  forward(request: IncomingMessage, socket: Duplex, head: Buffer, gameCode: string, clientAddress: string): Promise<boolean>;
}

/** Who an upgrade let through is: what the transport keeps of it on its `Client`. */
export interface SocketIdentity {
  /** Its browser's client id (a stranger's socket without one gets an `anon-` id of its own). */
  clientId: string;
  /** Its address as the limits count it (app/limits/address-key.ts); never logged. */
  address: string;
  /** The cookies it keeps for a host seat (`hostCookiesOf`), if it had any. */
  cookie: string | null;
  /**
   * The game its URL names (`/ws?clientId=...&game=CODE`), or null for a socket opened before its
   * browser knew one (the home page). A balancer hashes on it, so every socket of a game reaches
   * one node; a node forwards by it (issue 28, docs/decisions/0054-limits-across-nodes.md).
   */
  gameCode: string | null;
  /** Another node forwarded it here (its `address` is the player's, from that node's proof): it is never forwarded again. */
  forwarded: boolean;
}

/** An upgrade let through, with who it is. */
export type AcceptUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer, identity: SocketIdentity) => void;

/**
 * The `game` of a socket URL: a game code exactly as the app writes it (GameCodeSchema's own
 * form, upper-case letters and digits). A balancer hashes the text as sent, so "abc-123" and
 * "ABC123" would land on different nodes: a code in any other spelling is refused, not mended.
 */
export const SocketGameCodeSchema = z.string().refine((raw) => GameCodeSchema.safeParse(raw).data === raw, "game: not a game code");

/** `game` of a socket URL: absent (null), a game code, or refused (`undefined`) when it is no game code as the app writes one. */
export function socketGameCodeOf(url: URL): string | null | undefined {
  const raw = url.searchParams.get(GAME_URL_PARAM);
  if (raw === null) return null;
  const parsed = SocketGameCodeSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** Where a connection's close listener finds the address its open sockets are counted under. */
const ADDRESS = Symbol("address");
type AddressedStream = Duplex & { [ADDRESS]: string };

function refuse(socket: Duplex, status: number, text: string, body = ""): void {
  const length = Buffer.byteLength(body);
  const type = body ? "Content-Type: text/plain; charset=utf-8\r\n" : "";
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\n${type}Content-Length: ${length}\r\n\r\n${body}`);
}

/** What a socket URL with a malformed `game` is told, in its 400's body. */
export const BAD_GAME_PARAM = "The game parameter is not a game code (6 upper-case letters and digits).";

/**
 * The server's `upgrade` listener for /ws: the path, the origin and the sockets an address holds
 * open are checked before the handshake; what passes goes to `accept`.
 */
export function upgradeListener(options: UpgradeOptions, accept: AcceptUpgrade): (request: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const maxSocketsPerAddress = options.maxSocketsPerAddress ?? DEFAULT_MAX_SOCKETS_PER_ADDRESS;
  const socketsPerAddress = new Map<string, number>();

  /** A connection's listener, shared by every connection (`this`): its address holds one socket fewer. */
  function releaseAddress(this: AddressedStream): void {
    const address = this[ADDRESS];
    const left = (socketsPerAddress.get(address) ?? 1) - 1;
    if (left > 0) socketsPerAddress.set(address, left);
    else socketsPerAddress.delete(address);
  }

  /** Only the cookies a host seat needs, and only when there are any: most sockets are players' and keep nothing. */
  const keptCookies = new Set([HOST_SECRET_COOKIE, ...(options.hostCookieNames ?? [])]);
  function hostCookiesOf(header: string | undefined): string | null {
    if (!header) return null;
    const kept = header
      .split(";")
      .map((part) => part.trim())
      .filter((part) => keptCookies.has(part.slice(0, part.indexOf("="))));
    return kept.length > 0 ? kept.join("; ") : null;
  }

  return (request, socket, head) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== WS_PATH) {
      if (options.rejectOtherUpgrades) refuse(socket, 404, "Not Found");
      return;
    }
    if (!isAllowedOrigin(request, options.allowedOrigins)) {
      refuse(socket, 403, "Forbidden");
      return;
    }
    // Before counting the address: a malformed URL holds no socket open.
    const gameCode = socketGameCodeOf(url);
    if (gameCode === undefined) {
      refuse(socket, 400, "Bad Request", BAD_GAME_PARAM);
      return;
    }
    const forwardCheck = options.forwarding?.check(request, gameCode) ?? DIRECT;
    if (forwardCheck.kind === "refused") {
      refuse(socket, 403, "Forbidden", "The forwarding headers do not check out.");
      options.onForwardRefused?.(forwardCheck.reason);
      return;
    }
    // A forwarded socket is counted by its player's address, which the forwarding node proved.
    const clientAddress =
      forwardCheck.kind === "forwarded" ? forwardCheck.clientAddress : options.clientAddressOf?.(request) || request.socket.remoteAddress || "";
    const address = addressKey(clientAddress, options.ipv6PrefixLength);
    const open = socketsPerAddress.get(address) ?? 0;
    if (open >= maxSocketsPerAddress) {
      refuse(socket, 429, "Too Many Requests");
      return;
    }
    // Counted from the upgrade to the connection's end, whether or not the handshake completes.
    socketsPerAddress.set(address, open + 1);
    (socket as AddressedStream)[ADDRESS] = address;
    // `on`, not `once` (a wrapper per socket): a connection closes once.
    socket.on("close", releaseAddress);
    const parsedId = ClientIdSchema.safeParse(url.searchParams.get("clientId") ?? undefined);
    const clientId = parsedId.success ? parsedId.data : `anon-${randomUUID()}`;
    const identity: SocketIdentity = {
      clientId,
      address,
      cookie: hostCookiesOf(request.headers.cookie),
      gameCode,
      forwarded: forwardCheck.kind === "forwarded",
    };
    // One hop: a forwarded socket stays here, whatever this node finds when it joins (4000 if the game is elsewhere after all).
    if (!options.forwarding || gameCode === null || identity.forwarded) {
      accept(request, socket, head, identity);
      return;
    }
    // Until ws or the carried connection listens to it, an error on the socket (the client went) must not be unhandled.
    socket.on("error", destroyOnError);
    options.forwarding.forward(request, socket, head, gameCode, clientAddress).then(
      (forwarded) => {
        socket.off("error", destroyOnError);
        if (!forwarded && !socket.destroyed) accept(request, socket, head, identity);
      },
      () => {
        socket.off("error", destroyOnError);
        if (!socket.destroyed) accept(request, socket, head, identity);
      },
    );
  };
}

const DIRECT: ForwardCheck = { kind: "direct" };

function destroyOnError(this: Duplex): void {
  this.destroy();
}
