/**
 * Forwarding a socket between nodes, its parts without a database (server/socket/forward-auth.ts,
 * server/socket/forward.ts, server/cluster-signals.ts; docs/decisions/0056-forwarding-and-signals.md):
 * the proof of a forwarded upgrade holds for its own node, moment, address and game only; the
 * request head goes on as it came, less any forwarding header a client made up; a node's address
 * is read as host and port; a signal from the channel is read by its schema.
 * tests/integration/forwarding.test.ts drives all of it between two real servers on Postgres.
 */
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { checkForwarded, FORWARD_HEADERS, FORWARD_MAX_AGE_MS, forwardHeaders, forwardingKeyOf } from "#server/socket/forward-auth";
import { forwardedHead, hostAndPortOf } from "#server/socket/forward";
import { readSignalPayload } from "#server/cluster-signals";

const key = forwardingKeyOf("a-session-secret-of-at-least-32-characters");
const now = 1_800_000_000_000;
const forwarded = { targetNodeId: "node-a", at: now, clientAddress: "203.0.113.9", gameCode: "ABC234" };

describe("the proof of a forwarded upgrade", () => {
  it("lets the owner it was signed for read the player's address", () => {
    expect(checkForwarded(key, "node-a", forwardHeaders(key, forwarded), "ABC234", now + 10)).toEqual({
      kind: "forwarded",
      clientAddress: "203.0.113.9",
    });
  });

  it("is no proof at all without forwarding headers: a socket straight from a client", () => {
    expect(checkForwarded(key, "node-a", { host: "quiz.example" }, "ABC234", now)).toEqual({ kind: "direct" });
  });

  it("refuses it for another node, another game, another address, another moment, another key", () => {
    const headers = forwardHeaders(key, forwarded);
    expect(checkForwarded(key, "node-b", headers, "ABC234", now).kind).toBe("refused");
    expect(checkForwarded(key, "node-a", headers, "XYZ789", now).kind).toBe("refused");
    expect(checkForwarded(key, "node-a", { ...headers, [FORWARD_HEADERS.address]: "198.51.100.1" }, "ABC234", now).kind).toBe("refused");
    expect(checkForwarded(key, "node-a", { ...headers, [FORWARD_HEADERS.at]: String(now + 1) }, "ABC234", now).kind).toBe("refused");
    const otherKey = forwardingKeyOf("another-session-secret-of-32-characters!");
    expect(checkForwarded(otherKey, "node-a", headers, "ABC234", now).kind).toBe("refused");
  });

  it("refuses one forwarded too long ago (or stamped far ahead), and a socket naming no game", () => {
    const headers = forwardHeaders(key, forwarded);
    expect(checkForwarded(key, "node-a", headers, "ABC234", now + FORWARD_MAX_AGE_MS).kind).toBe("forwarded");
    expect(checkForwarded(key, "node-a", headers, "ABC234", now + FORWARD_MAX_AGE_MS + 1)).toEqual({ kind: "refused", reason: "forwarded too long ago" });
    expect(checkForwarded(key, "node-a", headers, "ABC234", now - FORWARD_MAX_AGE_MS - 1).kind).toBe("refused");
    expect(checkForwarded(key, "node-a", headers, null, now).kind).toBe("refused");
  });

  it("refuses an address that is no address, a missing signature, and a header of ours too many", () => {
    const headers = forwardHeaders(key, forwarded);
    const { [FORWARD_HEADERS.signature]: _signature, ...unsigned } = headers;
    expect(checkForwarded(key, "node-a", unsigned, "ABC234", now).kind).toBe("refused");
    expect(checkForwarded(key, "node-a", { [FORWARD_HEADERS.address]: "203.0.113.9" }, "ABC234", now).kind).toBe("refused");
    expect(checkForwarded(key, "node-a", { ...headers, [FORWARD_HEADERS.address]: "203.0.113.9, 10.0.0.1" }, "ABC234", now).kind).toBe("refused");
    expect(checkForwarded(key, "node-a", { ...headers, "x-quiz-forwarded-hops": "2" }, "ABC234", now).kind).toBe("refused");
  });

  it("derives its key from SESSION_SECRET for this use alone: the same secret gives the same key, never the secret itself", () => {
    expect(forwardingKeyOf("a-session-secret-of-at-least-32-characters")).toEqual(key);
    expect(key.toString("utf8")).not.toContain("a-session-secret");
    expect(key).toHaveLength(32);
  });
});

describe("the forwarded request head", () => {
  const request = {
    method: "GET",
    url: "/ws?clientId=browser-1&game=ABC234",
    httpVersion: "1.1",
    rawHeaders: ["Host", "quiz.example", "Upgrade", "websocket", "X-Quiz-Forwarded-For", "6.6.6.6", "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="],
  } as unknown as IncomingMessage;

  it("goes on as it came, its header names' case kept, without a client's own forwarding headers, with ours at the end", () => {
    expect(forwardedHead(request, { "x-quiz-forwarded-for": "203.0.113.9" })).toBe(
      "GET /ws?clientId=browser-1&game=ABC234 HTTP/1.1\r\n" +
        "Host: quiz.example\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
        "x-quiz-forwarded-for: 203.0.113.9\r\n\r\n",
    );
  });
});

describe("a node's address", () => {
  it("reads host:port and [IPv6]:port, and nothing else", () => {
    expect(hostAndPortOf("node-2.internal:3000")).toEqual({ host: "node-2.internal", port: 3000 });
    expect(hostAndPortOf("10.0.0.7:8080")).toEqual({ host: "10.0.0.7", port: 8080 });
    expect(hostAndPortOf("[fd00::7]:3000")).toEqual({ host: "fd00::7", port: 3000 });
    expect(hostAndPortOf("node-2.internal")).toBeNull();
    expect(hostAndPortOf("")).toBeNull();
  });
});

describe("a cluster signal from the channel", () => {
  it("is read when it is one of ours, and refused otherwise", () => {
    const keys = { from: "node-b", signal: { type: "game-keys-replaced", gameCode: "ABC234", gameId: 7 } };
    expect(readSignalPayload(JSON.stringify(keys))).toEqual(keys);
    const seats = { from: "node-b", signal: { type: "host-seats-released", clientId: "browser-1" } };
    expect(readSignalPayload(JSON.stringify(seats))).toEqual(seats);
    expect(readSignalPayload("not json")).toBeNull();
    expect(readSignalPayload(JSON.stringify({ from: "node-b", signal: { type: "drop-tables" } }))).toBeNull();
    expect(readSignalPayload(JSON.stringify({ from: "node-b", signal: { ...keys.signal, displayKey: "secret" } }))).toBeNull();
    expect(readSignalPayload(JSON.stringify({ from: "node-b", signal: { ...keys.signal, gameCode: "abc-234" } }))).toBeNull();
  });
});
