/** The JSON quiz file: written with only each kind's fields, read back to the same questions, every problem located. */
import { describe, expect, it } from "vitest";
import type { QuestionContent } from "#app/game/question-kinds";
import {
  NOT_A_QUIZ_FILE,
  QUIZ_FILE_FORMAT,
  QUIZ_SCHEMA_PATH,
  QuizFileSchema,
  quizFileJsonSchema,
  quizFileSlug,
  SpreadsheetDetailsSchema,
  titleFromFileName,
  toQuizFile,
  UNKNOWN_QUIZ_FILE_VERSION,
  type QuizFile,
} from "#app/quiz-files/quiz-file";

const IMAGE_ID = "a".repeat(64);
const PICTURE_BASE64 = Buffer.from("RIFF\0\0\0\0WEBPVP8 fake").toString("base64");

const blank: Omit<QuestionContent, "kind" | "text"> = {
  answers: [],
  correctAnswerIndex: -1,
  correctAnswerIndexes: [],
  acceptedAnswers: [],
  correctNumber: null,
  timeLimit: null,
  points: "standard",
  imageId: null,
};

/** One of each kind, with the fields a kind does not use left empty, as the model stores them. */
const QUESTIONS: QuestionContent[] = [
  {
    ...blank,
    kind: "choice",
    text: "Capital of Peru?",
    answers: ["Lima", "Cusco", "Quito"],
    correctAnswerIndex: 0,
    correctAnswerIndexes: [0],
    imageId: IMAGE_ID,
  },
  { ...blank, kind: "trueFalse", text: "Bats are blind.", answers: ["True", "False"], correctAnswerIndex: 1, correctAnswerIndexes: [1], timeLimit: 10 },
  { ...blank, kind: "trueFalse", text: "Tea before milk?", answers: ["Yes", "No"], correctAnswerIndex: 0, correctAnswerIndexes: [0] },
  { ...blank, kind: "multiSelect", text: "Which are prime?", answers: ["2", "4", "5", "9", "11", "15"], correctAnswerIndexes: [0, 2, 4], points: "double" },
  { ...blank, kind: "typeAnswer", text: "Largest ocean?", acceptedAnswers: ["Pacific", "Pacific Ocean"], timeLimit: 240 },
  { ...blank, kind: "closestNumber", text: "Height of Everest in metres?", correctNumber: 8848.86, points: "none", imageId: IMAGE_ID },
  { ...blank, kind: "poll", text: "Best snack?", answers: ["Crisps", "Nuts"], points: "none" },
];

const QUIZ = { title: "Pub quiz", description: "Round one", timeLimit: 30 };

function file(overrides: Partial<QuizFile> = {}): QuizFile {
  return { ...toQuizFile(QUIZ, QUESTIONS, new Map([[IMAGE_ID, PICTURE_BASE64]])), ...overrides };
}

function issues(value: unknown) {
  const result = QuizFileSchema.safeParse(value);
  if (result.success) throw new Error("expected the file to be refused");
  return result.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
}

describe("toQuizFile", () => {
  it("writes the format, version, quiz details and only the fields each kind uses", () => {
    const written = file();
    expect(written).toMatchObject({ format: QUIZ_FILE_FORMAT, version: 1, title: "Pub quiz", description: "Round one", timeLimit: 30 });
    const picture = { mediaType: "image/webp", data: PICTURE_BASE64 };
    expect(written.questions).toEqual([
      {
        kind: "choice",
        text: "Capital of Peru?",
        answers: ["Lima", "Cusco", "Quito"],
        correctAnswerIndex: 0,
        timeLimit: null,
        points: "standard",
        image: picture,
      },
      { kind: "trueFalse", text: "Bats are blind.", correctAnswerIndex: 1, timeLimit: 10, points: "standard", image: null },
      { kind: "trueFalse", text: "Tea before milk?", answers: ["Yes", "No"], correctAnswerIndex: 0, timeLimit: null, points: "standard", image: null },
      {
        kind: "multiSelect",
        text: "Which are prime?",
        answers: ["2", "4", "5", "9", "11", "15"],
        correctAnswerIndexes: [0, 2, 4],
        timeLimit: null,
        points: "double",
        image: null,
      },
      { kind: "typeAnswer", text: "Largest ocean?", acceptedAnswers: ["Pacific", "Pacific Ocean"], timeLimit: 240, points: "standard", image: null },
      { kind: "closestNumber", text: "Height of Everest in metres?", correctNumber: 8848.86, timeLimit: null, points: "none", image: picture },
      { kind: "poll", text: "Best snack?", answers: ["Crisps", "Nuts"], timeLimit: null, image: null },
    ]);
  });

  it("leaves out a picture it was not given", () => {
    const written = toQuizFile(QUIZ, QUESTIONS, new Map());
    expect(written.questions.map((question) => question.image)).toEqual(QUESTIONS.map(() => null));
  });

  it("reads back to the same questions, each beside its picture, through JSON text", () => {
    const parsed = QuizFileSchema.parse(JSON.parse(JSON.stringify(file())));
    expect(parsed.title).toBe("Pub quiz");
    expect(parsed.timeLimit).toBe(30);
    expect(parsed.questions.map((question) => question.content)).toEqual(QUESTIONS.map((question) => ({ ...question, imageId: null })));
    expect(parsed.questions.map((question) => question.image?.data ?? null)).toEqual(QUESTIONS.map((question) => (question.imageId ? PICTURE_BASE64 : null)));
  });
});

describe("QuizFileSchema", () => {
  it("fills the defaults a hand-written file may leave out", () => {
    const parsed = QuizFileSchema.parse({
      format: QUIZ_FILE_FORMAT,
      version: 1,
      title: "  Minimal  ",
      questions: [{ kind: "trueFalse", text: "Water is wet.", correctAnswerIndex: 0 }],
    });
    expect(parsed).toMatchObject({ title: "Minimal", description: "", timeLimit: 20 });
    expect(parsed.questions[0]).toEqual({
      content: { ...blank, kind: "trueFalse", text: "Water is wet.", answers: ["True", "False"], correctAnswerIndex: 0, correctAnswerIndexes: [0] },
      image: null,
    });
  });

  it("refuses something that is not a quiz file, or of another version", () => {
    expect(issues({ ...file(), format: "kahoot" })).toEqual([{ path: "format", message: NOT_A_QUIZ_FILE }]);
    expect(issues({ ...file(), version: 2 })).toEqual([{ path: "version", message: UNKNOWN_QUIZ_FILE_VERSION }]);
    // A list or a string is not a quiz file either: said in words the errors catalog has, not zod's.
    expect(issues([])).toEqual([{ path: "", message: NOT_A_QUIZ_FILE }]);
  });

  it("locates each question's problem with the shared rules' messages", () => {
    const bad = file({
      questions: [
        { kind: "choice", text: "One answer", answers: ["Only"], correctAnswerIndex: 0 },
        { kind: "choice", text: "Out of range", answers: ["A", "B"], correctAnswerIndex: 3 },
        { kind: "multiSelect", text: "Twice", answers: ["A", "B"], correctAnswerIndexes: [1, 1] },
        { kind: "typeAnswer", text: "Symbols only", acceptedAnswers: ["?!"] },
        { kind: "closestNumber", text: "", correctNumber: 1 },
        { kind: "essay", text: "Unknown" } as never,
        { kind: "poll", text: "Picture", answers: ["A", "B"], image: { mediaType: "image/webp", data: "not base64!" } },
      ],
    });
    expect(issues(bad)).toEqual([
      { path: "questions.0.answers", message: "A question needs 2 to 6 answers." },
      { path: "questions.1.correctAnswerIndex", message: "The correct answer must be one of the answers." },
      { path: "questions.2.correctAnswerIndexes", message: "Name each correct answer once." },
      { path: "questions.3.acceptedAnswers.0", message: "An accepted answer needs a letter or a digit." },
      { path: "questions.4.text", message: "Question text is required." },
      { path: "questions.5.kind", message: "kind must be one of choice, trueFalse, multiSelect, typeAnswer, closestNumber, poll." },
      { path: "questions.6.image.data", message: "A picture's data must be its bytes in base64." },
    ]);
  });

  it("takes 1 to 100 questions", () => {
    expect(issues(file({ questions: [] }))).toEqual([{ path: "questions", message: "A quiz must have at least one question." }]);
    const many = Array.from({ length: 101 }, (_, i) => ({ kind: "poll" as const, text: `Q${i}`, answers: ["A", "B"] }));
    expect(issues(file({ questions: many }))).toEqual([{ path: "questions", message: "A quiz can have at most 100 questions." }]);
    expect(QuizFileSchema.safeParse(file({ questions: many.slice(0, 100) })).success).toBe(true);
  });
});

describe("quizFileJsonSchema", () => {
  it("publishes a draft 2020-12 schema with its id, a title and every kind documented", () => {
    const schema = quizFileJsonSchema() as any;
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$id).toBe(QUIZ_SCHEMA_PATH);
    expect(schema.title).toBe("Quiz Night quiz file, version 1");
    expect(schema.description).toMatch(/POST \/api\/quizzes\/import/);
    expect(schema.required).toEqual(["format", "version", "title", "questions"]);
    expect(schema.properties.format.const).toBe(QUIZ_FILE_FORMAT);
    const variants = schema.properties.questions.items.oneOf as any[];
    expect(variants.map((variant) => variant.properties.kind.const)).toEqual(["choice", "trueFalse", "multiSelect", "typeAnswer", "closestNumber", "poll"]);
    for (const variant of variants) {
      expect(variant.description).toBeTruthy();
      expect(variant.required).toEqual(expect.arrayContaining(["kind", "text"]));
      expect(variant.properties.image.description).toBeTruthy();
    }
    expect(schema.properties.questions.maxItems).toBe(100);
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });
});

describe("names", () => {
  it("makes a file name of a quiz title", () => {
    expect(quizFileSlug("Pub Quiz: Round #1 — Café")).toBe("pub-quiz-round-1-cafe");
    expect(quizFileSlug("???")).toBe("quiz");
    expect(quizFileSlug("x".repeat(100))).toHaveLength(60);
  });

  it("makes a title of a spreadsheet's file name", () => {
    expect(titleFromFileName("Geography round.xlsx")).toBe("Geography round");
    expect(titleFromFileName("C:\\Users\\me\\music.CSV")).toBe("music");
    expect(titleFromFileName("pub.quiz.json")).toBe("pub");
    expect(titleFromFileName(".csv")).toBe("");
  });

  it("reads a spreadsheet's quiz details from form fields", () => {
    expect(SpreadsheetDetailsSchema.parse({ title: "T", timeLimit: "30", visibility: "public" })).toEqual({
      title: "T",
      description: "",
      timeLimit: 30,
      isPublic: true,
    });
    expect(SpreadsheetDetailsSchema.parse({ title: "T", timeLimit: "" })).toEqual({ title: "T", description: "", timeLimit: 20, isPublic: false });
    expect(SpreadsheetDetailsSchema.safeParse({ title: "T", timeLimit: "500" }).error?.issues[0].message).toBe("Time limit must be at most 120 seconds.");
  });
});
