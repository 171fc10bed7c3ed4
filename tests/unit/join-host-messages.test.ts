/**
 * Every message the join and host forms can show has a code in the `errors` catalog, word for
 * word, so the browser shows it in the page's language (docs/decisions/0029-languages.md). The
 * messages with numbers in them are built from the game's rules: this fails when a rule changes
 * and the catalog's English text no longer matches.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { errorCodesOf } from "#app/i18n/error-text";
import { HostFormSchema, JoinFormSchema, QUIZZES_LOAD_FAILED } from "#app/schemas/form-schemas";
import { GAME_ALREADY_HOSTED, GAME_NOT_FOUND, GAME_NOT_YOURS, HOST_CONNECTION_FAILED, QUIZ_NOT_FOUND, QUIZ_NOT_HOSTABLE } from "#app/game-pages/game-messages";
import { parseForm } from "#app/forms/forms";

const english = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../app/locales/en/errors.json"), "utf8"));
const codes = errorCodesOf(english);
const form = (entries: Record<string, string>) => new URLSearchParams(entries);

function messagesOf(submission: ReturnType<typeof parseForm>): string[] {
  return submission.status === "error" ? Object.values(submission.errors).filter((message): message is string => !!message) : [];
}

describe("the join and host forms' messages", () => {
  it("each have a code, for every way the join form can be refused", () => {
    const messages = [
      ...messagesOf(parseForm(form({ gameCode: "", nickname: "" }), JoinFormSchema)),
      ...messagesOf(parseForm(form({ nickname: "   " }), JoinFormSchema)),
      ...messagesOf(parseForm(form({ gameCode: "ABC123", nickname: "x".repeat(40) }), JoinFormSchema)),
      // A form post cannot carry half a character (the browser sends U+FFFD instead): the rule is checked on the schema itself.
      ...(JoinFormSchema.safeParse({ gameCode: "ABC123", nickname: "a\uD800b" }).error?.issues.map((issue) => issue.message) ?? []),
      ...messagesOf(parseForm(form({ gameCode: "ABC123", nickname: "fuck" }), JoinFormSchema)),
    ];
    expect(new Set(messages)).toEqual(
      new Set([
        "Quiz code must be 6 characters",
        "Enter a nickname.",
        "Enter the game code.",
        "Nickname must be at most 15 characters.",
        "Nickname has a character that cannot be shown.",
        "That nickname is not allowed here. Please choose another one.",
      ]),
    );
    for (const message of messages) expect(codes.get(message), message).toBeDefined();
  });

  it("each have a code, for every way the host form can be refused", () => {
    const messages = [
      ...messagesOf(parseForm(form({ quizCode: "", hostName: "" }), HostFormSchema)),
      ...messagesOf(parseForm(form({ quizCode: "AB", hostName: "x".repeat(40) }), HostFormSchema)),
      ...messagesOf(parseForm(form({ hostName: "Sam" }), HostFormSchema)),
    ];
    expect(messages).toContain("Host name must be between 2-15 characters");
    for (const message of messages) expect(codes.get(message), message).toBeDefined();
  });

  it("each have a code for what the actions and the page add", () => {
    for (const message of [
      GAME_NOT_FOUND,
      GAME_ALREADY_HOSTED,
      GAME_NOT_YOURS,
      HOST_CONNECTION_FAILED,
      QUIZ_NOT_FOUND,
      QUIZ_NOT_HOSTABLE,
      QUIZZES_LOAD_FAILED.description,
    ])
      expect(codes.get(message), message).toBeDefined();
  });
});
