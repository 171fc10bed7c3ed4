/** The heartbeat's rounds (server/heartbeat.ts): every socket once per interval, a share of them per tick. */
import { describe, expect, it } from "vitest";
import { HeartbeatRounds } from "#server/heartbeat";

describe("heartbeat rounds", () => {
  it("visits a thirtieth of the sockets per tick of a 30 s interval, each once per round", () => {
    const sockets = new Set(Array.from({ length: 90 }, (_, index) => index));
    const visits: number[][] = [];
    const rounds = new HeartbeatRounds(sockets, 30_000, (socket) => visits.at(-1)!.push(socket));
    expect(rounds.tickMs).toBe(1000);
    for (let tick = 0; tick < 60; tick++) {
      visits.push([]);
      rounds.tick();
    }
    // Never every socket in one turn of the event loop: 3 writes per tick.
    expect(visits.map((tick) => tick.length)).toEqual(visits.map(() => 3));
    // Each round of 30 ticks visits every socket once.
    expect(
      visits
        .slice(0, 30)
        .flat()
        .sort((a, b) => a - b),
    ).toEqual([...sockets]);
    expect(
      visits
        .slice(30)
        .flat()
        .sort((a, b) => a - b),
    ).toEqual([...sockets]);
  });

  it("visits a socket that joined during a round in that round, skips one that left, and starts the next round on time", () => {
    const sockets = new Set([1, 2, 3, 4]);
    const visited: number[][] = [];
    const rounds = new HeartbeatRounds(sockets, 2000, (socket) => visited.at(-1)!.push(socket));
    const tick = () => {
      visited.push([]);
      rounds.tick();
    };
    tick();
    sockets.add(5);
    sockets.delete(3);
    tick();
    tick();
    tick();
    // Two ticks per round, every round: each socket once per interval.
    expect(visited).toEqual([
      [1, 2],
      [4, 5],
      [1, 2],
      [4, 5],
    ]);
  });

  it("pings everyone on every tick when the interval is a tick or shorter", () => {
    const sockets = new Set([1, 2, 3]);
    const visited: number[] = [];
    const rounds = new HeartbeatRounds(sockets, 200, (socket) => visited.push(socket));
    expect(rounds.tickMs).toBe(200);
    rounds.tick();
    rounds.tick();
    rounds.tick();
    expect(visited).toEqual([1, 2, 3, 1, 2, 3, 1, 2, 3]);
  });
});
