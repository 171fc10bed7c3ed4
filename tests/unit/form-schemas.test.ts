import { describe, expect, it } from "vitest";
import {
  CANNOT_REMOVE_QUESTION,
  CreateQuizFormSchema,
  createQuizErrorToast,
  emptyCreateQuizDraft,
  firstErrors,
  HostFormSchema,
  JoinFormSchema,
  MAX_QUESTIONS,
  parseCreateQuizForm,
  type CreateQuizDraft,
} from "#app/utils/form-schemas";

const question = (text = "2 + 2?", answers = ["3", "4", "5", "22"], correctAnswerIndex = 1) => ({ text, answers, correctAnswerIndex });
const quiz = (change: Partial<CreateQuizDraft> = {}): CreateQuizDraft => ({
  title: "Pub night",
  description: "",
  timeLimit: 20,
  visibility: "private",
  questions: [question()],
  ...change,
});

function errorsOf(result: { success: boolean; error?: Parameters<typeof firstErrors>[0] }) {
  expect(result.success).toBe(false);
  return firstErrors(result.error!);
}

describe("CreateQuizFormSchema", () => {
  it("accepts a quiz, trimming its texts", () => {
    const result = CreateQuizFormSchema.parse(
      quiz({ title: "  Pub night ", description: " Fun ", questions: [question(" Q? ", [" a", "b ", "c", "d"], 3)] }),
    );
    expect(result).toEqual({
      title: "Pub night",
      description: "Fun",
      timeLimit: 20,
      visibility: "private",
      questions: [{ text: "Q?", answers: ["a", "b", "c", "d"], correctAnswerIndex: 3 }],
    });
  });

  it("defaults description, time limit (20) and visibility (private)", () => {
    expect(CreateQuizFormSchema.parse({ title: "T", questions: [question()] })).toMatchObject({
      description: "",
      timeLimit: 20,
      visibility: "private",
    });
  });

  it.each([10, 20, 30, 60, 90])("offers a time limit of %i seconds", (timeLimit) => {
    expect(CreateQuizFormSchema.parse(quiz({ timeLimit })).timeLimit).toBe(timeLimit);
  });

  it.each([
    ["a missing title", quiz({ title: "" }), "title", "Please give your quiz a title."],
    ["a blank title", quiz({ title: "   " }), "title", "Please give your quiz a title."],
    ["an empty question 1", quiz({ questions: [question("")] }), "questions.0.text", "Question 1 is empty."],
    ["a blank question 2", quiz({ questions: [question(), question("  ")] }), "questions.1.text", "Question 2 is empty."],
    ["an empty answer", quiz({ questions: [question("Q", ["a", "", "c", "d"])] }), "questions.0.answers.1", "Question 1 has an empty answer option."],
    [
      "a blank answer in question 3",
      quiz({ questions: [question(), question(), question("Q", ["a", "b", "c", " "])] }),
      "questions.2.answers.3",
      "Question 3 has an empty answer option.",
    ],
    ["three answers", quiz({ questions: [question("Q", ["a", "b", "c"])] }), "questions.0.answers", "A question needs exactly 4 answers."],
    ["no questions", quiz({ questions: [] }), "questions", "A quiz must have at least one question."],
    ["a time limit off the list", quiz({ timeLimit: 45 }), "timeLimit", "Choose a time limit of 10, 20, 30, 60, 90 seconds."],
    ["an unknown visibility", quiz({ visibility: "friends" }), "visibility", "Choose private or public."],
    ["a correct answer of 4", quiz({ questions: [question("Q", ["a", "b", "c", "d"], 4)] }), "questions.0.correctAnswerIndex", "The answer must be 0, 1, 2 or 3."],
    ["a correct answer of -1", quiz({ questions: [question("Q", ["a", "b", "c", "d"], -1)] }), "questions.0.correctAnswerIndex", "The answer must be 0, 1, 2 or 3."],
    ["a long question", quiz({ questions: [question("x".repeat(501))] }), "questions.0.text", "Keep the question under 500 characters."],
    ["a long answer", quiz({ questions: [question("Q", ["a", "b", "x".repeat(201), "d"])] }), "questions.0.answers.2", "Keep each answer under 200 characters."],
    ["too many questions", quiz({ questions: Array.from({ length: MAX_QUESTIONS + 1 }, () => question()) }), "questions", `A quiz can have at most ${MAX_QUESTIONS} questions.`],
  ])("refuses %s", (_, input, field, message) => {
    expect(errorsOf(CreateQuizFormSchema.safeParse(input))[field]).toBe(message);
  });

  it("reports every problem, the title first and then each question in order", () => {
    const result = CreateQuizFormSchema.safeParse(quiz({ title: "", questions: [question("", ["", "b", "c", "d"]), question("Q", ["a", "", "", "d"])] }));
    expect(Object.entries(errorsOf(result))).toEqual([
      ["title", "Please give your quiz a title."],
      ["questions.0.text", "Question 1 is empty."],
      ["questions.0.answers.0", "Question 1 has an empty answer option."],
      ["questions.1.answers.1", "Question 2 has an empty answer option."],
      ["questions.1.answers.2", "Question 2 has an empty answer option."],
    ]);
  });
});

describe("createQuizErrorToast", () => {
  it.each([
    [quiz({ title: " " }), "Missing title", "Please give your quiz a title."],
    [quiz({ title: " ", questions: [question("")] }), "Missing title", "Please give your quiz a title."],
    [quiz({ questions: [question(), question("")] }), "Empty question", "Question 2 is empty."],
    [quiz({ questions: [question("", ["", "", "", ""])] }), "Empty question", "Question 1 is empty."],
    [quiz({ questions: [question(), question(), question("Q", ["a", "b", "", "d"])] }), "Empty answer", "Question 3 has an empty answer option."],
    [quiz({ timeLimit: 45 }), "Check your quiz", "Choose a time limit of 10, 20, 30, 60, 90 seconds."],
  ])("%#: names the first problem as the spec's toast", (input, title, description) => {
    const result = CreateQuizFormSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(createQuizErrorToast(result.error!)).toEqual({ title, description });
  });

  it("pairs the remove-last-question message", () => {
    expect(CANNOT_REMOVE_QUESTION).toEqual({ title: "Cannot remove question", description: "A quiz must have at least one question." });
  });
});

describe("parseCreateQuizForm", () => {
  const form = (entries: [string, string][]) => {
    const formData = new FormData();
    for (const [name, value] of entries) formData.append(name, value);
    return formData;
  };

  it("reads the fields into a draft, questions in index order", () => {
    const draft = parseCreateQuizForm(
      form([
        ["title", "Pub night"],
        ["description", "Fun"],
        ["timeLimit", "30"],
        ["visibility", "public"],
        ["questions[1].text", "Second"],
        ["questions[1].answers[0]", "e"],
        ["questions[1].answers[3]", "h"],
        ["questions[1].correctAnswerIndex", "3"],
        ["questions[0].text", "First"],
        ["questions[0].answers[0]", "a"],
        ["questions[0].answers[1]", "b"],
        ["questions[0].answers[2]", "c"],
        ["questions[0].answers[3]", "d"],
        ["questions[0].correctAnswerIndex", "2"],
        ["intent", "save"],
      ]),
    );
    expect(draft).toEqual({
      title: "Pub night",
      description: "Fun",
      timeLimit: 30,
      visibility: "public",
      questions: [
        { text: "First", answers: ["a", "b", "c", "d"], correctAnswerIndex: 2 },
        { text: "Second", answers: ["e", "", "", "h"], correctAnswerIndex: 3 },
      ],
    });
  });

  it("closes gaps left by removed questions and ignores unknown fields", () => {
    const draft = parseCreateQuizForm(
      form([
        ["questions[0].text", "A"],
        ["questions[5].text", "B"],
        ["questions[5].answers[7]", "ignored"],
        ["questions[x].text", "ignored"],
        ["other", "ignored"],
      ]),
    );
    expect(draft.questions.map((entry) => entry.text)).toEqual(["A", "B"]);
    expect(draft.questions[1].answers).toEqual(["", "", "", ""]);
  });

  it("gives the defaults of a new quiz for an empty form", () => {
    expect(parseCreateQuizForm(new FormData())).toEqual({ ...emptyCreateQuizDraft(), questions: [] });
  });

  it("leaves an unreadable time limit for the schema to refuse", () => {
    const draft = parseCreateQuizForm(form([["timeLimit", "soon"]]));
    expect(errorsOf(CreateQuizFormSchema.safeParse(draft)).timeLimit).toBe("Choose a time limit of 10, 20, 30, 60, 90 seconds.");
  });

  it("starts a new quiz with 1 question of 4 empty answers, 20 seconds, private", () => {
    expect(emptyCreateQuizDraft()).toEqual({
      title: "",
      description: "",
      timeLimit: 20,
      visibility: "private",
      questions: [{ text: "", answers: ["", "", "", ""], correctAnswerIndex: 0 }],
    });
  });
});

describe("HostFormSchema", () => {
  it.each([
    [{ quizCode: "abc123", quizId: "", hostName: " Sam " }, { hostName: "Sam", gameCode: "ABC123" }],
    [{ quizCode: "ab-c12 3", hostName: "Sam" }, { hostName: "Sam", gameCode: "ABC123" }],
    [{ quizCode: "", quizId: "7", hostName: "Sam" }, { hostName: "Sam", quizId: 7 }],
    [{ quizCode: "nonsense", quizId: "7", hostName: "Sam" }, { hostName: "Sam", quizId: 7 }],
    [{ quizCode: "ABC123", hostName: "Jo" }, { hostName: "Jo", gameCode: "ABC123" }],
    [{ quizCode: "ABC123", hostName: "x".repeat(15) }, { hostName: "x".repeat(15), gameCode: "ABC123" }],
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
    [{ gameCode: "abc123", nickname: "Sam" }, { gameCode: "ABC123", nickname: "Sam" }],
    [{ gameCode: "ab-c12x9", nickname: " Sam " }, { gameCode: "ABC12X", nickname: "Sam" }],
    [{ gameCode: " a b c 1 2 3 ", nickname: "x".repeat(15) }, { gameCode: "ABC123", nickname: "x".repeat(15) }],
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
