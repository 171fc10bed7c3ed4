import { describe, expect, it } from "vitest";
import { isOffensive } from "#app/schemas/profanity";
import { NewNicknameSchema, NicknameSchema, OFFENSIVE_NICKNAME } from "#app/schemas/validation";

describe("isOffensive", () => {
  it.each(["fuck", "fuuuck", "sh1thead", "b1tch", "wh0re"])("catches %j", (text) => {
    expect(isOffensive(text)).toBe(true);
  });

  // Numbers are numbers, even where leetspeak would read them as letters ("455" -> "ass").
  it.each(["Player 455", "Storm 455", "Team 717", "7117", "P155", "Ann664", "Scunthorpe", "Cassie", "Dickens", "Ann"])("leaves %j alone", (text) => {
    expect(isOffensive(text)).toBe(false);
  });
});

describe("nickname schemas", () => {
  it("refuses an offensive name for a new player with one clear message, while the protocol's schema only checks length", () => {
    const refused = NewNicknameSchema.safeParse("sh1thead");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0].message).toBe(OFFENSIVE_NICKNAME);
    expect(NicknameSchema.safeParse("sh1thead").success).toBe(true);
  });
});
