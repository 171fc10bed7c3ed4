/**
 * The quiz pages' error messages in every language: the server and the shared rules speak English,
 * numbers and all ("Question 3 is empty.", "Row 4: ..."), and the page shows each one in its own
 * language through the `errors` catalog (app/i18n/error-templates.ts).
 */
import { describe, expect, it } from "vitest";
import { AI_LANGUAGE_MESSAGE, GenerateQuizSchema, TOPIC_REQUIRED, GENERATION_FAILED } from "#app/ai/options";
import { AI_NOT_CONFIGURED } from "#app/ai/quiz-generator.server";
import { QuestionInputSchema } from "#app/game/question-input";
import { errorTextOf } from "#app/i18n/error-codes.server";
import { errorTemplatesOf, errorTextIn } from "#app/i18n/error-templates";
import { pageMessages } from "#app/i18n/page-messages.server";
import { createCatalogTranslator, type Translator } from "#app/i18n/translator";
import { LANGUAGES, type Language } from "#app/i18n/languages";
import { CANNOT_REMOVE_QUESTION, CREATE_QUIZ_FAILED } from "#app/schemas/form-schemas";
import { QUIZ_NOT_FOUND, QUIZ_NOT_HOSTABLE } from "#app/game-pages/game-messages";
import { UNREADABLE_PICTURE_MESSAGE, UNSUPPORTED_PICTURE_MESSAGE } from "#app/pictures/image-processing.server";
import { checkQuizDraft, emptyQuestionDraft, emptyQuizDraft, quizErrorToast, type QuizDraft } from "#app/schemas/quiz-form-schema";
import { NOT_A_QUIZ_FILE, quizFileTooLargeMessage, spreadsheetTooLargeMessage, UNKNOWN_QUIZ_FILE_VERSION } from "#app/quiz-files/quiz-file";
import { prepareImport } from "#app/models/quiz-transfer.server";
import { parseQuizSpreadsheet } from "#app/quiz-files/quiz-spreadsheet.server";
import { DEFAULT_LIMIT_RULES, describeWait } from "#app/limits/rate-limits.server";
import { overStorageMessage, pictureTooLargeMessage } from "#app/pictures/storage-limits";

/** As in the browser: the page's catalogs. */
const translators = Object.fromEntries(LANGUAGES.map((language) => [language, createCatalogTranslator(language, pageMessages(language).resources)])) as Record<
  Language,
  Translator
>;
const text = (language: Language, message: string, code?: string) => errorTextIn(translators[language], message, code);

const draft = (change: Partial<QuizDraft>): QuizDraft => ({ ...emptyQuizDraft(), title: "T", ...change });

/** What the editor's rules say about drafts with one thing wrong each. */
function editorMessages(): string[] {
  const drafts: QuizDraft[] = [
    draft({ title: "", questions: [emptyQuestionDraft()] }),
    draft({ title: "x".repeat(201), description: "y".repeat(2001), timeLimit: 7, visibility: "friends" }),
    draft({ questions: [{ ...emptyQuestionDraft(), text: "Q", answers: ["a"] }] }),
    draft({ questions: [{ ...emptyQuestionDraft("multiSelect"), text: "Q", answers: ["a", "b"] }] }),
    draft({ questions: [{ ...emptyQuestionDraft("typeAnswer"), text: "Q" }] }),
    draft({ questions: [{ ...emptyQuestionDraft("closestNumber"), text: "Q", correctNumber: "lots" }] }),
    draft({ questions: [{ ...emptyQuestionDraft(), text: "Q".repeat(501), answers: ["a".repeat(201), "b"] }] }),
    draft({ questions: [] }),
  ];
  return drafts.flatMap((one) => {
    const checked = checkQuizDraft(one);
    if (checked.ok) throw new Error("a draft meant to be refused was accepted");
    const toast = quizErrorToast(checked.errors);
    return [...Object.values(checked.errors), toast.title, toast.description];
  });
}

async function spreadsheetMessages(): Promise<string[]> {
  const csv = [
    "Question,Kind,Answer 1,Answer 2,Answer 3,Answer 4,Answer 5,Answer 6,Correct,Time limit,Points",
    "Q1,essay,a,b,,,,,1,,",
    "Q2,choice,a,b,,,,,7,,",
    "Q3,choice,a,b,,,,,3,,",
    "Q4,choice,a,b,,,,,1 2,,",
    "Q5,true-false,,,,,,,maybe,,",
    "Q6,closest-number,a,,,,,,,,",
    "Q7,choice,a,,,,,,1,,",
    "Q8,choice,a,b,,,,,1,999,triple",
  ].join("\n");
  const result = await parseQuizSpreadsheet(new TextEncoder().encode(csv), "quiz.csv");
  if (result.status !== "invalid") throw new Error("a spreadsheet meant to be refused was accepted");
  return result.errors.map((error) => error.message);
}

/** What a spreadsheet that cannot be read as one says. */
async function unreadableSpreadsheetMessages(): Promise<string[]> {
  const header = "Question,Kind,Answer 1,Answer 2,Correct";
  const unclosed = await parseQuizSpreadsheet(new TextEncoder().encode(`${header}\nQ1,choice,a,b,1\n"Q2,choice,a,b,1\n`), "quiz.csv");
  if (unclosed.status !== "invalid") throw new Error("a spreadsheet meant to be refused was accepted");
  return unclosed.errors.map((error) => error.message);
}

/** What a quiz file of the wrong shapes says: none of zod's own English. */
async function quizFileMessages(): Promise<string[]> {
  const base = { format: "quiz-night.quiz", version: 1, title: "T" };
  const files: unknown[] = [
    "a string",
    [base],
    { ...base, questions: ["not a question"] },
    { ...base, questions: [null] },
    { ...base, description: 7, questions: [{ kind: "poll", text: "Q", answers: ["a", "b"] }] },
  ];
  const messages: string[] = [];
  for (const file of files) {
    const result = await prepareImport({ file, isPublic: false });
    if (result.status !== "invalid") throw new Error(`a quiz file meant to be refused was accepted: ${JSON.stringify(file)}`);
    messages.push(result.message, ...Object.values(result.fieldErrors ?? {}).flat());
  }
  return messages;
}

function schemaMessages(): string[] {
  const inputs: unknown[] = [
    { kind: "choice", text: "", answers: ["a"], correctAnswerIndex: 9 },
    { kind: "trueFalse", text: "Q", correctAnswerIndex: 3 },
    { kind: "multiSelect", text: "Q", answers: ["a", "b"], correctAnswerIndexes: [1, 1, 5] },
    { kind: "typeAnswer", text: "Q", acceptedAnswers: ["", "!!!", "x".repeat(101)] },
    { kind: "closestNumber", text: "Q", correctNumber: 1e15, timeLimit: 1000, points: "lots" },
    { kind: "essay", text: "Q" },
  ];
  const questions = inputs.flatMap((input) => QuestionInputSchema.safeParse(input).error?.issues.map((issue) => issue.message) ?? []);
  const requests: unknown[] = [
    { topic: "" },
    { topic: "x".repeat(201), title: "y".repeat(201), difficulty: "extreme", kinds: "essay", questionCount: 99, timeLimit: 7, language: "it" },
  ];
  const ai = requests.flatMap((input) => GenerateQuizSchema.safeParse(input).error?.issues.map((issue) => issue.message) ?? []);
  return [...questions, ...ai];
}

const limitMessages = (["quiz", "question", "game", "image", "aiAddress", "aiServer"] as const).flatMap((name) =>
  [30, 300, 3 * 3600].map((seconds) => DEFAULT_LIMIT_RULES[name].message.replace("{wait}", describeWait(seconds))),
);

const fixedMessages = [
  QUIZ_NOT_FOUND,
  QUIZ_NOT_HOSTABLE,
  CANNOT_REMOVE_QUESTION.title,
  CREATE_QUIZ_FAILED.title,
  CREATE_QUIZ_FAILED.description,
  TOPIC_REQUIRED.title,
  GENERATION_FAILED.title,
  GENERATION_FAILED.description,
  AI_NOT_CONFIGURED,
  AI_LANGUAGE_MESSAGE,
  NOT_A_QUIZ_FILE,
  UNKNOWN_QUIZ_FILE_VERSION,
  quizFileTooLargeMessage(),
  spreadsheetTooLargeMessage(),
  pictureTooLargeMessage(),
  overStorageMessage(49.8 * 1024 * 1024, 50 * 1024 * 1024),
  UNSUPPORTED_PICTURE_MESSAGE,
  UNREADABLE_PICTURE_MESSAGE,
  "The AI service had a problem (HTTP 500). Please try again.",
  "The AI service did not return a usable quiz (the reply was not valid JSON). Please try again, perhaps with a more specific topic.",
  "The AI service did not return a usable quiz (the reply did not follow the requested JSON schema). Please try again, perhaps with a more specific topic.",
  "The AI service did not return a usable quiz (the reply was cut off before it ended). Please try again, perhaps with a more specific topic.",
  "The AI service did not return a usable quiz (the reply was empty). Please try again, perhaps with a more specific topic.",
  "The AI service did not return a usable quiz (it had 1 usable question instead of 5). Please try again, perhaps with a more specific topic.",
  "The AI service did not return a usable quiz (it had 3 usable questions instead of 10). Please try again, perhaps with a more specific topic.",
  "Question 2: A question needs 2 to 6 answers.",
];

describe("the quiz pages' error messages", () => {
  it("reads the catalog's English texts with values as patterns", () => {
    const [template] = errorTemplatesOf({ X: "Row {{row}}: {{message}}" });
    expect(template.code).toBe("X");
    expect(template.names).toEqual(["row", "message"]);
    expect(template.pattern.exec("Row 12: Something (odd).")?.slice(1)).toEqual(["12", "Something (odd)."]);
  });

  it("finds a message by its words, with the values it was built with", () => {
    expect(text("de", "Quiz not found.")).toBe("Quiz nicht gefunden.");
    expect(text("de", "Question 3 is empty.")).toBe("Frage 3 ist leer.");
    expect(text("es", "Question 12 has an empty answer option.")).toBe("La pregunta 12 tiene una opción de respuesta vacía.");
    expect(text("fr", "Row 4: Correct names answer 3, which is empty.")).toBe("Ligne 4 : Correct désigne la réponse 3, qui est vide.");
  });

  it("says the reasons inside a message in the reader's language too: an AI reply's, a CSV file's", async () => {
    expect(
      text("de", "The AI service did not return a usable quiz (it had 1 usable question instead of 5). Please try again, perhaps with a more specific topic."),
    ).toBe(
      "Der KI-Dienst hat kein brauchbares Quiz geliefert (die Antwort enthielt 1 brauchbare Frage statt 5). Bitte versuche es noch einmal, vielleicht mit einem genaueren Thema.",
    );
    expect(
      text("es", "The AI service did not return a usable quiz (the reply was not valid JSON). Please try again, perhaps with a more specific topic."),
    ).toBe("El servicio de IA no devolvió un cuestionario utilizable (la respuesta no era JSON válido). Inténtalo de nuevo, quizá con un tema más concreto.");
    const [unclosed] = await unreadableSpreadsheetMessages();
    expect(unclosed).toBe("This CSV file could not be read: a quotation mark is opened and never closed (the file ends inside it, at line 3).");
    expect(text("fr", unclosed)).toBe(
      "Impossible de lire ce fichier CSV : un guillemet est ouvert et jamais fermé (le fichier se termine à l’intérieur, à la ligne 3).",
    );
    for (const message of await quizFileMessages()) expect(message).not.toMatch(/^Invalid input|: Invalid input/);
  });

  it("writes numbers, waits and sizes the reader's way", () => {
    expect(text("de", "Keep the description under 2000 characters.")).toBe("Die Beschreibung darf höchstens 2.000 Zeichen lang sein.");
    expect(text("de", "Too many quizzes were created from your network. Please try again in 5 minutes.")).toBe(
      "Aus deinem Netzwerk wurden zu viele Quizze erstellt. Bitte versuche es in 5 Minuten noch einmal.",
    );
    // Intl puts a (narrow) no-break space between the number and its unit in French.
    expect(text("fr", "Pictures can be at most 5 MB.")).toMatch(/^Les images ne doivent pas dépasser 5\sMo\.$/);
    expect(text("de", "Your pictures use 49.8 MB of your 50 MB. Delete a quiz with pictures or upgrade your plan.")).toBe(
      "Deine Bilder belegen 49,8 MB von 50 MB. Lösche ein Quiz mit Bildern oder upgrade deinen Tarif.",
    );
  });

  it("leaves English, and a message it does not know, as they came", () => {
    expect(text("en", "Question 3 is empty.")).toBe("Question 3 is empty.");
    expect(text("de", "Something nobody wrote down.")).toBe("Something nobody wrote down.");
    expect(text("de", "")).toBe("");
  });

  it("has every message the editor, import, My Quizzes and the AI generator can show, in every language", async () => {
    const messages = [
      ...new Set([
        ...editorMessages(),
        ...(await spreadsheetMessages()),
        ...(await unreadableSpreadsheetMessages()),
        ...(await quizFileMessages()),
        ...schemaMessages(),
        ...limitMessages,
        ...fixedMessages,
      ]),
    ];
    expect(messages.length).toBeGreaterThan(60);
    for (const language of LANGUAGES.filter((one) => one !== "en")) {
      const untranslated = messages.filter((message) => text(language, message) === message);
      expect(untranslated, `English left in ${language}`).toEqual([]);
    }
  });

  it("gives the server every such message's code and values, which say it again in English and in every language", async () => {
    const messages = [...new Set([...editorMessages(), ...(await spreadsheetMessages()), ...schemaMessages(), ...limitMessages, ...fixedMessages])];
    const english = translators.en.fixedT("errors");
    for (const message of messages) {
      const found = errorTextOf(message);
      expect(found, message).toBeDefined();
      expect(english(found!.code, found!.values), message).toBe(message);
      for (const language of LANGUAGES.filter((one) => one !== "en"))
        expect(errorTextIn(translators[language], message, found!.code, found!.values)).toBe(text(language, message));
    }
    expect(errorTextOf("Too many quizzes were created from your network. Please try again in 5 minutes.")).toEqual({
      code: "LIMIT_QUIZZES",
      values: { wait: "5 minutes" },
    });
    expect(errorTextOf("Row 4: Correct must be true or false.")).toEqual({
      code: "IMPORT_ROW_PROBLEM",
      values: { row: 4, message: "Correct must be true or false." },
    });
    expect(errorTextOf("Quiz not found.")).toEqual({ code: "QUIZ_NOT_FOUND" });
    expect(errorTextOf("Something nobody wrote down.")).toBeUndefined();
  });
});
