import { describe, expect, it } from "vitest";
import { gameFormat } from "#app/game/client/format";

describe("gameFormat: numbers on the game's screens in the page's language", () => {
  it("writes a quiz's numbers as each language does", () => {
    expect(gameFormat("en").number(1969)).toBe("1,969");
    expect(gameFormat("de").number(1969)).toBe("1.969");
    expect(gameFormat("en").number(-2.5)).toBe("-2.5");
    expect(gameFormat("de").number(3.14159)).toBe("3,14159");
    // Which no-break space French uses depends on the ICU version.
    expect(gameFormat("fr").number(12345.5)).toMatch(/^12\s345,5$/);
  });

  it("groups scores only from five digits on, so a four-digit score reads as it always has", () => {
    expect(gameFormat("en").score(1850)).toBe("1850");
    expect(gameFormat("de").score(1850)).toBe("1850");
    expect(gameFormat("en").score(12345)).toBe("12,345");
    expect(gameFormat("de").score(12345)).toBe("12.345");
    expect(gameFormat("es").score(0)).toBe("0");
  });

  it("writes percentages and response times with the language's signs", () => {
    expect(gameFormat("en").percent(67)).toBe("67%");
    expect(gameFormat("de").percent(67)).toMatch(/^67\s%$/);
    expect(gameFormat("fr").percent(100)).toMatch(/^100\s%$/);
    expect(gameFormat("en").seconds(1500)).toBe("1.5");
    expect(gameFormat("de").seconds(1500)).toBe("1,5");
    expect(gameFormat("en").seconds(0)).toBe("0.0");
  });

  it("keeps one formatter per language", () => {
    expect(gameFormat("es")).toBe(gameFormat("es"));
  });
});
