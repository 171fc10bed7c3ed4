/**
 * Every message the join and host forms can show is raised with a code of the `errors` catalog
 * whose English is the message word for word, so the browser says it in the page's language from
 * the code (docs/decisions/0047-errors-as-codes.md). The messages with numbers in them are built
 * from the game's rules: this fails when a rule changes and the catalog's English text no longer matches.
 */
import { describe, expect, it } from "vitest";
import { appError, type ErrorCode } from "#app/i18n/app-error";
import { englishOf, issueError } from "#app/i18n/coded";
import { HOST_NAME_MESSAGE, HostFormSchema, JoinFormSchema, QUIZZES_LOAD_FAILED } from "#app/schemas/form-schemas";
import { GAME_ALREADY_HOSTED, GAME_NOT_FOUND, GAME_NOT_YOURS, HOST_CONNECTION_FAILED, QUIZ_NOT_FOUND, QUIZ_NOT_HOSTABLE } from "#app/game-pages/game-messages";
import { parseForm } from "#app/forms/forms";

const form = (entries: Record<string, string>) => new URLSearchParams(entries);

/** Each refused field's message beside the code it was raised with. */
function messagesOf(submission: ReturnType<typeof parseForm>): string[] {
  if (submission.status !== "error") return [];
  return Object.entries(submission.errors).flatMap(([field, message]) => {
    if (!message) return [];
    const code = submission.codes[field];
    expect(code && englishOf(code), message).toBe(message);
    return [message];
  });
}

describe("the join and host forms' messages", () => {
  it("each have a code, for every way the join form can be refused", () => {
    const messages = [
      ...messagesOf(parseForm(form({ gameCode: "", nickname: "" }), JoinFormSchema)),
      ...messagesOf(parseForm(form({ nickname: "   " }), JoinFormSchema)),
      ...messagesOf(parseForm(form({ gameCode: "ABC123", nickname: "x".repeat(40) }), JoinFormSchema)),
      // A form post cannot carry half a character (the browser sends U+FFFD instead): the rule is checked on the schema itself.
      ...(JoinFormSchema.safeParse({ gameCode: "ABC123", nickname: "a\uD800b" }).error?.issues.map((issue) => {
        expect(englishOf(issueError(issue)!)).toBe(issue.message);
        return issue.message;
      }) ?? []),
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
  });

  it("each have a code, for every way the host form can be refused", () => {
    const messages = [
      ...messagesOf(parseForm(form({ quizCode: "", hostName: "" }), HostFormSchema)),
      ...messagesOf(parseForm(form({ quizCode: "AB", hostName: "x".repeat(40) }), HostFormSchema)),
      ...messagesOf(parseForm(form({ hostName: "Sam" }), HostFormSchema)),
    ];
    expect(messages).toContain("Host name must be between 2-15 characters");
    // The catalog's text follows the game's rules for a host name.
    expect(englishOf(appError("HOST_NAME_LENGTH"))).toBe(HOST_NAME_MESSAGE);
  });

  it("each have a code for what the actions and the page add", () => {
    const raised: [string, ErrorCode][] = [
      [GAME_NOT_FOUND, "GAME_NOT_FOUND"],
      [GAME_ALREADY_HOSTED, "GAME_ALREADY_HOSTED"],
      [GAME_NOT_YOURS, "GAME_NOT_YOURS"],
      [HOST_CONNECTION_FAILED, "HOST_CONNECTION_FAILED"],
      [QUIZ_NOT_FOUND, "QUIZ_NOT_FOUND"],
      [QUIZ_NOT_HOSTABLE, "QUIZ_NOT_HOSTABLE"],
      [QUIZZES_LOAD_FAILED.description, "QUIZZES_LOAD_FAILED"],
    ];
    for (const [message, code] of raised) expect(englishOf(appError(code)), message).toBe(message);
    expect(QUIZZES_LOAD_FAILED.codes?.description).toEqual(appError("QUIZZES_LOAD_FAILED"));
  });
});
