import { describe, expect, it } from "vitest";
import { assignGames, defaultWorkerCount, lostAnswers, startOffsetsMs } from "../../bench/games-plan";
import { LOOPBACK_ADDRESSES, gameAddresses, loopbackAddress } from "../../bench/loopback";
import { median, medianFigures, withRuns } from "../../bench/stats";

describe("loopbackAddress", () => {
  it.each([
    [0, "127.1.0.1"],
    [1, "127.1.0.2"],
    [253, "127.1.0.254"],
    [254, "127.1.1.1"],
    [254 * 256 - 1, "127.1.255.254"],
    [254 * 256, "127.2.0.1"],
    [LOOPBACK_ADDRESSES - 1, "127.254.255.254"],
  ])("address %i is %s", (index, address) => {
    expect(loopbackAddress(index)).toBe(address);
  });

  it("never hands out 127.0.x.x, a 0 or 255 last byte, or the same address twice", () => {
    // Past the first change of the second byte (254 × 256 addresses each).
    const count = 70_000;
    const seen = new Set<string>();
    const wrong: string[] = [];
    for (let index = 0; index < count; index++) {
      const address = loopbackAddress(index);
      const [first, second, third, last] = address.split(".").map(Number);
      if (first !== 127 || second < 1 || second > 254 || third > 255 || last < 1 || last > 254) wrong.push(address);
      seen.add(address);
    }
    expect(wrong).toEqual([]);
    expect(seen.size).toBe(count);
  });

  it.each([-1, 1.5, LOOPBACK_ADDRESSES, Number.NaN])("refuses index %s", (index) => {
    expect(() => loopbackAddress(index)).toThrow(RangeError);
  });
});

describe("gameAddresses", () => {
  it("gives each game's host and players their own addresses, none shared between games", () => {
    expect(gameAddresses(0, 3)).toEqual({ host: "127.1.0.1", players: ["127.1.0.2", "127.1.0.3", "127.1.0.4"] });
    expect(gameAddresses(1, 3)).toEqual({ host: "127.1.0.5", players: ["127.1.0.6", "127.1.0.7", "127.1.0.8"] });
    const all = Array.from({ length: 900 }, (_, game) => gameAddresses(game, 20)).flatMap(({ host, players }) => [host, ...players]);
    expect(new Set(all).size).toBe(900 * 21);
  });
});

describe("startOffsetsMs", () => {
  it("starts every game at the same moment without a stagger", () => {
    expect(startOffsetsMs(4, 0)).toEqual([0, 0, 0, 0]);
  });

  it("spreads the starts evenly over the stagger, first at 0 and last at its end", () => {
    expect(startOffsetsMs(5, 60)).toEqual([0, 15_000, 30_000, 45_000, 60_000]);
    expect(startOffsetsMs(3, 0.5)).toEqual([0, 250, 500]);
    expect(startOffsetsMs(1, 60)).toEqual([0]);
  });

  it("refuses no games or a negative stagger", () => {
    expect(() => startOffsetsMs(0, 0)).toThrow(RangeError);
    expect(() => startOffsetsMs(2, -1)).toThrow(RangeError);
  });
});

describe("assignGames", () => {
  it("deals the games to the workers in turn", () => {
    expect(assignGames(7, 3)).toEqual([
      [0, 3, 6],
      [1, 4],
      [2, 5],
    ]);
  });

  it("leaves out workers that would get no game", () => {
    expect(assignGames(2, 4)).toEqual([[0], [1]]);
  });

  it("gives every game to exactly one worker", () => {
    expect(
      assignGames(900, 8)
        .flat()
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 900 }, (_, game) => game));
  });
});

describe("defaultWorkerCount", () => {
  it("is about one process per 2,500 sockets, at least 2", () => {
    expect(defaultWorkerCount(200)).toBe(2);
    expect(defaultWorkerCount(4200)).toBe(2);
    expect(defaultWorkerCount(18_900)).toBe(8);
  });
});

describe("lostAnswers", () => {
  it("counts answers never acknowledged and acknowledged answers not stored, game by game", () => {
    expect(
      lostAnswers([
        { sent: 100, acknowledged: 100, stored: 100 },
        { sent: 100, acknowledged: 97, stored: 97 },
        { sent: 100, acknowledged: 100, stored: 98 },
      ]),
    ).toEqual({ unacknowledged: 3, notStored: 2, total: 5 });
  });

  it("does not let a game that stored an unacknowledged answer hide another game's loss", () => {
    expect(
      lostAnswers([
        { sent: 10, acknowledged: 9, stored: 10 },
        { sent: 10, acknowledged: 10, stored: 9 },
      ]),
    ).toEqual({ unacknowledged: 1, notStored: 1, total: 2 });
  });
});

describe("median", () => {
  it("is the middle figure, or the mean of the two middle ones", () => {
    expect(median([250, 88, 96])).toBe(96);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it("is NaN for no figures or a figure that is not a number", () => {
    expect(median([])).toBeNaN();
    expect(median([1, Number.NaN, 3])).toBeNaN();
  });
});

describe("medianFigures", () => {
  it("takes each figure's median apart from the others, nested ones too, so no single run (and not the best) is reported", () => {
    const runs = [
      { lost: 0, delivery: { p50: 10, p99: 300 }, games: 900 },
      { lost: 2, delivery: { p50: 30, p99: 100 }, games: 899 },
      { lost: 0, delivery: { p50: 20, p99: 200 }, games: 900 },
    ];
    expect(medianFigures(runs)).toEqual({ lost: 0, delivery: { p50: 20, p99: 200 }, games: 900 });
  });

  it("leaves out what is not a number in every run (text, lists, nulls)", () => {
    const runs = [
      { command: "a", http: [1], display: null, rss: 10, picture: { bytes: 5 } },
      { command: "b", http: [2], display: null, rss: 20, picture: null },
    ];
    expect(medianFigures(runs)).toEqual({ rss: 15 });
  });
});

describe("withRuns", () => {
  it("prints the median with each run's figure in run order", () => {
    expect(withRuns(96, [88, 250, 96])).toBe("96 (88, 250, 96)");
    expect(withRuns(1.5, [1, 2], (value) => `${value} ms`)).toBe("1.5 ms (1 ms, 2 ms)");
    expect(withRuns(42, [42])).toBe("42");
    expect(withRuns(4.175, [2.44, 5.91])).toBe("4.18 (2.44, 5.91)");
  });
});
