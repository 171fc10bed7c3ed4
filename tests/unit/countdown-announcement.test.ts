import { describe, expect, it } from "vitest";
import { countdownAnnouncement } from "#app/components/game-ui";

describe("countdownAnnouncement", () => {
  it("says nothing while more than 10 seconds are left, then changes only at 10 and at 5", () => {
    const spoken = Array.from({ length: 31 }, (_, index) => countdownAnnouncement(30 - index));
    const changes = spoken.filter((text, index) => index > 0 && text !== spoken[index - 1]);
    expect(changes).toEqual(["10 seconds left", "5 seconds left", ""]);
    expect(countdownAnnouncement(11)).toBe("");
    expect(countdownAnnouncement(10)).toBe("10 seconds left");
    expect(countdownAnnouncement(6)).toBe("10 seconds left");
    expect(countdownAnnouncement(5)).toBe("5 seconds left");
    expect(countdownAnnouncement(1)).toBe("5 seconds left");
    // At 0 the screen's own "Time's up!" is announced instead.
    expect(countdownAnnouncement(0)).toBe("");
  });
});
