/**
 * A node's lease on its games (server/ownership-lease.ts, docs/decisions/0052-game-ownership-and-fencing.md):
 * it fences itself strictly before the others may claim its games, counts a renewal from its send,
 * and a node the others see dead is one whose heartbeat is older than the lease or whose lock is gone.
 */
import { describe, expect, it } from "vitest";
import { parseEnv } from "#app/env/env.server";
import { nodeAddressOf, nodeIdOf } from "#server/ownership";
import { LeaseClock, leaseTimings, ownerIsDead } from "#server/ownership-lease";

describe("lease timings", () => {
  it("fence a node one heartbeat before the lease the others wait for ends", () => {
    expect(leaseTimings()).toEqual({ heartbeatMs: 1000, leaseMs: 3000, selfFenceMs: 2000 });
    const timings = leaseTimings(500, 2000);
    expect(timings.selfFenceMs).toBe(1500);
    expect(timings.selfFenceMs).toBeLessThan(timings.leaseMs);
  });

  it("refuse a lease shorter than three heartbeats, and a heartbeat that is not a positive time", () => {
    expect(() => leaseTimings(1000, 2999)).toThrow(/at least three heartbeats/);
    expect(() => leaseTimings(0, 3000)).toThrow(/positive/);
    expect(() => leaseTimings(Number.NaN, 3000)).toThrow(/positive/);
  });
});

describe("the lease clock", () => {
  const timings = leaseTimings(1000, 3000);

  it("holds nothing before the first renewal", () => {
    const lease = new LeaseClock(timings);
    expect(lease.holds(0)).toBe(false);
    expect(lease.remainingMs(0)).toBe(0);
  });

  it("holds until the self-fence time after the renewal's send, not after its answer", () => {
    const lease = new LeaseClock(timings);
    // Sent at 10,000, answered 900 ms later: the database may have stamped it anywhere in between.
    lease.renewed(10_000);
    expect(lease.holds(10_900)).toBe(true);
    expect(lease.remainingMs(10_900)).toBe(1100);
    expect(lease.holds(11_999)).toBe(true);
    expect(lease.holds(12_000)).toBe(false);
    expect(lease.remainingMs(12_500)).toBe(0);
  });

  it("is never moved back by an older renewal answering late", () => {
    const lease = new LeaseClock(timings);
    lease.renewed(11_000);
    lease.renewed(10_000);
    expect(lease.holds(12_500)).toBe(true);
    lease.renewed(12_000);
    expect(lease.holds(13_500)).toBe(true);
  });

  it("holds nothing once lost, until a renewal", () => {
    const lease = new LeaseClock(timings);
    lease.renewed(10_000);
    lease.lose();
    expect(lease.holds(10_001)).toBe(false);
    lease.renewed(10_500);
    expect(lease.holds(10_501)).toBe(true);
  });

  it("gives up before any other node may claim, for every moment the database stamps the renewal", () => {
    const lease = new LeaseClock(timings);
    const sentAt = 50_000;
    lease.renewed(sentAt);
    // The database stamps the heartbeat at or after its send; the node's own view ends first.
    for (const stampedAt of [sentAt, sentAt + 10, sentAt + 999]) {
      const lastHolding = sentAt + timings.selfFenceMs - 1;
      expect(lease.holds(lastHolding)).toBe(true);
      expect(ownerIsDead({ heartbeatAt: stampedAt, lockHeld: true }, lastHolding, timings.leaseMs)).toBe(false);
      const firstClaimable = stampedAt + timings.leaseMs + 1;
      expect(lease.holds(firstClaimable)).toBe(false);
      expect(ownerIsDead({ heartbeatAt: stampedAt, lockHeld: true }, firstClaimable, timings.leaseMs)).toBe(true);
    }
  });
});

describe("a dead owner", () => {
  it("is one with no row, a heartbeat older than the lease, or no lock", () => {
    expect(ownerIsDead(null, 10_000, 3000)).toBe(true);
    expect(ownerIsDead({ heartbeatAt: 7000, lockHeld: true }, 10_000, 3000)).toBe(false);
    expect(ownerIsDead({ heartbeatAt: 6999, lockHeld: true }, 10_000, 3000)).toBe(true);
    // A killed process: its session's lock went with it, however fresh its last heartbeat.
    expect(ownerIsDead({ heartbeatAt: 9999, lockHeld: false }, 10_000, 3000)).toBe(true);
  });
});

describe("the ownership settings", () => {
  it("read NODE_ADDRESS, NODE_HEARTBEAT_MS and NODE_LEASE_MS, and refuse what they cannot be", () => {
    expect(parseEnv({ NODE_ADDRESS: "node-2.internal:3000", NODE_HEARTBEAT_MS: "500", NODE_LEASE_MS: "2000" })).toMatchObject({
      NODE_ADDRESS: "node-2.internal:3000",
      NODE_HEARTBEAT_MS: 500,
      NODE_LEASE_MS: 2000,
    });
    expect(parseEnv({ NODE_ADDRESS: "[fd00::2]:3000" }).NODE_ADDRESS).toBe("[fd00::2]:3000");
    expect(() => parseEnv({ NODE_ADDRESS: "node-2.internal" })).toThrow(/NODE_ADDRESS/);
    // Longer than the pool keeps an idle connection: the lock's session would be lost between heartbeats.
    expect(() => parseEnv({ NODE_HEARTBEAT_MS: "10000" })).toThrow(/NODE_HEARTBEAT_MS/);
  });

  it("default to a process-unique node id and the host name with the listening port", () => {
    expect(nodeIdOf("node-2")).toBe("node-2");
    expect(nodeIdOf(undefined)).not.toBe(nodeIdOf(undefined));
    expect(nodeIdOf(undefined)).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(nodeAddressOf("node-2.internal:3000", 4000)).toBe("node-2.internal:3000");
    expect(nodeAddressOf(undefined, 4000)).toMatch(/:4000$/);
  });
});
