import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WS_PATH } from "#app/game/protocol";
import { addressKey } from "#app/limits/address-key";
import { HOST_SECRET_COOKIE } from "#app/sessions/host-secret.server";
import { ClientIdSchema } from "#app/schemas/validation";
import { isAllowedOrigin } from "../http-security";

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
}

/** An upgrade let through, with who it is: its browser's client id, its address (for the join limits, never logged) and the cookies it keeps. */
export type AcceptUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer, clientId: string, address: string, cookie: string | null) => void;

/** Where a connection's close listener finds the address its open sockets are counted under. */
const ADDRESS = Symbol("address");
type AddressedStream = Duplex & { [ADDRESS]: string };

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

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
    const address = addressKey(options.clientAddressOf?.(request) || request.socket.remoteAddress, options.ipv6PrefixLength);
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
    accept(request, socket, head, clientId, address, hostCookiesOf(request.headers.cookie));
  };
}
