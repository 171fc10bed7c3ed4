/**
 * Planning a night (`/night/new`): the plan's schema (through the one form helper, as the action
 * reads a post), the plan's buttons (add, remove, move a round) and the messages, which name their
 * round and read in every language.
 */
import { describe, expect, it } from "vitest";
import { MAX_ROUNDS } from "#app/game/rules";
import { appError, type AppError } from "#app/i18n/app-error";
import { englishOf, issueError } from "#app/i18n/coded";
import { translateError } from "#app/i18n/error-text";
import { LANGUAGES, type Language } from "#app/i18n/languages";
import { pageMessages } from "#app/i18n/page-messages.server";
import { createCatalogTranslator, type Translator } from "#app/i18n/translator";
import {
  NIGHT_TITLE_MESSAGE,
  NIGHT_TITLE_TOO_LONG_MESSAGE,
  NightDraftSchema,
  NightFormSchema,
  nightRoundQuizMessage,
  nightRoundTitleMessage,
} from "#app/schemas/form-schemas";
import { parseForm } from "#app/forms/forms";
import {
  applyNightIntent,
  emptyNightDraft,
  fieldIdOf,
  fieldNameOf,
  NIGHT_ROUND_COUNT_ERROR,
  NIGHT_ROUND_COUNT_MESSAGE,
  nightRefusalError,
  nightRefusalMessage,
  type NightDraft,
  type NightRoundDraft,
} from "#app/nights/night-plan";

/** A posted plan, as the page's fields name its values. */
function post(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

const round = (quizId: string, title = ""): NightRoundDraft => ({ quizId, title });
const plan = (rounds: NightRoundDraft[], title = "Friday night"): NightDraft => ({ title, rounds });

describe("NightFormSchema", () => {
  it("reads a posted plan into the night to host: trimmed titles, quiz ids as numbers, an empty round title left to the quiz", () => {
    const submission = parseForm(
      post({ title: "  Friday night ", "rounds[0].quizId": "3", "rounds[0].title": " Warm-up ", "rounds[1].quizId": "12", "rounds[1].title": "" }),
      NightFormSchema,
    );
    expect(submission).toMatchObject({
      status: "success",
      value: {
        title: "Friday night",
        rounds: [{ quizId: 3, title: "Warm-up" }, { quizId: 12 }],
      },
    });
    if (submission.status === "success") expect(submission.value.rounds[1]).not.toHaveProperty("title");
  });

  it("names the round of every message, on the field it is about, all at once", () => {
    const submission = parseForm(
      post({ title: " ", "rounds[0].quizId": "3", "rounds[1].quizId": "", "rounds[2].quizId": "abc", "rounds[2].title": "x".repeat(201) }),
      NightFormSchema,
    );
    expect(submission.status).toBe("error");
    if (submission.status !== "error") return;
    expect(submission.errors).toEqual({
      title: NIGHT_TITLE_MESSAGE,
      "rounds[1].quizId": "Round 2: choose a quiz.",
      "rounds[2].quizId": "Round 3: choose a quiz.",
      "rounds[2].title": "Round 3: keep the round's title under 200 characters.",
    });
  });

  it("takes 2 to MAX_ROUNDS rounds", () => {
    const rounds = (count: number) => Array.from({ length: count }, (_, index) => round(String(index + 1)));
    expect(NightFormSchema.safeParse(plan(rounds(2))).success).toBe(true);
    expect(NightFormSchema.safeParse(plan(rounds(MAX_ROUNDS))).success).toBe(true);
    for (const count of [0, 1, MAX_ROUNDS + 1]) {
      const result = NightFormSchema.safeParse(plan(rounds(count)));
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => [fieldNameOf(issue.path), issue.message])).toEqual([["rounds", "A night has 2 to 10 rounds."]]);
    }
  });

  it("refuses a title longer than a quiz's", () => {
    expect(NightFormSchema.safeParse(plan([round("1"), round("2")], "x".repeat(200))).success).toBe(true);
    const result = NightFormSchema.safeParse(plan([round("1"), round("2")], "x".repeat(201)));
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([NIGHT_TITLE_TOO_LONG_MESSAGE]);
  });
});

describe("NightDraftSchema", () => {
  it("reads any post back as the page shows it, with the button that sent it (hosting when none)", () => {
    expect(parseForm(post({ title: "T", "rounds[0].quizId": "3", "rounds[1].title": "Pictures" }), NightDraftSchema)).toMatchObject({
      status: "success",
      value: { intent: "host", draft: { title: "T", rounds: [round("3"), round("", "Pictures")] } },
    });
    expect(parseForm(post({ intent: "add-round" }), NightDraftSchema)).toMatchObject({
      status: "success",
      value: { intent: "add-round", draft: { title: "", rounds: [] } },
    });
  });

  it("keeps a round whose fields were all empty in its place", () => {
    const submission = parseForm(post({ "rounds[0].quizId": "1", "rounds[2].quizId": "3" }), NightDraftSchema);
    expect(submission.status === "success" && submission.value.draft.rounds).toEqual([round("1"), round(""), round("3")]);
  });
});

describe("applyNightIntent", () => {
  const three = plan([round("1", "A"), round("2", "B"), round("3", "C")]);

  it("adds an empty round at the end, up to MAX_ROUNDS", () => {
    expect(applyNightIntent(three, "add-round")).toEqual({ draft: plan([...three.rounds, round("")]), focus: 3 });
    const full = plan(Array.from({ length: MAX_ROUNDS }, (_, index) => round(String(index))));
    expect(applyNightIntent(full, "add-round")).toEqual({ error: NIGHT_ROUND_COUNT_MESSAGE, code: { code: "NIGHT_ROUND_COUNT", values: { min: 2, max: 10 } } });
  });

  it("removes a round, never below two", () => {
    expect(applyNightIntent(three, "remove-round-1")).toEqual({ draft: plan([round("1", "A"), round("3", "C")]), focus: 0 });
    expect(applyNightIntent(emptyNightDraft(), "remove-round-0")).toEqual({
      error: NIGHT_ROUND_COUNT_MESSAGE,
      code: { code: "NIGHT_ROUND_COUNT", values: { min: 2, max: 10 } },
    });
    expect(applyNightIntent(three, "remove-round-7")).toEqual({ draft: three, focus: 0 });
  });

  it("moves a round up or down, and nowhere past the ends", () => {
    expect(applyNightIntent(three, "move-round-2-up")).toEqual({ draft: plan([round("1", "A"), round("3", "C"), round("2", "B")]), focus: 1 });
    expect(applyNightIntent(three, "move-round-0-down")).toEqual({ draft: plan([round("2", "B"), round("1", "A"), round("3", "C")]), focus: 1 });
    expect(applyNightIntent(three, "move-round-0-up")).toEqual({ draft: three, focus: 0 });
    expect(applyNightIntent(three, "move-round-2-down")).toEqual({ draft: three, focus: 2 });
  });

  it("is not about hosting the night or anything else", () => {
    expect(applyNightIntent(three, "host")).toBeNull();
    expect(applyNightIntent(three, "add-question")).toBeNull();
  });
});

describe("field names and ids", () => {
  it("writes an error's path as conform names the field, and the field's id from its name", () => {
    expect(fieldNameOf(["rounds", 1, "quizId"])).toBe("rounds[1].quizId");
    expect(fieldNameOf(["title"])).toBe("title");
    expect(fieldIdOf("rounds[1].quizId")).toBe("rounds-1-quizId");
    expect(fieldIdOf("rounds[10].title")).toBe("rounds-10-title");
    expect(fieldIdOf("title")).toBe("title");
  });
});

describe("the plan's messages", () => {
  const translators = Object.fromEntries(
    LANGUAGES.map((language) => [language, createCatalogTranslator(language, pageMessages(language).resources)]),
  ) as Record<Language, Translator>;
  // Each message and the code it is raised with (docs/decisions/0047-errors-as-codes.md).
  const messages: [string, AppError][] = [
    [NIGHT_TITLE_MESSAGE, appError("NIGHT_TITLE_REQUIRED")],
    [NIGHT_TITLE_TOO_LONG_MESSAGE, appError("NIGHT_TITLE_TOO_LONG", { max: 200 })],
    [NIGHT_ROUND_COUNT_MESSAGE, NIGHT_ROUND_COUNT_ERROR],
    [nightRoundQuizMessage(2), appError("NIGHT_ROUND_NO_QUIZ", { n: 2 })],
    [nightRoundTitleMessage(3), appError("NIGHT_ROUND_TITLE_TOO_LONG", { n: 3, max: 200 })],
    [nightRefusalMessage("not-found", 0), nightRefusalError("not-found", 0)],
    [nightRefusalMessage("forbidden", 1), nightRefusalError("forbidden", 1)],
    [nightRefusalMessage("empty", 2), nightRefusalError("empty", 2)],
  ];

  it("are raised with their codes, whose English is each message word for word", () => {
    for (const [message, error] of messages) expect(englishOf(error), message).toBe(message);
    const refused = NightFormSchema.safeParse(plan([round(""), round("1", "x".repeat(201))], " "));
    expect(refused.error?.issues.map(issueError)).toEqual([
      appError("NIGHT_TITLE_REQUIRED"),
      appError("NIGHT_ROUND_NO_QUIZ", { n: 1 }),
      appError("NIGHT_ROUND_TITLE_TOO_LONG", { n: 2, max: 200 }),
    ]);
  });

  it("name the round the model refused, counted from 1", () => {
    expect(nightRefusalMessage("not-found", 0)).toBe("Round 1: that quiz no longer exists. Choose another one.");
    expect(nightRefusalMessage("forbidden", 1)).toBe("Round 2: that quiz is private. Only its creator can host it.");
    expect(nightRefusalMessage("empty", 2)).toBe("Round 3: that quiz has no questions yet.");
  });

  for (const language of LANGUAGES.filter((language) => language !== "en")) {
    it(`read in ${language}, with their round's number`, () => {
      for (const [message, error] of messages) expect(translateError(translators[language], error), message).not.toBe(message);
    });
  }

  it("say the round in German", () => {
    expect(translateError(translators.de, appError("NIGHT_ROUND_NO_QUIZ", { n: 2 }))).toBe("Runde 2: Wähle ein Quiz aus.");
    expect(translateError(translators.fr, nightRefusalError("empty", 2))).toBe("Manche 3 : ce quiz n’a pas encore de questions.");
  });
});
