import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FormIdSchema, HostFormSchema, JoinFormSchema } from "#app/schemas/form-schemas";
import { parseForm, parseIntent } from "#app/forms/forms";
import { RegisterSchema } from "#app/schemas/validation";

const form = (entries: Record<string, string> | [string, string][]) => new URLSearchParams(entries);

describe("parseForm", () => {
  it("gives the schema's typed value and what was typed", () => {
    const submission = parseForm(form({ gameCode: "ab-c12x9", nickname: " Sam ", intent: "join" }), JoinFormSchema);
    expect(submission).toEqual({
      status: "success",
      value: { gameCode: "ABC12X", nickname: "Sam" },
      values: { gameCode: "ab-c12x9", nickname: " Sam ", team: "", newTeam: "" },
    });
  });

  it("gives the first message per field, in the schema's order, with the code it was raised with, and keeps what was typed", () => {
    const submission = parseForm(form({ gameCode: "", nickname: "" }), JoinFormSchema);
    expect(submission).toEqual({
      status: "error",
      values: { gameCode: "", nickname: "", team: "", newTeam: "" },
      errors: { gameCode: "Quiz code must be 6 characters", nickname: "Enter a nickname." },
      // Each message's code and values, which the page says it by (docs/decisions/0047-errors-as-codes.md).
      codes: { gameCode: { code: "GAME_CODE_LENGTH" }, nickname: { code: "NICKNAME_REQUIRED" } },
    });
  });

  it("reads an empty field as empty text, not as a missing one, and a missing one as missing", () => {
    expect(parseForm(form({ gameCode: "", nickname: "Sam" }), JoinFormSchema)).toMatchObject({ errors: { gameCode: "Quiz code must be 6 characters" } });
    expect(parseForm(form({ nickname: "Sam" }), JoinFormSchema)).toMatchObject({
      values: { gameCode: "", nickname: "Sam" },
      errors: { gameCode: "Enter the game code." },
    });
  });

  it("reads the fields of a schema that checks the whole form and reshapes it", () => {
    expect(parseForm(form({ quizCode: "ZZZZ99", hostName: "Sam" }), HostFormSchema)).toEqual({
      status: "success",
      value: { hostName: "Sam", gameCode: "ZZZZ99" },
      values: { quizCode: "ZZZZ99", quizId: "", hostName: "Sam" },
    });
  });

  it("puts a check across fields beside the field it names, and never sends back a secret field", () => {
    const submission = parseForm(form({ username: "sam", email: "sam@example.com", password: "123456", confirmPassword: "654321" }), RegisterSchema, {
      secret: ["password", "confirmPassword"],
    });
    expect(submission).toEqual({
      status: "error",
      values: { username: "sam", email: "sam@example.com" },
      errors: { confirmPassword: "Passwords don't match" },
      codes: { confirmPassword: { code: "PASSWORDS_DONT_MATCH" } },
    });
  });

  it("reads FormData as a browser posts it", () => {
    const data = new FormData();
    data.append("gameCode", "abc123");
    data.append("nickname", "Sam");
    expect(parseForm(data, JoinFormSchema)).toMatchObject({ status: "success", value: { gameCode: "ABC123", nickname: "Sam" } });
  });

  it("reads the fields of a hand-made post that carries an unreadable conform intent", () => {
    const submission = parseForm(form({ gameCode: "abc123", nickname: "Sam", __intent__: "not json" }), JoinFormSchema);
    expect(submission).toMatchObject({ status: "success", value: { gameCode: "ABC123", nickname: "Sam" } });
  });

  it("names a message about the whole form _form", () => {
    const Whole = z.object({ a: z.string() }).check((ctx) => {
      ctx.issues.push({ code: "custom", message: "Nothing here works.", input: ctx.value });
    });
    expect(parseForm(form({ a: "x" }), Whole)).toMatchObject({ status: "error", errors: { _form: "Nothing here works." } });
  });

  it("carries a code across to a field when a whole-form check raises an issue again (the host form's game code)", () => {
    expect(parseForm(form({ quizCode: "AB", hostName: "Sam" }), HostFormSchema)).toMatchObject({
      status: "error",
      errors: { quizCode: "Quiz code must be 6 characters" },
      codes: { quizCode: { code: "GAME_CODE_LENGTH" } },
    });
    expect(parseForm(form({ quizCode: "ABC123", hostName: "S" }), HostFormSchema)).toMatchObject({
      status: "error",
      errors: { hostName: "Host name must be between 2-15 characters" },
      codes: { hostName: { code: "HOST_NAME_LENGTH" } },
    });
  });
});

describe("parseIntent", () => {
  it("names the form or button that sent the post, when the page knows it", () => {
    expect(parseIntent(form({ intent: "delete", quizId: "3" }), ["host", "delete"])).toBe("delete");
    expect(parseIntent(form({ intent: "drop", quizId: "3" }), ["host", "delete"])).toBeNull();
    expect(parseIntent(form({ quizId: "3" }), ["host", "delete"])).toBeNull();
  });
});

describe("FormIdSchema", () => {
  it.each([
    ["7", 7],
    ["12345", 12345],
  ])("reads %j as the id %i", (text, id) => {
    expect(FormIdSchema.parse(text)).toBe(id);
  });

  it.each(["", "0", "-1", "1.5", "1e3", " 7", "seven", "99999999999999999999"])("refuses %j", (text) => {
    expect(FormIdSchema.safeParse(text).error?.issues[0].message).toBe("Expected a numeric id.");
  });
});
