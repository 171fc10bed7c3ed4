import { describe, expect, it } from "vitest";
import { FULL_POINTS_WINDOW_MS, MAX_POINTS, STREAK_BONUS_MAX, STREAK_BONUS_STEP, scoreAnswer, speedPoints, streakBonus } from "#app/game/engine/index";

/**
 * Expected values are written out by hand from the rule
 *   points = round(1000 * (1 - (t / T) / 2)), 1000 when t < 500 ms, never below 500,
 * so a change to the formula makes these tests fail instead of silently agreeing with it.
 */
describe("scoring constants", () => {
  it("match the documented rule", () => {
    expect(MAX_POINTS).toBe(1000);
    expect(FULL_POINTS_WINDOW_MS).toBe(500);
    expect(STREAK_BONUS_STEP).toBe(100);
    expect(STREAK_BONUS_MAX).toBe(500);
  });
});

describe("speedPoints", () => {
  it.each([
    // t (ms), T (ms), expected
    { t: 0, T: 20_000, expected: 1000 },
    { t: 1, T: 20_000, expected: 1000 },
    { t: 250, T: 20_000, expected: 1000 },
    { t: 499, T: 20_000, expected: 1000 },
    // First millisecond outside the full-points window: 1000 * (1 - 0.025 / 2) = 987.5 -> 988.
    { t: 500, T: 20_000, expected: 988 },
    { t: 1000, T: 20_000, expected: 975 },
    { t: 2000, T: 20_000, expected: 950 },
    { t: 5000, T: 20_000, expected: 875 },
    { t: 8000, T: 20_000, expected: 800 },
    { t: 10_000, T: 20_000, expected: 750 },
    { t: 15_000, T: 20_000, expected: 625 },
    { t: 19_000, T: 20_000, expected: 525 },
    { t: 19_999, T: 20_000, expected: 500 },
    { t: 20_000, T: 20_000, expected: 500 },
    { t: 25_000, T: 20_000, expected: 500 },
    { t: 1_000_000, T: 20_000, expected: 500 },
    { t: 1234, T: 10_000, expected: 938 },
    { t: 2500, T: 10_000, expected: 875 },
    { t: 7000, T: 30_000, expected: 883 },
    { t: 499, T: 5_000, expected: 1000 },
    { t: 500, T: 5_000, expected: 950 },
    { t: 5_000, T: 5_000, expected: 500 },
    { t: 60_000, T: 120_000, expected: 750 },
  ])("t=$t ms of T=$T ms -> $expected", ({ t, T, expected }) => {
    expect(speedPoints(t, T)).toBe(expected);
  });

  it("is an integer, between 500 and 1000 and never increases with time", () => {
    const T = 20_000;
    let previous = Infinity;
    for (let t = 0; t <= T + 1000; t += 37) {
      const points = speedPoints(t, T);
      expect(Number.isInteger(points)).toBe(true);
      expect(points).toBeGreaterThanOrEqual(500);
      expect(points).toBeLessThanOrEqual(1000);
      expect(points).toBeLessThanOrEqual(previous);
      previous = points;
    }
  });
});

describe("streakBonus", () => {
  it.each([
    { streak: 0, expected: 0 },
    { streak: 1, expected: 0 },
    { streak: 2, expected: 100 },
    { streak: 3, expected: 200 },
    { streak: 4, expected: 300 },
    { streak: 5, expected: 400 },
    { streak: 6, expected: 500 },
    { streak: 7, expected: 500 },
    { streak: 10, expected: 500 },
    { streak: 100, expected: 500 },
  ])("streak $streak -> +$expected", ({ streak, expected }) => {
    expect(streakBonus(streak)).toBe(expected);
  });
});

describe("scoreAnswer", () => {
  it.each([
    { name: "instant first correct answer", correct: true, t: 0, T: 20_000, streak: 1, expected: 1000 },
    { name: "correct at the window edge", correct: true, t: 499, T: 20_000, streak: 1, expected: 1000 },
    { name: "correct at half time", correct: true, t: 10_000, T: 20_000, streak: 1, expected: 750 },
    { name: "correct at the deadline", correct: true, t: 20_000, T: 20_000, streak: 1, expected: 500 },
    { name: "correct after the deadline (clamped)", correct: true, t: 40_000, T: 20_000, streak: 1, expected: 500 },
    { name: "second correct in a row", correct: true, t: 0, T: 20_000, streak: 2, expected: 1100 },
    { name: "third correct in a row", correct: true, t: 0, T: 20_000, streak: 3, expected: 1200 },
    { name: "sixth in a row at half time", correct: true, t: 10_000, T: 20_000, streak: 6, expected: 1250 },
    { name: "tenth in a row is capped", correct: true, t: 5000, T: 20_000, streak: 10, expected: 1375 },
    { name: "slowest possible with max bonus", correct: true, t: 20_000, T: 20_000, streak: 50, expected: 1000 },
    { name: "wrong instant answer", correct: false, t: 0, T: 20_000, streak: 0, expected: 0 },
    { name: "wrong slow answer", correct: false, t: 19_000, T: 20_000, streak: 0, expected: 0 },
    { name: "wrong answer ignores a streak value", correct: false, t: 100, T: 20_000, streak: 5, expected: 0 },
  ])("$name -> $expected", ({ correct, t, T, streak, expected }) => {
    expect(scoreAnswer({ correct, responseTimeMs: t, timeLimitMs: T, streak })).toBe(expected);
  });

  it("a faster correct answer never scores less than a slower one with the same streak", () => {
    const T = 30_000;
    for (let streak = 1; streak <= 8; streak++) {
      for (let t = 0; t < T; t += 1000) {
        const faster = scoreAnswer({ correct: true, responseTimeMs: t, timeLimitMs: T, streak });
        const slower = scoreAnswer({ correct: true, responseTimeMs: t + 1000, timeLimitMs: T, streak });
        expect(faster).toBeGreaterThanOrEqual(slower);
      }
    }
  });
});
