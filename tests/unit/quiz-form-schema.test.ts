/**
 * The quiz editor's form: the messages per field (docs/product.md#validation), every kind's fields, the editor's list
 * steps (the same with and without JavaScript), and reading a posted form through the one helper.
 */
import { describe, expect, it } from "vitest";
import { parseTypedNumber } from "#app/game/question-kinds";
import { CANNOT_REMOVE_QUESTION, MAX_QUESTIONS } from "#app/schemas/form-schemas";
import { parseForm } from "#app/forms/forms";
import {
  applyEditorIntent,
  checkQuizDraft,
  emptyQuestionDraft,
  emptyQuizDraft,
  PostedQuizSchema,
  questionDraftOf,
  quizErrorToast,
  type QuestionDraft,
  type QuizDraft,
} from "#app/schemas/quiz-form-schema";

const question = (text = "2 + 2?", answers = ["3", "4", "5", "22"], correctAnswerIndex = 1, change: Partial<QuestionDraft> = {}): QuestionDraft => ({
  ...emptyQuestionDraft(),
  text,
  answers,
  correctAnswerIndex,
  ...change,
});
const quiz = (change: Partial<QuizDraft> = {}): QuizDraft => ({
  title: "Pub night",
  description: "",
  timeLimit: 20,
  visibility: "private",
  questions: [question()],
  ...change,
});

function problemsOf(draft: QuizDraft) {
  const result = checkQuizDraft(draft);
  if (result.ok) throw new Error("expected problems");
  return result;
}

function errorsOf(draft: QuizDraft) {
  return problemsOf(draft).errors;
}

describe("checkQuizDraft", () => {
  it("accepts a quiz, trimming its texts, with the question's content as stored", () => {
    const result = checkQuizDraft(quiz({ title: "  Pub night ", description: " Fun ", questions: [question(" Q? ", [" a", "b ", "c", "d"], 3)] }));
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.value).toMatchObject({ title: "Pub night", description: "Fun", timeLimit: 20, isPublic: false });
    expect(result.value.questions).toEqual([
      {
        kind: "choice",
        text: "Q?",
        answers: ["a", "b", "c", "d"],
        correctAnswerIndex: 3,
        correctAnswerIndexes: [3],
        acceptedAnswers: [],
        correctNumber: null,
        timeLimit: null,
        points: "standard",
        imageId: null,
      },
    ]);
  });

  it.each([10, 20, 30, 60, 90])("offers a quiz time limit of %i seconds", (timeLimit) => {
    expect(checkQuizDraft(quiz({ timeLimit })).ok).toBe(true);
  });

  it("reads every kind's fields", () => {
    const result = checkQuizDraft(
      quiz({
        questions: [
          question("TF", ["", "", "", ""], 0, { kind: "trueFalse", trueFalse: 1, timeLimit: "45", points: "double" }),
          question("Multi", ["a", "b", "c"], 0, { kind: "multiSelect", correctAnswerIndexes: [0, 2] }),
          question("Typed", ["", "", "", ""], 0, { kind: "typeAnswer", acceptedAnswers: " Paris \n\nParís " }),
          question("Number", ["", "", "", ""], 0, { kind: "closestNumber", correctNumber: "1,969" }),
          question("Poll", ["x", "y"], 0, { kind: "poll", points: "double" }),
        ],
      }),
    );
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.value.questions).toMatchObject([
      { kind: "trueFalse", answers: ["True", "False"], correctAnswerIndex: 1, timeLimit: 45, points: "double" },
      { kind: "multiSelect", answers: ["a", "b", "c"], correctAnswerIndexes: [0, 2] },
      { kind: "typeAnswer", answers: [], acceptedAnswers: ["Paris", "París"] },
      { kind: "closestNumber", correctNumber: 1969 },
      { kind: "poll", points: "none" },
    ]);
  });

  it.each([
    ["a missing title", quiz({ title: "" }), "title", "Please give your quiz a title."],
    ["a blank title", quiz({ title: "   " }), "title", "Please give your quiz a title."],
    ["an empty question 1", quiz({ questions: [question("")] }), "questions.0.text", "Question 1 is empty."],
    ["a blank question 2", quiz({ questions: [question(), question("  ")] }), "questions.1.text", "Question 2 is empty."],
    ["an empty answer", quiz({ questions: [question("Q", ["a", "", "c", "d"])] }), "questions.0.answers.1", "Question 1 has an empty answer option."],
    ["one answer", quiz({ questions: [question("Q", ["a"], 0)] }), "questions.0.answers", "Question 1 needs at least 2 answers."],
    ["no questions", quiz({ questions: [] }), "questions", "A quiz must have at least one question."],
    ["a time limit off the list", quiz({ timeLimit: 45 }), "timeLimit", "Choose a time limit of 10, 20, 30, 60, 90 seconds."],
    ["an unknown visibility", quiz({ visibility: "friends" }), "visibility", "Choose private or public."],
    [
      "a correct answer of 4 of 4",
      quiz({ questions: [question("Q", ["a", "b", "c", "d"], 4)] }),
      "questions.0.correctAnswerIndex",
      "The correct answer must be one of the answers.",
    ],
    [
      "a correct answer of -1",
      quiz({ questions: [question("Q", ["a", "b", "c", "d"], -1)] }),
      "questions.0.correctAnswerIndex",
      "Choose which answer is correct.",
    ],
    ["a long question", quiz({ questions: [question("x".repeat(501))] }), "questions.0.text", "Keep the question under 500 characters."],
    [
      "a long answer",
      quiz({ questions: [question("Q", ["a", "b", "x".repeat(201), "d"])] }),
      "questions.0.answers.2",
      "Keep each answer under 200 characters.",
    ],
    [
      "too many questions",
      quiz({ questions: Array.from({ length: MAX_QUESTIONS + 1 }, () => question()) }),
      "questions",
      `A quiz can have at most ${MAX_QUESTIONS} questions.`,
    ],
    [
      "multi-select with nothing marked",
      quiz({ questions: [question("Q", ["a", "b"], 0, { kind: "multiSelect" })] }),
      "questions.0.correctAnswerIndexes",
      "Question 1 needs at least one correct answer.",
    ],
    [
      "typed without an accepted answer",
      quiz({ questions: [question("Q", ["", ""], 0, { kind: "typeAnswer", acceptedAnswers: "  " })] }),
      "questions.0.acceptedAnswers",
      "Question 1 needs at least one accepted answer.",
    ],
    [
      "a number that is not one",
      quiz({ questions: [question("Q", [], 0, { kind: "closestNumber", correctNumber: "soon" })] }),
      "questions.0.correctNumber",
      "Question 1 needs the right number.",
    ],
    [
      "a question time of 4 s",
      quiz({ questions: [question("Q", ["a", "b"], 0, { timeLimit: "4" })] }),
      "questions.0.timeLimit",
      "Time limit must be at least 5 seconds.",
    ],
  ])("refuses %s", (_, input, field, message) => {
    expect(errorsOf(input)[field]).toBe(message);
  });

  it("reports every problem, the title first and then each question in order", () => {
    expect(Object.entries(errorsOf(quiz({ title: "", questions: [question("", ["", "b", "c", "d"]), question("Q", ["a", "", "", "d"])] })))).toEqual([
      ["title", "Please give your quiz a title."],
      ["questions.0.text", "Question 1 is empty."],
      ["questions.0.answers.0", "Question 1 has an empty answer option."],
      ["questions.1.answers.1", "Question 2 has an empty answer option."],
      ["questions.1.answers.2", "Question 2 has an empty answer option."],
    ]);
  });

  it("keeps an edited quiz's time limit that the select does not offer", () => {
    expect(checkQuizDraft(quiz({ timeLimit: 45 }), 45).ok).toBe(true);
  });
});

describe("quizErrorToast", () => {
  // Each with the codes its title and description are said by (docs/decisions/0047-errors-as-codes.md).
  const missingTitle = { title: { code: "QUIZ_MISSING_TITLE_TITLE" }, description: { code: "QUIZ_TITLE_REQUIRED" } };
  it.each([
    [quiz({ title: " " }), "Missing title", "Please give your quiz a title.", missingTitle],
    [quiz({ title: " ", questions: [question("")] }), "Missing title", "Please give your quiz a title.", missingTitle],
    [
      quiz({ questions: [question(), question("")] }),
      "Empty question",
      "Question 2 is empty.",
      { title: { code: "QUESTION_EMPTY_TITLE" }, description: { code: "QUESTION_EMPTY", values: { n: 2 } } },
    ],
    [
      quiz({ questions: [question("", ["", "", "", ""])] }),
      "Empty question",
      "Question 1 is empty.",
      { title: { code: "QUESTION_EMPTY_TITLE" }, description: { code: "QUESTION_EMPTY", values: { n: 1 } } },
    ],
    [
      quiz({ questions: [question(), question(), question("Q", ["a", "b", "", "d"])] }),
      "Empty answer",
      "Question 3 has an empty answer option.",
      { title: { code: "QUESTION_EMPTY_ANSWER_TITLE" }, description: { code: "QUESTION_EMPTY_ANSWER", values: { n: 3 } } },
    ],
    [
      quiz({ timeLimit: 45 }),
      "Check your quiz",
      "Choose a time limit of 10, 20, 30, 60, 90 seconds.",
      { title: { code: "QUIZ_CHECK_TITLE" }, description: { code: "QUIZ_TIME_LIMIT_CHOICES", values: { choices: "10, 20, 30, 60, 90" } } },
    ],
  ])("%#: names the first problem as its toast (docs/product.md#validation)", (input, title, description, codes) => {
    expect(quizErrorToast(problemsOf(input))).toEqual({ title, description, codes });
  });

  it("pairs the remove-last-question message", () => {
    expect(CANNOT_REMOVE_QUESTION).toEqual({
      title: "Cannot remove question",
      description: "A quiz must have at least one question.",
      codes: { title: { code: "QUIZ_NEEDS_A_QUESTION_TITLE" }, description: { code: "QUIZ_NEEDS_A_QUESTION" } },
    });
  });
});

describe("applyEditorIntent: the editor's buttons", () => {
  const three = quiz({ questions: [question("A"), question("B"), question("C")] });
  const texts = (draft: QuizDraft) => draft.questions.map((q) => q.text);
  const step = (draft: QuizDraft, intent: string) => {
    const result = applyEditorIntent(draft, intent);
    if (!result || "error" in result) throw new Error(`no draft for ${intent}`);
    return result.draft;
  };

  it.each([
    ["add-question", ["A", "B", "C", ""]],
    ["remove-question-1", ["A", "C"]],
    ["duplicate-question-0", ["A", "A", "B", "C"]],
    ["move-question-2-up", ["A", "C", "B"]],
    ["move-question-0-down", ["B", "A", "C"]],
    ["move-question-2-0", ["C", "A", "B"]],
    ["move-question-0-up", ["A", "B", "C"]],
    ["move-question-9-up", ["A", "B", "C"]],
  ])("%s", (intent, expected) => {
    expect(texts(step(three, intent))).toEqual(expected);
  });

  it("refuses to remove the last question, and to pass 100 questions", () => {
    expect(applyEditorIntent(quiz(), "remove-question-0")).toEqual({ error: CANNOT_REMOVE_QUESTION });
    const full = quiz({ questions: Array.from({ length: MAX_QUESTIONS }, () => question()) });
    expect(applyEditorIntent(full, "add-question")).toMatchObject({ error: { description: `A quiz can have at most ${MAX_QUESTIONS} questions.` } });
    expect(applyEditorIntent(full, "duplicate-question-0")).toMatchObject({ error: { description: `A quiz can have at most ${MAX_QUESTIONS} questions.` } });
  });

  it("adds and removes answers (2 to 6), keeping the right ones on their answers", () => {
    const multi = quiz({ questions: [question("Q", ["a", "b", "c", "d"], 3, { correctAnswerIndexes: [1, 3] })] });
    const fewer = step(multi, "remove-answer-0-1");
    expect(fewer.questions[0]).toMatchObject({ answers: ["a", "c", "d"], correctAnswerIndex: 2, correctAnswerIndexes: [2] });
    expect(step(step(fewer, "add-answer-0"), "add-answer-0").questions[0].answers).toEqual(["a", "c", "d", "", ""]);
    const two = quiz({ questions: [question("Q", ["a", "b"], 0)] });
    expect(step(two, "remove-answer-0-1").questions[0].answers).toEqual(["a", "b"]);
    const six = quiz({ questions: [question("Q", ["a", "b", "c", "d", "e", "f"], 0)] });
    expect(step(six, "add-answer-0").questions[0].answers).toHaveLength(6);
  });

  it("removes a picture; anything else is not an editor step", () => {
    const pictured = quiz({ questions: [question("Q", ["a", "b"], 0, { imageId: "a".repeat(64) })] });
    expect(step(pictured, "remove-image-0").questions[0].imageId).toBe("");
    expect(applyEditorIntent(pictured, "save")).toBeNull();
    expect(applyEditorIntent(pictured, "remove-question-x")).toBeNull();
  });
});

describe("reading a posted editor form", () => {
  it("reads nested question fields through the one form helper, in index order, with checkboxes as lists", () => {
    const form = new FormData();
    for (const [name, value] of [
      ["intent", "save"],
      ["title", "Pub night"],
      ["timeLimit", "30"],
      ["visibility", "public"],
      ["questions[1].kind", "multiSelect"],
      ["questions[1].text", "Second"],
      ["questions[1].answers[0]", "e"],
      ["questions[1].answers[1]", "f"],
      ["questions[1].correctAnswerIndexes", "0"],
      ["questions[1].correctAnswerIndexes", "1"],
      ["questions[0].text", "First"],
      ["questions[0].answers[0]", "a"],
      ["questions[0].answers[1]", "b"],
      ["questions[0].correctAnswerIndex", "1"],
      ["questions[0].timeLimit", ""],
    ])
      form.append(name, value);
    const submission = parseForm(form, PostedQuizSchema);
    if (submission.status !== "success") throw new Error("not read");
    expect(submission.value.intent).toBe("save");
    expect(submission.value.draft).toMatchObject({ title: "Pub night", timeLimit: 30, visibility: "public" });
    expect(submission.value.draft.questions).toMatchObject([
      { kind: "choice", text: "First", answers: ["a", "b"], correctAnswerIndex: 1, timeLimit: "" },
      { kind: "multiSelect", text: "Second", answers: ["e", "f"], correctAnswerIndexes: [0, 1] },
    ]);
  });

  it("shows a stored question of every kind back in the editor as it was", () => {
    const checked = checkQuizDraft(quiz({ questions: [question("N", [], 0, { kind: "closestNumber", correctNumber: "-12.5", timeLimit: "60" })] }));
    if (!checked.ok) throw new Error("invalid");
    expect(questionDraftOf(checked.value.questions[0])).toMatchObject({
      kind: "closestNumber",
      correctNumber: "-12.5",
      timeLimit: "60",
      answers: ["", "", "", ""],
    });
    expect(emptyQuizDraft().questions).toHaveLength(1);
  });

  it.each([
    ["1969", 1969],
    ["1,969", 1969],
    ["1 000 000", 1_000_000],
    ["3,5", 3.5],
    ["-12.5", -12.5],
    ["1e3", 1000],
    ["", null],
    ["soon", null],
    ["12abc", null],
  ])("reads %j as %s", (raw, value) => {
    expect(parseTypedNumber(raw)).toBe(value);
  });
});
