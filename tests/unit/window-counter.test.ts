/** The game socket's join limits count in fixed windows per key, with one map and one sweep (server/window-counter.ts). */
import { afterEach, describe, expect, it } from "vitest";
import { WindowCounter } from "#server/window-counter";

let counter: WindowCounter | null = null;
afterEach(() => counter?.stop());

function counterAt(windowSeconds: number) {
  const clock = { now: 1_700_000_000_000 };
  counter = new WindowCounter(windowSeconds, () => clock.now);
  return { counter, clock };
}

describe("WindowCounter", () => {
  it("takes up to the limit per key in a window, then refuses without counting", () => {
    const { counter } = counterAt(60);
    expect([1, 2, 3, 4].map(() => counter.take("a", 3))).toEqual([true, true, true, false]);
    expect(counter.count("a")).toBe(3);
    // Another key has its own window.
    expect(counter.take("b", 3)).toBe(true);
    expect(counter.count("b")).toBe(1);
  });

  it("tells how long a key's window has left, 0 for a key without one", () => {
    const { counter, clock } = counterAt(600);
    expect(counter.secondsLeft("a")).toBe(0);
    counter.add("a");
    clock.now += 100_000;
    expect(counter.secondsLeft("a")).toBe(500);
    clock.now += 500_000;
    expect(counter.secondsLeft("a")).toBe(0);
  });

  it("opens a new window once the key's has ended", () => {
    const { counter, clock } = counterAt(60);
    counter.take("a", 1);
    clock.now += 59_000;
    expect(counter.take("a", 1)).toBe(false);
    clock.now += 1_000;
    expect(counter.count("a")).toBe(0);
    expect(counter.take("a", 1)).toBe(true);
  });

  it("adds past the limit, so a cap reached by admissions holds", () => {
    const { counter } = counterAt(86_400);
    counter.add("game|address");
    counter.add("game|address");
    expect(counter.count("game|address")).toBe(2);
    expect(counter.take("game|address", 2)).toBe(false);
  });

  it("sweeps ended windows out of memory and keeps the open ones", () => {
    const { counter, clock } = counterAt(60);
    for (let index = 0; index < 1000; index++) counter.take(`address-${index}`, 5);
    clock.now += 30_000;
    counter.take("late", 5);
    clock.now += 30_000;
    counter.sweep();
    expect(counter.size).toBe(1);
    expect(counter.count("late")).toBe(1);
  });
});
