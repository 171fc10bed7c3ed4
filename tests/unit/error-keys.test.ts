/**
 * Errors said from their code alone (docs/decisions/0047-errors-as-codes.md): every refusal the
 * engine and the socket raise names the exact `errors` key whose English is its message, and the
 * browser says an error in its language from that key and its values, a nested message included,
 * without reading the English.
 */
import { describe, expect, it } from "vitest";
import { kindRefusal, MESSAGES, reject, type EngineMessage } from "#app/game/engine/transition";
import { kindOf } from "#app/game/kinds";
import { appErrorOf, appError } from "#app/i18n/app-error";
import { englishOf } from "#app/i18n/coded";
import { translateError } from "#app/i18n/error-text";
import { pageMessages } from "#app/i18n/page-messages.server";
import { createCatalogTranslator } from "#app/i18n/translator";
import type { Language } from "#app/i18n/languages";
import { JOIN_LIMIT_KEYS, JOIN_LIMIT_MESSAGES } from "../../server/socket/join-limits";

const translator = (language: Language) => createCatalogTranslator(language, pageMessages(language).resources);

describe("the keys refusals are raised with", () => {
  it("give, in English, the engine's message word for word, for every text of a family", () => {
    for (const name of Object.keys(MESSAGES) as EngineMessage[]) {
      const { error } = reject("NOT_HOST", name);
      expect(englishOf({ code: error.key }), name).toBe(error.message);
    }
    expect(reject("NOT_HOST", "NOT_HOST_KICK").error).toEqual({ code: "NOT_HOST", key: "NOT_HOST_KICK", message: "Only the host can remove players." });
    // A kind's own refusal (a closest-number question's) is keyed and worded by the kind.
    expect(kindRefusal("NUMBER_REQUIRED", kindOf("closestNumber").refusals.NUMBER_REQUIRED).error).toEqual({
      code: "BAD_ANSWER",
      key: "NUMBER_REQUIRED",
      message: englishOf({ code: "NUMBER_REQUIRED" }),
    });
  });

  it("give, in English, each join limit's message", () => {
    for (const [name, key] of Object.entries(JOIN_LIMIT_KEYS)) expect(englishOf({ code: key })).toBe(JOIN_LIMIT_MESSAGES[name as keyof typeof JOIN_LIMIT_KEYS]);
  });
});

describe("translateError", () => {
  it("says a refusal in the page's language from its key, whatever its English", () => {
    expect(translateError(translator("de"), appError("NOT_HOST_KICK"), "Some other words")).toBe("Nur die Spielleitung kann Spieler entfernen.");
    expect(translateError(translator("en"), appError("NOT_HOST_KICK"))).toBe("Only the host can remove players.");
  });

  it("says a nested message in the same language, and writes a wait the reader's way", () => {
    const unusable = appError("AI_UNUSABLE", { reason: appError("AI_REASON_TOO_FEW", { count: 1, asked: 5 }) });
    expect(translateError(translator("de"), unusable)).toBe(
      "Der KI-Dienst hat kein brauchbares Quiz geliefert (die Antwort enthielt 1 brauchbare Frage statt 5). Bitte versuche es noch einmal, vielleicht mit einem genaueren Thema.",
    );
    expect(translateError(translator("de"), appError("LIMIT_QUIZZES", { wait: "5 minutes" }))).toBe(
      "Aus deinem Netzwerk wurden zu viele Quizze erstellt. Bitte versuche es in 5 Minuten noch einmal.",
    );
  });

  it("shows the English it came with when there is no code, or a code no catalog has", () => {
    expect(translateError(translator("de"), null, "Only API callers see this.")).toBe("Only API callers see this.");
    expect(translateError(translator("de"), { code: "NO_SUCH_CODE" as never }, "From a newer server.")).toBe("From a newer server.");
  });

  it("puts an API body's nested message back as the AppError it was raised as", () => {
    const body = { error: "…", code: "AI_UNUSABLE", values: { reason: "the reply was empty" }, valueErrors: { reason: { code: "AI_REASON_EMPTY" } } };
    expect(appErrorOf(body)).toEqual({ code: "AI_UNUSABLE", values: { reason: { code: "AI_REASON_EMPTY" } } });
    expect(appErrorOf({ values: { what: "Not found." } })).toBeNull();
  });
});

describe("errorBody", () => {
  it("sends a nested message in its English for API callers, and its own code beside it", async () => {
    const { errorBody } = await import("#app/http/api.server");
    expect(errorBody(appError("AI_UNUSABLE", { reason: appError("AI_REASON_EMPTY") }))).toEqual({
      error: "The AI service did not return a usable quiz (the reply was empty). Please try again, perhaps with a more specific topic.",
      code: "AI_UNUSABLE",
      values: { reason: "the reply was empty" },
      valueErrors: { reason: { code: "AI_REASON_EMPTY" } },
    });
    // A bare string is a message the interface never shows: no code is read out of its words.
    expect(errorBody("Quiz not found.")).toEqual({ error: "Quiz not found." });
  });
});

describe("importRefusalResponse", () => {
  it("answers an import's refusal by the code it was raised with, not by its words", async () => {
    const { importRefusalResponse } = await import("#app/http/api.server");
    const response = importRefusalResponse({
      reason: "too-large",
      message: "Words of its own.",
      error: appError("IMPORT_QUIZ_FILE_TOO_LARGE", { size: "2 MB" }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "Words of its own.", code: "IMPORT_QUIZ_FILE_TOO_LARGE", values: { size: "2 MB" } });
  });
});

describe("importRefusalResponse for a file's own problems", () => {
  it("answers each problem, and each row's, by the code it was raised with, not by its words", async () => {
    const { importRefusalResponse } = await import("#app/http/api.server");
    // Made-up words: a code found from the words would find none.
    const row = appError("IMPORT_ROW_PROBLEM", { row: 4, message: appError("IMPORT_CORRECT_TRUE_FALSE") });
    const response = importRefusalResponse({
      reason: "invalid-file",
      message: "Words of its own.",
      error: row,
      fieldErrors: { file: ["Words of its own."] },
      rows: [{ row: 4, message: "Row words of its own.", error: row }],
    });
    expect(response.status).toBe(400);
    const coded = {
      code: "IMPORT_ROW_PROBLEM",
      values: { row: 4, message: "Correct must be true or false." },
      valueErrors: { message: { code: "IMPORT_CORRECT_TRUE_FALSE" } },
    };
    expect(await response.json()).toEqual({
      error: "Words of its own.",
      ...coded,
      fieldErrors: { file: ["Words of its own."] },
      rows: [{ row: 4, message: "Row words of its own.", ...coded }],
    });
  });

  it("answers a quiz file's problem by its code, and one zod words itself with its words alone", async () => {
    const { importRefusalResponse } = await import("#app/http/api.server");
    const coded = importRefusalResponse({
      reason: "invalid-file",
      message: "Words of its own.",
      error: appError("IMPORT_QUESTION_PROBLEM", { n: 2, message: appError("PICTURE_UNSUPPORTED") }),
      fieldErrors: { "questions.1.image": ["Pictures must be PNG, JPEG, WebP or GIF."] },
    });
    expect(await coded.json()).toEqual({
      error: "Words of its own.",
      code: "IMPORT_QUESTION_PROBLEM",
      values: { n: 2, message: "Pictures must be PNG, JPEG, WebP or GIF." },
      valueErrors: { message: { code: "PICTURE_UNSUPPORTED" } },
      fieldErrors: { "questions.1.image": ["Pictures must be PNG, JPEG, WebP or GIF."] },
    });
    const uncoded = importRefusalResponse({ reason: "invalid-file", message: "Quiz not found.", fieldErrors: { _form: ["Quiz not found."] } });
    expect(await uncoded.json()).toEqual({ error: "Quiz not found.", fieldErrors: { _form: ["Quiz not found."] } });
  });
});
