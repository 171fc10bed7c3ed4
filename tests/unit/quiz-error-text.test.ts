/**
 * The quiz pages' error messages in every language: the server and the shared rules raise each
 * with its code and values ("Question 3 is empty." is QUESTION_EMPTY with n = 3, "Row 4: ..." is
 * IMPORT_ROW_PROBLEM with the row's own problem nested), whose English is the message word for
 * word, and the page says it in its own language from the code alone
 * (docs/decisions/0047-errors-as-codes.md).
 */
import { describe, expect, it } from "vitest";
import { AI_LANGUAGE_MESSAGE, GenerateQuizSchema, TOPIC_REQUIRED, GENERATION_FAILED } from "#app/ai/options";
import { AI_NOT_CONFIGURED } from "#app/ai/quiz-generator.server";
import { QuestionInputSchema } from "#app/game/question-input";
import { appError, type AppError } from "#app/i18n/app-error";
import { englishOf, issueError } from "#app/i18n/coded";
import { translateError } from "#app/i18n/error-text";
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
import { DEFAULT_LIMIT_RULES, describeWait, LIMIT_CODES } from "#app/limits/rate-limits.server";
import { overStorageError, overStorageMessage, pictureTooLargeError, pictureTooLargeMessage } from "#app/pictures/storage-limits";

/** As in the browser: the page's catalogs. */
const translators = Object.fromEntries(LANGUAGES.map((language) => [language, createCatalogTranslator(language, pageMessages(language).resources)])) as Record<
  Language,
  Translator
>;
const text = (language: Language, error: AppError | null | undefined, english?: string) => translateError(translators[language], error, english);

/** A message and the code it is raised with. */
type Raised = [english: string, error: AppError];

const draft = (change: Partial<QuizDraft>): QuizDraft => ({ ...emptyQuizDraft(), title: "T", ...change });

/** What the editor's rules say about drafts with one thing wrong each: every message with its code, and the toast's. */
function editorMessages(): Raised[] {
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
    expect(Object.keys(checked.codes)).toEqual(Object.keys(checked.errors));
    const toast = quizErrorToast(checked);
    return [
      ...Object.entries(checked.errors).map(([field, message]): Raised => [message, checked.codes[field]]),
      [toast.title, toast.codes!.title!],
      [toast.description, toast.codes!.description!],
    ];
  });
}

/** A spreadsheet's problems, each raised with its code (a row's own problem nested). */
async function spreadsheetMessages(): Promise<Raised[]> {
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
  return result.errors.map((error): Raised => [error.message, error.error]);
}

/** What a spreadsheet that cannot be read as one says. */
async function unreadableSpreadsheetMessages(): Promise<Raised[]> {
  const header = "Question,Kind,Answer 1,Answer 2,Correct";
  const unclosed = await parseQuizSpreadsheet(new TextEncoder().encode(`${header}\nQ1,choice,a,b,1\n"Q2,choice,a,b,1\n`), "quiz.csv");
  if (unclosed.status !== "invalid") throw new Error("a spreadsheet meant to be refused was accepted");
  return unclosed.errors.map((error): Raised => [error.message, error.error]);
}

/** What a quiz file of the wrong shapes says: none of zod's own English, and the first problem by its code. */
async function quizFileMessages(): Promise<Raised[]> {
  const base = { format: "quiz-night.quiz", version: 1, title: "T" };
  const files: unknown[] = [
    "a string",
    [base],
    { ...base, questions: ["not a question"] },
    { ...base, questions: [null] },
    { ...base, description: 7, questions: [{ kind: "poll", text: "Q", answers: ["a", "b"] }] },
  ];
  const raised: Raised[] = [];
  for (const file of files) {
    const result = await prepareImport({ file, isPublic: false });
    if (result.status !== "invalid") throw new Error(`a quiz file meant to be refused was accepted: ${JSON.stringify(file)}`);
    for (const message of [result.message, ...Object.values(result.fieldErrors ?? {}).flat()]) expect(message).not.toMatch(/^Invalid input|: Invalid input/);
    expect(result.error, result.message).toBeDefined();
    raised.push([result.message, result.error!]);
  }
  return raised;
}

/** The shared rules' issues, each with the code its rule stamped on it. */
function schemaMessages(): Raised[] {
  const inputs: unknown[] = [
    { kind: "choice", text: "", answers: ["a"], correctAnswerIndex: 9 },
    { kind: "trueFalse", text: "Q", correctAnswerIndex: 3 },
    { kind: "multiSelect", text: "Q", answers: ["a", "b"], correctAnswerIndexes: [1, 1, 5] },
    { kind: "typeAnswer", text: "Q", acceptedAnswers: ["", "!!!", "x".repeat(101)] },
    { kind: "closestNumber", text: "Q", correctNumber: 1e15, timeLimit: 1000, points: "lots" },
    { kind: "essay", text: "Q" },
  ];
  const requests: unknown[] = [
    { topic: "" },
    { topic: "x".repeat(201), title: "y".repeat(201), difficulty: "extreme", kinds: "essay", questionCount: 99, timeLimit: 7, language: "it" },
  ];
  const issues = [
    ...inputs.flatMap((input) => QuestionInputSchema.safeParse(input).error?.issues ?? []),
    ...requests.flatMap((input) => GenerateQuizSchema.safeParse(input).error?.issues ?? []),
  ];
  return issues.map((issue): Raised => {
    const error = issueError(issue);
    expect(error, issue.message).toBeDefined();
    return [issue.message, error!];
  });
}

const limitMessages = (["quiz", "question", "game", "image", "aiAddress", "aiServer"] as const).flatMap((name) =>
  [30, 300, 3 * 3600].map((seconds): Raised => [
    DEFAULT_LIMIT_RULES[name].message.replace("{wait}", describeWait(seconds)),
    appError(LIMIT_CODES[name], { wait: describeWait(seconds) }),
  ]),
);

const aiUnusable = (reason: AppError) => appError("AI_UNUSABLE", { reason });

const fixedMessages: Raised[] = [
  [QUIZ_NOT_FOUND, appError("QUIZ_NOT_FOUND")],
  [QUIZ_NOT_HOSTABLE, appError("QUIZ_NOT_HOSTABLE")],
  [CANNOT_REMOVE_QUESTION.title, CANNOT_REMOVE_QUESTION.codes!.title!],
  [CREATE_QUIZ_FAILED.title, CREATE_QUIZ_FAILED.codes!.title!],
  [CREATE_QUIZ_FAILED.description, CREATE_QUIZ_FAILED.codes!.description!],
  [TOPIC_REQUIRED.title, TOPIC_REQUIRED.codes.title],
  [GENERATION_FAILED.title, GENERATION_FAILED.codes.title],
  [GENERATION_FAILED.description, GENERATION_FAILED.codes.description],
  [AI_NOT_CONFIGURED, appError("AI_NOT_CONFIGURED")],
  [AI_LANGUAGE_MESSAGE, appError("AI_LANGUAGE_CHOICE")],
  [NOT_A_QUIZ_FILE, appError("IMPORT_NOT_A_QUIZ_FILE")],
  [UNKNOWN_QUIZ_FILE_VERSION, appError("IMPORT_QUIZ_FILE_VERSION", { version: 1 })],
  [quizFileTooLargeMessage(), appError("IMPORT_QUIZ_FILE_TOO_LARGE", { size: "40 MB" })],
  [spreadsheetTooLargeMessage(), appError("IMPORT_SPREADSHEET_TOO_LARGE", { size: "2 MB" })],
  [pictureTooLargeMessage(), pictureTooLargeError()],
  [overStorageMessage(49.8 * 1024 * 1024, 50 * 1024 * 1024), overStorageError(49.8 * 1024 * 1024, 50 * 1024 * 1024)],
  [UNSUPPORTED_PICTURE_MESSAGE, appError("PICTURE_UNSUPPORTED")],
  [UNREADABLE_PICTURE_MESSAGE, appError("PICTURE_UNREADABLE")],
  ["The AI service had a problem (HTTP 500). Please try again.", appError("AI_SERVICE_PROBLEM", { status: 500 })],
  [
    "The AI service did not return a usable quiz (the reply was not valid JSON). Please try again, perhaps with a more specific topic.",
    aiUnusable(appError("AI_REASON_NOT_JSON")),
  ],
  [
    "The AI service did not return a usable quiz (the reply did not follow the requested JSON schema). Please try again, perhaps with a more specific topic.",
    aiUnusable(appError("AI_REASON_NOT_IN_SCHEMA")),
  ],
  [
    "The AI service did not return a usable quiz (the reply was cut off before it ended). Please try again, perhaps with a more specific topic.",
    aiUnusable(appError("AI_REASON_CUT_OFF")),
  ],
  [
    "The AI service did not return a usable quiz (the reply was empty). Please try again, perhaps with a more specific topic.",
    aiUnusable(appError("AI_REASON_EMPTY")),
  ],
  [
    "The AI service did not return a usable quiz (it had 1 usable question instead of 5). Please try again, perhaps with a more specific topic.",
    aiUnusable(appError("AI_REASON_TOO_FEW", { count: 1, asked: 5 })),
  ],
  [
    "The AI service did not return a usable quiz (it had 3 usable questions instead of 10). Please try again, perhaps with a more specific topic.",
    aiUnusable(appError("AI_REASON_TOO_FEW", { count: 3, asked: 10 })),
  ],
  ["Question 2: A question needs 2 to 6 answers.", appError("IMPORT_QUESTION_PROBLEM", { n: 2, message: appError("ANSWER_COUNT", { min: 2, max: 6 }) })],
];

describe("the quiz pages' error messages", () => {
  it("says a message from its code and values", () => {
    expect(text("de", appError("QUIZ_NOT_FOUND"))).toBe("Quiz nicht gefunden.");
    expect(text("de", appError("QUESTION_EMPTY", { n: 3 }))).toBe("Frage 3 ist leer.");
    expect(text("es", appError("QUESTION_EMPTY_ANSWER", { n: 12 }))).toBe("La pregunta 12 tiene una opción de respuesta vacía.");
    expect(text("fr", appError("IMPORT_ROW_PROBLEM", { row: 4, message: appError("IMPORT_CORRECT_EMPTY_ANSWER", { n: 3 }) }))).toBe(
      "Ligne 4 : Correct désigne la réponse 3, qui est vide.",
    );
  });

  it("says the reasons inside a message in the reader's language too: an AI reply's, a CSV file's", async () => {
    expect(text("de", aiUnusable(appError("AI_REASON_TOO_FEW", { count: 1, asked: 5 })))).toBe(
      "Der KI-Dienst hat kein brauchbares Quiz geliefert (die Antwort enthielt 1 brauchbare Frage statt 5). Bitte versuche es noch einmal, vielleicht mit einem genaueren Thema.",
    );
    expect(text("es", aiUnusable(appError("AI_REASON_NOT_JSON")))).toBe(
      "El servicio de IA no devolvió un cuestionario utilizable (la respuesta no era JSON válido). Inténtalo de nuevo, quizá con un tema más concreto.",
    );
    const [[unclosed, error]] = await unreadableSpreadsheetMessages();
    expect(unclosed).toBe("This CSV file could not be read: a quotation mark is opened and never closed (the file ends inside it, at line 3).");
    expect(text("fr", error)).toBe(
      "Impossible de lire ce fichier CSV : un guillemet est ouvert et jamais fermé (le fichier se termine à l’intérieur, à la ligne 3).",
    );
  });

  it("writes numbers, waits and sizes the reader's way", () => {
    expect(text("de", appError("QUIZ_DESCRIPTION_TOO_LONG", { max: 2000 }))).toBe("Die Beschreibung darf höchstens 2.000 Zeichen lang sein.");
    expect(text("de", appError("LIMIT_QUIZZES", { wait: "5 minutes" }))).toBe(
      "Aus deinem Netzwerk wurden zu viele Quizze erstellt. Bitte versuche es in 5 Minuten noch einmal.",
    );
    // Intl puts a (narrow) no-break space between the number and its unit in French.
    expect(text("fr", pictureTooLargeError())).toMatch(/^Les images ne doivent pas dépasser 5\sMo\.$/);
    expect(text("de", overStorageError(49.8 * 1024 * 1024, 50 * 1024 * 1024))).toBe(
      "Deine Bilder belegen 49,8 MB von 50 MB. Lösche ein Quiz mit Bildern oder upgrade deinen Tarif.",
    );
  });

  it("says English word for word, and a message with no code, or a code it does not know, as it came", () => {
    expect(text("en", appError("QUESTION_EMPTY", { n: 3 }))).toBe("Question 3 is empty.");
    expect(text("de", null, "Something nobody wrote down.")).toBe("Something nobody wrote down.");
    expect(text("de", { code: "NOT_A_CODE" } as unknown as AppError, "Something nobody wrote down.")).toBe("Something nobody wrote down.");
    expect(text("de", null, "")).toBe("");
  });

  it("has every message the editor, import, My Quizzes and the AI generator can show, in every language", async () => {
    const raised = [
      ...editorMessages(),
      ...(await spreadsheetMessages()),
      ...(await unreadableSpreadsheetMessages()),
      ...(await quizFileMessages()),
      ...schemaMessages(),
      ...limitMessages,
      ...fixedMessages,
    ];
    expect(new Set(raised.map(([message]) => message)).size).toBeGreaterThan(60);
    for (const language of LANGUAGES.filter((one) => one !== "en")) {
      const untranslated = raised.filter(([message, error]) => text(language, error, message) === message).map(([message]) => message);
      expect(untranslated, `English left in ${language}`).toEqual([]);
    }
  });

  it("raises every such message with the code and values whose English is the message word for word", async () => {
    const raised = [
      ...editorMessages(),
      ...(await spreadsheetMessages()),
      ...(await quizFileMessages()),
      ...schemaMessages(),
      ...limitMessages,
      ...fixedMessages,
    ];
    for (const [message, error] of raised) {
      expect(englishOf(error), message).toBe(message);
      expect(text("en", error), message).toBe(message);
    }
  });
});
