/** The heartbeat's rounds (server/heartbeat.ts): every socket once per interval, a share of them per tick. */
import { describe, expect, it } from "vitest";
import { HeartbeatRounds } from "#server/heartbeat";

describe("heartbeat rounds", () => {
  it("visits a thirtieth of the sockets per tick of a 30 s interval, each once per round", () => {
    const sockets = new Set(Array.from({ length: 90 }, (_, index) => index));
    const visits: number[][] = [];
    const rounds = new HeartbeatRounds(sockets, 30_000, (socket) => visits.at(-1)!.push(socket));
    expect(rounds.tickMs).toBe(1000);
    for (let tick = 0; tick < 30; tick++) {
      visits.push([]);
      rounds.tick();
    }
    // Never every socket in one turn of the event loop: at most 3 writes per tick.
    expect(Math.max(...visits.map((tick) => tick.length))).toBe(3);
    expect(visits.flat().sort((a, b) => a - b)).toEqual([...sockets]);
  });

  it("visits a socket that joined during a round in that round, skips one that left, and starts the next round", () => {
    const sockets = new Set([1, 2, 3, 4]);
    const visited: number[] = [];
    const rounds = new HeartbeatRounds(sockets, 2000, (socket) => visited.push(socket));
    rounds.tick();
    sockets.add(5);
    sockets.delete(3);
    rounds.tick();
    rounds.tick();
    rounds.tick();
    expect(visited).toEqual([1, 2, 4, 5, 1, 2]);
  });

  it("pings everyone at once when the interval is shorter than a tick", () => {
    const sockets = new Set([1, 2, 3]);
    const visited: number[] = [];
    const rounds = new HeartbeatRounds(sockets, 100, (socket) => visited.push(socket));
    expect(rounds.tickMs).toBe(100);
    rounds.tick();
    expect(visited).toEqual([1, 2, 3]);
  });
});
