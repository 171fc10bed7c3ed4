/**
 * Validation raised with codes (docs/decisions/0047-errors-as-codes.md): a zod message given as
 * `coded("CODE", values)` keeps its English `message` and carries its code and values on the issue.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { coded, codedIssue, englishOf, issueError } from "#app/i18n/coded";

describe("coded zod messages", () => {
  it("keep the English message and stamp the code and values on the issue, for every kind of check", () => {
    const schema = z.object({
      title: z
        .string(coded("QUIZ_TITLE_REQUIRED"))
        .trim()
        .min(1, coded("QUIZ_TITLE_REQUIRED"))
        .max(3, coded("QUIZ_TITLE_TOO_LONG", { max: 3 })),
      count: z.number(coded("TIME_LIMIT_NOT_A_NUMBER")).refine((n) => n > 5, coded("TIME_LIMIT_TOO_SHORT", { seconds: 5 })),
    });
    const result = schema.safeParse({ title: "long title", count: 1 });
    expect(result.success).toBe(false);
    const issues = result.error!.issues;
    expect(issues.map((issue) => issue.message)).toEqual(["Keep the title under 3 characters.", "Time limit must be at least 5 seconds."]);
    expect(issues.map(issueError)).toEqual([
      { code: "QUIZ_TITLE_TOO_LONG", values: { max: 3 } },
      { code: "TIME_LIMIT_TOO_SHORT", values: { seconds: 5 } },
    ]);
    const missing = schema.safeParse({});
    expect(missing.error!.issues.map(issueError)).toEqual([{ code: "QUIZ_TITLE_REQUIRED" }, { code: "TIME_LIMIT_NOT_A_NUMBER" }]);
  });

  it("leave an issue raised without a code without one", () => {
    const result = z.string().min(1, "Plain words.").safeParse("");
    expect(result.error!.issues[0].message).toBe("Plain words.");
    expect(issueError(result.error!.issues[0])).toBeUndefined();
  });

  it("stamp an issue added by hand, and make English from the catalog with its values and plurals", () => {
    const schema = z.string().superRefine((_value, ctx) => ctx.addIssue({ code: "custom", ...codedIssue("QUESTION_EMPTY", { n: 3 }) }));
    const issue = schema.safeParse("x").error!.issues[0];
    expect(issue.message).toBe("Question 3 is empty.");
    expect(issueError(issue)).toEqual({ code: "QUESTION_EMPTY", values: { n: 3 } });
    expect(englishOf({ code: "AI_REASON_TOO_FEW", values: { count: 1, asked: 5 } })).toBe("it had 1 usable question instead of 5");
    expect(englishOf({ code: "AI_REASON_TOO_FEW", values: { count: 2, asked: 5 } })).toBe("it had 2 usable questions instead of 5");
  });
});
