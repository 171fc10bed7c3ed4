/**
 * The proof a node adds to a socket it forwards to the owner of its game (issue 28: "one hop, node
 * to node, authenticated; the player's address passed on"; docs/decisions/0056-forwarding-and-signals.md).
 *
 * The forwarding node writes three headers on the upgrade it passes on: the player's address, the
 * moment, and an HMAC-SHA256 over (the owner's node id, that moment, the address, the game) with a
 * key derived from SESSION_SECRET, which every node of a cluster shares and nothing else knows. The
 * owner believes the address only when the HMAC checks out for its own node id within
 * FORWARD_MAX_AGE_MS; forwarding headers that do not check out are refused outright. A forwarded
 * upgrade is never forwarded again (one hop), whatever the owner finds.
 */
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import type { IncomingHttpHeaders } from "node:http";
import { z } from "zod";

/** The headers, lower-case as Node gives them; any header starting with FORWARD_HEADER_PREFIX is ours and never passed on from a client. */
export const FORWARD_HEADER_PREFIX = "x-quiz-forward";
export const FORWARD_HEADERS = {
  /** The player's address as the forwarding node found it (TRUST_PROXY applied there). */
  address: "x-quiz-forwarded-for",
  /** When it was forwarded: milliseconds since 1970 on the forwarding node's clock. */
  at: "x-quiz-forwarded-at",
  signature: "x-quiz-forward-signature",
} as const;

/**
 * How far a forwarded upgrade's moment may be from the owner's clock, either way: the hop takes
 * milliseconds, the rest is for clocks that disagree. A copied header set stops working after it.
 */
export const FORWARD_MAX_AGE_MS = 30_000;

/** The forwarding key: derived from SESSION_SECRET for this one use, so it is never the session's own key. */
export function forwardingKeyOf(sessionSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", sessionSecret, "", "quiz-night: sockets forwarded between nodes", 32));
}

interface Forwarded {
  targetNodeId: string;
  at: number;
  clientAddress: string;
  gameCode: string;
}

function signatureOf(key: Buffer, forwarded: Forwarded): Buffer {
  // Newlines cannot occur in any part (a node id, digits, an address, a game code): the parts cannot run into each other.
  const text = [forwarded.targetNodeId, String(forwarded.at), forwarded.clientAddress, forwarded.gameCode].join("\n");
  return createHmac("sha256", key).update(text).digest();
}

/** The headers that carry a socket for `gameCode` from `clientAddress` to the node `targetNodeId`. */
export function forwardHeaders(key: Buffer, forwarded: Forwarded): Record<string, string> {
  return {
    [FORWARD_HEADERS.address]: forwarded.clientAddress,
    [FORWARD_HEADERS.at]: String(forwarded.at),
    [FORWARD_HEADERS.signature]: signatureOf(key, forwarded).toString("base64url"),
  };
}

const ForwardHeadersSchema = z.object({
  [FORWARD_HEADERS.address]: z.string().refine((address) => isIP(address) !== 0),
  [FORWARD_HEADERS.at]: z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
  [FORWARD_HEADERS.signature]: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});

/** What an upgrade's forwarding headers say: none (a socket straight from a client), a forwarded socket and its player's address, or a forgery. */
export type ForwardCheck = { kind: "direct" } | { kind: "forwarded"; clientAddress: string } | { kind: "refused"; reason: string };

/** Reads an upgrade's forwarding headers, for this node (`nodeId`) and the game its URL names. */
export function checkForwarded(key: Buffer, nodeId: string, headers: IncomingHttpHeaders, gameCode: string | null, now = Date.now()): ForwardCheck {
  const ours = Object.keys(headers).filter((name) => name.startsWith(FORWARD_HEADER_PREFIX));
  if (ours.length === 0) return { kind: "direct" };
  const parsed = ForwardHeadersSchema.safeParse(headers);
  if (!parsed.success || ours.length !== 3) return { kind: "refused", reason: "malformed forwarding headers" };
  // Only a socket that names its game is ever forwarded.
  if (gameCode === null) return { kind: "refused", reason: "a forwarded socket names no game" };
  const { [FORWARD_HEADERS.address]: clientAddress, [FORWARD_HEADERS.at]: at, [FORWARD_HEADERS.signature]: signature } = parsed.data;
  if (Math.abs(now - at) > FORWARD_MAX_AGE_MS) return { kind: "refused", reason: "forwarded too long ago" };
  const expected = signatureOf(key, { targetNodeId: nodeId, at, clientAddress, gameCode });
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { kind: "refused", reason: "forwarding signature does not match" };
  return { kind: "forwarded", clientAddress };
}
