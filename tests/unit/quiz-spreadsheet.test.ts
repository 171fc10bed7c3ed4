/**
 * Spreadsheets in and out: every kind round-trips through our CSV and XLSX, Kahoot's template
 * layout is read, and a file with any bad row gives every row's problem and no questions.
 */
import ExcelJS from "exceljs";
import { parseTypedNumber } from "#app/game/question-kinds";
import { describe, expect, it } from "vitest";
import type { QuestionContent } from "#app/game/question-kinds";
import type { AppError } from "#app/i18n/app-error";
import {
  parseQuizSpreadsheet,
  QUIZ_SPREADSHEET_COLUMNS,
  quizTemplateCsv,
  quizTemplateXlsx,
  quizToCsv,
  quizToXlsx,
  TEMPLATE_QUESTIONS,
  type SpreadsheetResult,
} from "#app/quiz-files/quiz-spreadsheet.server";

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

/** Every kind, with the values a spreadsheet is most likely to mangle. */
const QUESTIONS: QuestionContent[] = [
  {
    ...blank,
    kind: "choice",
    text: 'Which city, "officially", is the capital?',
    answers: ["Sydney", "Canberra"],
    correctAnswerIndex: 1,
    correctAnswerIndexes: [1],
  },
  {
    ...blank,
    kind: "choice",
    text: "=1+1 is a formula?",
    answers: ["-1", "+2", "@home", "Zoë; naïve", "line\nbreak", "six"],
    correctAnswerIndex: 5,
    correctAnswerIndexes: [5],
    timeLimit: 5,
    points: "double",
  },
  { ...blank, kind: "trueFalse", text: "The sun is a star.", answers: ["True", "False"], correctAnswerIndex: 0, correctAnswerIndexes: [0] },
  { ...blank, kind: "trueFalse", text: "Milk first?", answers: ["Yes", "No"], correctAnswerIndex: 1, correctAnswerIndexes: [1], points: "none" },
  { ...blank, kind: "multiSelect", text: "Which are mammals?", answers: ["Whale", "Shark", "Bat", "Eel"], correctAnswerIndexes: [0, 2], timeLimit: 240 },
  { ...blank, kind: "multiSelect", text: "Pick one of three", answers: ["A", "B", "C"], correctAnswerIndexes: [1] },
  { ...blank, kind: "typeAnswer", text: "Author of Hamlet?", acceptedAnswers: ["Shakespeare", "William Shakespeare"] },
  {
    ...blank,
    kind: "typeAnswer",
    text: "Name a colour of the rainbow",
    acceptedAnswers: ["Red", "Orange", "Yellow", "Green", "Blue", "Indigo", "Violet", "Purple"],
  },
  { ...blank, kind: "closestNumber", text: "How deep is the Mariana Trench (m)?", correctNumber: 10994, timeLimit: 60 },
  { ...blank, kind: "closestNumber", text: "Absolute zero in °C?", correctNumber: -273.15, points: "double" },
  { ...blank, kind: "closestNumber", text: "Stars in the galaxy?", correctNumber: 1e12 },
  { ...blank, kind: "closestNumber", text: "A tiny number", correctNumber: 1.5e-7 },
  { ...blank, kind: "poll", text: "Favourite round?", answers: ["Music", "Sport", "History", "Films"], points: "none" },
];

const csvBytes = (text: string) => new TextEncoder().encode(text);

function expectOk(result: SpreadsheetResult): QuestionContent[] {
  if (result.status !== "ok") throw new Error(`expected ok, got ${JSON.stringify(result.errors)}`);
  return result.questions;
}

function expectErrors(result: SpreadsheetResult) {
  if (result.status !== "invalid") throw new Error("expected the file to be refused");
  expect(result).not.toHaveProperty("questions");
  return result.errors;
}

/**
 * A row's problem as raised (docs/decisions/0047-errors-as-codes.md): its English, and its code
 * `IMPORT_ROW_PROBLEM` with the row's own problem nested by its code and values.
 */
const rowProblem = (row: number, message: string, problem: AppError) => ({
  row,
  message: `Row ${row}: ${message}`,
  error: { code: "IMPORT_ROW_PROBLEM", values: { row, message: problem } },
});

/** A problem of the file as a whole (row 0), with its code and values. */
const fileProblem = (message: unknown, error: AppError) => ({ row: 0, message, error });

const HEADER = QUIZ_SPREADSHEET_COLUMNS.join(",");

describe("our layout", () => {
  it("round-trips every kind through CSV", async () => {
    const csv = quizToCsv(QUESTIONS);
    expect(csv.startsWith("\uFEFF" + HEADER)).toBe(true);
    // A cell a spreadsheet would run as a formula is guarded with an apostrophe.
    expect(csv).toContain("'=1+1 is a formula?");
    const result = await parseQuizSpreadsheet(csvBytes(csv), "quiz.csv");
    expect(result).toMatchObject({ status: "ok", layout: "quiz-night" });
    expect(expectOk(result)).toEqual(QUESTIONS);
  });

  it("round-trips every kind through XLSX", async () => {
    const xlsx = await quizToXlsx(QUESTIONS);
    expect(xlsx.subarray(0, 2).toString()).toBe("PK");
    expect(expectOk(await parseQuizSpreadsheet(xlsx, "quiz.xlsx"))).toEqual(QUESTIONS);
  });

  it("offers templates that read back to one example of each kind", async () => {
    expect(new Set(TEMPLATE_QUESTIONS.map((question) => question.kind)).size).toBe(6);
    expect(expectOk(await parseQuizSpreadsheet(csvBytes(quizTemplateCsv()), "template.csv"))).toEqual(TEMPLATE_QUESTIONS);
    const xlsx = await quizTemplateXlsx();
    expect(expectOk(await parseQuizSpreadsheet(xlsx, "template.xlsx"))).toEqual(TEMPLATE_QUESTIONS);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx as any);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["Quiz", "How to fill in"]);
  });

  it("reads a semicolon-separated CSV with a byte-order mark and decimal commas", async () => {
    const csv = [
      "Question;Kind;Answer 1;Answer 2;Answer 3;Answer 4;Answer 5;Answer 6;Correct;Time limit;Points",
      "Wie viel ist 1,5 + 2?;closest-number;;;;;;;3,5;30 s;Double",
      "Hauptstadt?;Multiple Choice;Berlin;Bonn;;;;;1;;",
      '"Mit ""Anführungszeichen""; und Semikolon";TRUE-FALSE;;;;;;;wahr;;none',
    ].join("\r\n");
    const questions = expectOk(await parseQuizSpreadsheet(csvBytes("\uFEFF" + csv), "quiz.csv"));
    expect(questions).toEqual([
      { ...blank, kind: "closestNumber", text: "Wie viel ist 1,5 + 2?", correctNumber: 3.5, timeLimit: 30, points: "double" },
      { ...blank, kind: "choice", text: "Hauptstadt?", answers: ["Berlin", "Bonn"], correctAnswerIndex: 0, correctAnswerIndexes: [0] },
      {
        ...blank,
        kind: "trueFalse",
        text: 'Mit "Anführungszeichen"; und Semikolon',
        answers: ["True", "False"],
        correctAnswerIndex: 0,
        correctAnswerIndexes: [0],
        points: "none",
      },
    ]);
  });

  it("reads Excel's plain CSV (Windows-1252) and UTF-16 text", async () => {
    const latin1 = Buffer.from(`${HEADER}\nCafé or thé?,poll,Café,Thé,,,,,,,\n`, "latin1");
    expect(expectOk(await parseQuizSpreadsheet(latin1, "quiz.csv"))[0]).toMatchObject({ text: "Café or thé?", answers: ["Café", "Thé"] });
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`${QUIZ_SPREADSHEET_COLUMNS.join("\t")}\nNaïve?\ttrue-false\t\t\t\t\t\t\tfalse\t\t\n`, "utf16le"),
    ]);
    expect(expectOk(await parseQuizSpreadsheet(utf16, "quiz.txt"))[0]).toMatchObject({ kind: "trueFalse", text: "Naïve?", correctAnswerIndex: 1 });
  });

  it("accepts kinds by any of their names, infers an empty one, and finds columns by name in any order", async () => {
    const csv = [
      "Correct,Points,Question,Answer 2,Answer 1,Type",
      "2,,Empty kind: choice,B,A,",
      "true,,Empty kind with True/False answers,False,True,",
      '"1,2",,Empty kind with two correct: multi-select,B,A,',
      ",,Internal name,,Paris,typeAnswer",
      "Rome|Roma,,Friendly name,,,Type the answer",
      "42,,Closest,,,Closest Number",
      ",,Poll,No,Yes,survey",
      "paris,,Correct written out,Lyon,Paris,",
    ].join("\n");
    const questions = expectOk(await parseQuizSpreadsheet(csvBytes(csv), "mixed.csv"));
    expect(questions.map((question) => question.kind)).toEqual([
      "choice",
      "trueFalse",
      "multiSelect",
      "typeAnswer",
      "typeAnswer",
      "closestNumber",
      "poll",
      "choice",
    ]);
    expect(questions[0]).toMatchObject({ answers: ["A", "B"], correctAnswerIndex: 1 });
    expect(questions[2]).toMatchObject({ correctAnswerIndexes: [0, 1] });
    expect(questions[3].acceptedAnswers).toEqual(["Paris"]);
    expect(questions[4].acceptedAnswers).toEqual(["Rome", "Roma"]);
    expect(questions[7]).toMatchObject({ answers: ["Paris", "Lyon"], correctAnswerIndex: 0 });
  });

  it("skips blank rows and numbers answers by their column when one is left empty", async () => {
    const csv = [HEADER, "", "Gap,choice,A,,C,,,,3,,", ",,,,,,,,,,", "Next,poll,X,Y,,,,,,,"].join("\n");
    const questions = expectOk(await parseQuizSpreadsheet(csvBytes(csv), "gaps.csv"));
    expect(questions).toHaveLength(2);
    expect(questions[0]).toMatchObject({ answers: ["A", "C"], correctAnswerIndex: 1 });
  });
});

describe("Kahoot's quiz spreadsheet template", () => {
  /** The layout of Kahoot's template: a title block, the header in row 8 after a number column, numbered rows to fill. */
  async function kahootWorkbook(rows: (string | number | null)[][]): Promise<Buffer> {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Sheet1");
    sheet.addRow([]);
    sheet.addRow([null, "Quiz template"]);
    sheet.addRow([
      null,
      "Add questions, at least two answer alternatives, time limit and choose correct answers (at least one). Have fun creating your awesome quiz!",
    ]);
    sheet.addRow([
      null,
      "Remember: questions have a limit of 120 characters and answers can have 75 characters max. Text will turn red in Excel or Google Docs if you exceed this limit. If several answers are correct, separate them with a comma.",
    ]);
    sheet.addRow([null, "See an example question below (don't forget to overwrite this with your first question!)"]);
    sheet.addRow([null, "And remember, if you're not using Excel you need to export to .xlsx format before you upload to Kahoot!"]);
    sheet.addRow([]);
    sheet.addRow([
      null,
      "Question - max 120 characters",
      "Answer 1 - max 75 characters",
      "Answer 2 - max 75 characters",
      "Answer 3 - max 75 characters",
      "Answer 4 - max 75 characters",
      "Time limit (sec) – 5, 10, 20, 30, 60, 90, 120, or 240 secs",
      "Correct answer(s) - choose at least one",
    ]);
    rows.forEach((row, i) => sheet.addRow([i + 1, ...row]));
    // The template numbers rows it leaves for more questions.
    for (let n = rows.length + 1; n <= 100; n++) sheet.addRow([n]);
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }

  it("reads its questions: one correct answer is a choice, several a multi-select", async () => {
    const xlsx = await kahootWorkbook([
      ["What is 2 + 2?", "3", "4", "5", "22", 20, 2],
      ["Which are fruits?", "Apple", "Carrot", "Banana", null, 30, "1,3"],
      ["Pick the ocean", "Atlantic", "Sahara", null, null, 240, "1"],
      ["The Earth is flat.", "True", "False", null, null, 5, 2],
    ]);
    const result = await parseQuizSpreadsheet(xlsx, "kahoot.xlsx");
    expect(result).toMatchObject({ status: "ok", layout: "kahoot" });
    expect(expectOk(result)).toEqual([
      { ...blank, kind: "choice", text: "What is 2 + 2?", answers: ["3", "4", "5", "22"], correctAnswerIndex: 1, correctAnswerIndexes: [1], timeLimit: 20 },
      { ...blank, kind: "multiSelect", text: "Which are fruits?", answers: ["Apple", "Carrot", "Banana"], correctAnswerIndexes: [0, 2], timeLimit: 30 },
      { ...blank, kind: "choice", text: "Pick the ocean", answers: ["Atlantic", "Sahara"], correctAnswerIndex: 0, correctAnswerIndexes: [0], timeLimit: 240 },
      { ...blank, kind: "trueFalse", text: "The Earth is flat.", answers: ["True", "False"], correctAnswerIndex: 1, correctAnswerIndexes: [1], timeLimit: 5 },
    ]);
  });

  it("names a bad row by its number in the sheet", async () => {
    const xlsx = await kahootWorkbook([
      ["Fine", "A", "B", null, null, 20, 1],
      ["Only one answer", "A", null, null, null, 20, 1],
      ["Correct names an empty answer", "A", "B", null, null, 20, 4],
      ["Too long a time", "A", "B", null, null, 300, 1],
    ]);
    const errors = expectErrors(await parseQuizSpreadsheet(xlsx, "kahoot.xlsx"));
    expect(errors).toEqual([
      rowProblem(10, "A question needs 2 to 6 answers.", { code: "ANSWER_COUNT", values: { min: 2, max: 6 } }),
      rowProblem(11, "Correct names answer 4, which is empty.", { code: "IMPORT_CORRECT_EMPTY_ANSWER", values: { n: 4 } }),
      rowProblem(12, "Time limit must be at most 240 seconds.", { code: "TIME_LIMIT_TOO_LONG", values: { seconds: 240 } }),
    ]);
  });
});

describe("bad files", () => {
  it("gives every bad row's problems, numbered as the sheet shows them, and no questions", async () => {
    const csv = [
      HEADER,
      "Fine,choice,A,B,,,,,1,,",
      "One answer,choice,A,,,,,,1,,",
      "",
      ",choice,A,B,,,,,1,,",
      "Strange kind,essay,A,B,,,,,1,,",
      "No correct,choice,A,B,,,,,,,",
      'Two for a choice,choice,A,B,C,,,,"1,2",,',
      "Not a number,closest-number,,,,,,,lots,,",
      "Answers on a number,closest-number,5,,,,,,5,,",
      "Neither true nor false,true-false,,,,,,,maybe,,",
      "Bad time,poll,A,B,,,,,,soon,",
      "Bad points,choice,A,B,,,,,1,,triple",
      'Correct out of range,multi-select,A,B,,,,,"1,9",,',
      "Nothing accepted,type-answer,,,,,,,,,",
    ].join("\n");
    const errors = expectErrors(await parseQuizSpreadsheet(csvBytes(csv), "bad.csv"));
    expect(errors).toEqual([
      rowProblem(3, "A question needs 2 to 6 answers.", { code: "ANSWER_COUNT", values: { min: 2, max: 6 } }),
      rowProblem(5, "Question text is required.", { code: "QUESTION_TEXT_REQUIRED" }),
      rowProblem(6, "Kind must be one of choice, true-false, multi-select, type-answer, closest-number, poll (or empty for choice).", {
        code: "IMPORT_KIND_CHOICE",
        values: { kinds: "choice, true-false, multi-select, type-answer, closest-number, poll" },
      }),
      rowProblem(7, "Choose which answer is correct.", { code: "CORRECT_ANSWER_CHOICE" }),
      rowProblem(8, "A choice question has one correct answer; make it multi-select for more.", { code: "IMPORT_CHOICE_ONE_CORRECT" }),
      rowProblem(9, "Correct must be the true number, like 1989 or 3.5.", { code: "IMPORT_CORRECT_VALUE" }),
      rowProblem(10, "A closest-number question takes its number in Correct; leave the answers empty.", { code: "IMPORT_CLOSEST_NUMBER_ANSWERS" }),
      rowProblem(11, "Correct must be true or false.", { code: "IMPORT_CORRECT_TRUE_FALSE" }),
      rowProblem(12, "Time limit must be a number of seconds.", { code: "TIME_LIMIT_NOT_A_NUMBER" }),
      rowProblem(13, "Points must be standard, double or none.", { code: "POINTS_CHOICE" }),
      rowProblem(14, "Correct names answer 9; answers are numbered 1 to 6.", { code: "IMPORT_CORRECT_OUT_OF_RANGE", values: { n: 9, max: 6 } }),
      rowProblem(15, "Give at least one accepted answer.", { code: "ACCEPTED_ANSWERS_REQUIRED" }),
    ]);
  });

  it("counts a quoted line break as part of its row", async () => {
    const csv = [HEADER, '"Two\nlines",choice,A,B,,,,,1,,', "Bad,choice,A,,,,,,1,,"].join("\n");
    expect(expectErrors(await parseQuizSpreadsheet(csvBytes(csv), "multiline.csv"))).toEqual([
      rowProblem(3, "A question needs 2 to 6 answers.", { code: "ANSWER_COUNT", values: { min: 2, max: 6 } }),
    ]);
  });

  it("refuses files that are not quiz spreadsheets, as a whole", async () => {
    const fileError = async (bytes: Uint8Array, name: string) => expectErrors(await parseQuizSpreadsheet(bytes, name));
    expect(await fileError(csvBytes("Name,Score\nAda,3\n"), "scores.csv")).toEqual([
      fileProblem(expect.stringMatching(/^No header row found/), { code: "IMPORT_NO_HEADER" }),
    ]);
    const noQuestions = fileProblem("The spreadsheet has no questions below its header row.", { code: "IMPORT_NO_QUESTIONS" });
    expect(await fileError(csvBytes(`${HEADER}\n\n`), "empty.csv")).toEqual([noQuestions]);
    expect(await fileError(new Uint8Array(), "empty.csv")).toEqual([noQuestions]);
    expect(await fileError(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0, 0, 0, 0]), "old.xls")).toEqual([
      fileProblem(expect.stringMatching(/\.xlsx/), { code: "IMPORT_NOT_A_SPREADSHEET" }),
    ]);
    expect(await fileError(csvBytes("not a zip"), "broken.xlsx")).toEqual([
      fileProblem(expect.stringMatching(/could not be read/), { code: "IMPORT_XLSX_UNREADABLE" }),
    ]);
    expect(await fileError(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), "broken.xlsx")).toEqual([
      fileProblem(expect.stringMatching(/could not be read/), { code: "IMPORT_XLSX_UNREADABLE" }),
    ]);
    expect(await fileError(new Uint8Array(2 * 1024 * 1024 + 1), "huge.csv")).toEqual([
      fileProblem("Spreadsheets can be at most 2 MB.", { code: "IMPORT_SPREADSHEET_TOO_LARGE", values: { size: "2 MB" } }),
    ]);
  });

  it("takes at most 100 questions", async () => {
    const rows = (n: number) => [HEADER, ...Array.from({ length: n }, (_, i) => `Q${i},poll,A,B,,,,,,,`)].join("\n");
    expect(expectOk(await parseQuizSpreadsheet(csvBytes(rows(100)), "100.csv"))).toHaveLength(100);
    expect(expectErrors(await parseQuizSpreadsheet(csvBytes(rows(101)), "101.csv"))).toEqual([
      fileProblem("A quiz can have at most 100 questions. This file has 101.", { code: "IMPORT_TOO_MANY_QUESTIONS", values: { max: 100, count: 101 } }),
    ]);
  });
});

describe("parseTypedNumber", () => {
  it.each([
    ["1989", 1989],
    ["-0.5", -0.5],
    ["1e6", 1e6],
    ["1.5e-7", 1.5e-7],
    ["1 000 000", 1e6],
    ["1,234,567", 1234567],
    ["1.234.567,5", 1234567.5],
    ["3,14", 3.14],
    [".5", 0.5],
    ["lots", null],
    ["", null],
    ["1-2", null],
  ])("%s -> %s", (cell, value) => {
    expect(parseTypedNumber(cell)).toBe(value);
  });
});
