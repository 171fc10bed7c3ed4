import { describe, expect, it } from "vitest";
import { firstErrors, HostFormSchema, JoinFormSchema } from "#app/schemas/form-schemas";

function errorsOf(result: { success: boolean; error?: Parameters<typeof firstErrors>[0] }) {
  expect(result.success).toBe(false);
  return firstErrors(result.error!);
}

describe("HostFormSchema", () => {
  it.each([
    [
      { quizCode: "abc123", quizId: "", hostName: " Sam " },
      { hostName: "Sam", gameCode: "ABC123" },
    ],
    [
      { quizCode: "ab-c12 3", hostName: "Sam" },
      { hostName: "Sam", gameCode: "ABC123" },
    ],
    [
      { quizCode: "", quizId: "7", hostName: "Sam" },
      { hostName: "Sam", quizId: 7 },
    ],
    [
      { quizCode: "nonsense", quizId: "7", hostName: "Sam" },
      { hostName: "Sam", quizId: 7 },
    ],
    [
      { quizCode: "ABC123", hostName: "Jo" },
      { hostName: "Jo", gameCode: "ABC123" },
    ],
    [
      { quizCode: "ABC123", hostName: "x".repeat(15) },
      { hostName: "x".repeat(15), gameCode: "ABC123" },
    ],
  ])("accepts %j", (input, output) => {
    expect(HostFormSchema.parse(input)).toEqual(output);
  });

  it.each([
    [{ quizCode: "", hostName: "Sam" }, "quizCode", "Quiz code must be 6 characters"],
    [{ quizCode: "ABC12", hostName: "Sam" }, "quizCode", "Quiz code must be 6 characters"],
    [{ quizCode: "ABC1234", hostName: "Sam" }, "quizCode", "Quiz code must be 6 characters"],
    [{ quizCode: "ABC123", hostName: "S" }, "hostName", "Host name must be between 2-15 characters"],
    [{ quizCode: "ABC123", hostName: "  S  " }, "hostName", "Host name must be between 2-15 characters"],
    [{ quizCode: "ABC123", hostName: "x".repeat(16) }, "hostName", "Host name must be between 2-15 characters"],
    [{ quizCode: "ABC123" }, "hostName", "Host name must be between 2-15 characters"],
    [{ quizId: "abc", hostName: "Sam" }, "quizId", "Expected a numeric id."],
  ])("refuses %j", (input, field, message) => {
    expect(errorsOf(HostFormSchema.safeParse(input))[field]).toBe(message);
  });

  it("reports the code and the host name together", () => {
    expect(errorsOf(HostFormSchema.safeParse({ quizCode: "AB", hostName: "S" }))).toEqual({
      quizCode: "Quiz code must be 6 characters",
      hostName: "Host name must be between 2-15 characters",
    });
  });
});

describe("JoinFormSchema", () => {
  it.each([
    [
      { gameCode: "abc123", nickname: "Sam" },
      { gameCode: "ABC123", nickname: "Sam" },
    ],
    [
      { gameCode: "ab-c12x9", nickname: " Sam " },
      { gameCode: "ABC12X", nickname: "Sam" },
    ],
    [
      { gameCode: " a b c 1 2 3 ", nickname: "x".repeat(15) },
      { gameCode: "ABC123", nickname: "x".repeat(15) },
    ],
  ])("normalises %j", (input, output) => {
    expect(JoinFormSchema.parse(input)).toEqual(output);
  });

  it.each([
    [{ gameCode: "", nickname: "Sam" }, "gameCode", "Quiz code must be 6 characters"],
    [{ gameCode: "ab-c1", nickname: "Sam" }, "gameCode", "Quiz code must be 6 characters"],
    [{ nickname: "Sam" }, "gameCode", "Enter the game code."],
    [{ gameCode: "ABC123", nickname: "" }, "nickname", "Enter a nickname."],
    [{ gameCode: "ABC123", nickname: "   " }, "nickname", "Enter a nickname."],
    [{ gameCode: "ABC123", nickname: "x".repeat(16) }, "nickname", "Nickname must be at most 15 characters."],
  ])("refuses %j", (input, field, message) => {
    expect(errorsOf(JoinFormSchema.safeParse(input))[field]).toBe(message);
  });
});

describe("JoinFormSchema in team mode", () => {
  const base = { gameCode: "ABC123", nickname: "Sam" };

  it.each([
    [{ ...base, team: "later", newTeam: "" }, undefined],
    [{ ...base, team: "team:Table 4", newTeam: "" }, "Table 4"],
    // The team picked wins over a name typed for a new one.
    [{ ...base, team: "team:Table 4", newTeam: "Owls" }, "Table 4"],
    [{ ...base, team: "new", newTeam: "  The   Owls " }, "The Owls"],
    // Without JavaScript, a name typed without ticking "New team" still names it.
    [{ ...base, team: "later", newTeam: "Owls" }, "Owls"],
    [base, undefined],
  ])("reads the team of %j", (input, team) => {
    expect(JoinFormSchema.parse(input)).toEqual({ gameCode: "ABC123", nickname: "Sam", team });
  });

  it.each([
    [{ ...base, team: "new", newTeam: "   " }, "newTeam", "Give the team a name."],
    [{ ...base, team: "new", newTeam: "x".repeat(25) }, "newTeam", "A team name has at most 24 characters."],
    [{ ...base, team: "new", newTeam: "fuck" }, "newTeam", "Please choose a different team name."],
    [{ ...base, team: "team:" + "x".repeat(25) }, "team", "A team name has at most 24 characters."],
  ])("refuses %j", (input, field, message) => {
    expect(errorsOf(JoinFormSchema.safeParse(input))[field]).toBe(message);
  });
});
