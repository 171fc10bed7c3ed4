/**
 * The break between two rounds of a night and the round labels: the countdown's clock on a
 * corrected local clock, what a screen reader hears of it (rarely), and what follows a leaderboard.
 */
import { describe, expect, it } from "vitest";
import { breakComesNext, leaderboardNext } from "#app/components/round-label";
import { translator } from "#app/i18n/server-i18n.server";
import { breakAnnouncement, breakClock, breakMinutes, breakMsLeft } from "#app/nights/break-clock";
import { isGameScreen } from "#app/game-pages/game-screens";

describe("breakMsLeft", () => {
  it("counts down to the server's end of the break on the local clock corrected by the offset", () => {
    // The server is 2 s ahead of this phone: at local 10_000 it is 12_000 on the server.
    expect(breakMsLeft(70_000, 2_000, 10_000)).toBe(58_000);
    expect(breakMsLeft(70_000, -3_000, 10_000)).toBe(63_000);
    expect(breakMsLeft(70_000, 0, 80_000)).toBe(0);
    expect(breakMsLeft(null, 0, 10_000)).toBeNull();
  });
});

describe("breakClock", () => {
  it("reads minutes and two-digit seconds, to the nearest second", () => {
    expect(breakClock(5 * 60_000, "en")).toBe("5:00");
    expect(breakClock(5 * 60_000 - 400, "en")).toBe("5:00");
    expect(breakClock(5 * 60_000 + 400, "en")).toBe("5:00");
    expect(breakClock(9 * 60_000 + 41_000, "en")).toBe("9:41");
    expect(breakClock(60 * 60_000, "de")).toBe("60:00");
    expect(breakClock(600, "fr")).toBe("0:01");
    expect(breakClock(0, "es")).toBe("0:00");
  });
});

describe("breakAnnouncement", () => {
  it("changes three times at most during a countdown: when set, at one minute left, when over", () => {
    // Set a moment after this screen's clock last ticked: still 5 minutes.
    expect(breakMinutes(5 * 60_000 + 450)).toBe(5);
    const minutes = breakMinutes(5 * 60_000);
    expect(minutes).toBe(5);
    const spoken = Array.from({ length: 5 * 60 + 2 }, (_, second) => JSON.stringify(breakAnnouncement(Math.max(0, 5 * 60_000 - second * 1000), minutes)));
    const changes = spoken.filter((text, index) => index === 0 || text !== spoken[index - 1]);
    expect(changes.map((text) => JSON.parse(text))).toEqual([{ key: "minutes", count: 5 }, { key: "lastMinute" }, { key: "over" }]);
  });

  it("says nothing without a countdown, and no 'one minute left' for a one-minute break", () => {
    expect(breakAnnouncement(null, 0)).toBeNull();
    expect(breakAnnouncement(50_000, 1)).toEqual({ key: "minutes", count: 1 });
  });

  it("speaks the page's language", () => {
    const german = translator("de", "game");
    expect(german("night.break.announceMinutes", { count: 10 })).toBe("Weiter in 10 Minuten.");
    expect(german("night.break.backIn", { time: breakClock(9 * 60_000 + 41_000, "de") })).toBe("Weiter in 9:41");
  });
});

describe("after a leaderboard", () => {
  const round = (number: number, total: number) => ({ number, total, title: "Pictures" });

  it("comes the break when a night's round that is not its last ends, else the podium or the next question", () => {
    expect(breakComesNext({ isLastLeaderboard: true, round: round(1, 3) })).toBe(true);
    expect(breakComesNext({ isLastLeaderboard: true, round: round(3, 3) })).toBe(false);
    expect(breakComesNext({ isLastLeaderboard: false, round: round(1, 3) })).toBe(false);
    expect(breakComesNext({ isLastLeaderboard: true, round: null })).toBe(false);
    expect(leaderboardNext({ isLastLeaderboard: true, round: round(2, 3) })).toEqual({
      countdown: "night.leaderboard.breakIn",
      button: "night.leaderboard.goToBreak",
    });
    expect(leaderboardNext({ isLastLeaderboard: true, round: round(3, 3) }).button).toBe("leaderboard.showFinalResults");
    expect(leaderboardNext({ isLastLeaderboard: false, round: null }).button).toBe("leaderboard.nextQuestion");
  });

  it("reads the round as the screens label it", () => {
    expect(translator("en", "game")("night.roundLabel", round(2, 3))).toBe("Round 2 of 3 · Pictures");
    expect(translator("fr", "game")("night.leaderboard.breakIn", { count: 3 })).toBe("Pause dans 3 secondes...");
  });
});

describe("the break screen", () => {
  it("is a game screen (the page keeps everything else out of view)", () => {
    expect(isGameScreen("/break/ABC123")).toBe(true);
  });
});
