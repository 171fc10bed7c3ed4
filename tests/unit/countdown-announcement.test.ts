import { describe, expect, it } from "vitest";
import { countdownAnnouncement } from "#app/components/game-ui";
import { translator } from "#app/i18n/server-i18n.server";

const english = translator("en", "game");
const german = translator("de", "game");

describe("countdownAnnouncement", () => {
  it("says nothing while more than 10 seconds are left, then changes only at 10 and at 5", () => {
    const spoken = Array.from({ length: 31 }, (_, index) => countdownAnnouncement(30 - index, english));
    const changes = spoken.filter((text, index) => index > 0 && text !== spoken[index - 1]);
    expect(changes).toEqual(["10 seconds left", "5 seconds left", ""]);
    expect(countdownAnnouncement(11, english)).toBe("");
    expect(countdownAnnouncement(10, english)).toBe("10 seconds left");
    expect(countdownAnnouncement(6, english)).toBe("10 seconds left");
    expect(countdownAnnouncement(5, english)).toBe("5 seconds left");
    expect(countdownAnnouncement(1, english)).toBe("5 seconds left");
    // At 0 the screen's own "Time's up!" is announced instead.
    expect(countdownAnnouncement(0, english)).toBe("");
  });

  it("speaks the page's language", () => {
    expect(countdownAnnouncement(8, german)).toBe("Noch 10 Sekunden");
    expect(countdownAnnouncement(3, german)).toBe("Noch 5 Sekunden");
    expect(countdownAnnouncement(12, german)).toBe("");
  });
});
