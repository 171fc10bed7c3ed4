/** True or false in a spreadsheet: true or false in Correct (in several languages), or the option's own text. */
import { appError } from "#app/i18n/app-error";
import { TRUE_FALSE_ANSWERS } from "../../question-kinds";
import type { KindSpreadsheetPart } from "../spreadsheet-part";

/** "1" and "2" are the answers' numbers, as Kahoot's layout names them. */
const TRUE_WORDS = new Set(["true", "t", "yes", "y", "1", "wahr", "vrai", "verdadero", "vero", "waar"]);
const FALSE_WORDS = new Set(["false", "f", "no", "n", "2", "falsch", "faux", "falso", "onwaar"]);

export const trueFalseSpreadsheet: KindSpreadsheetPart<"trueFalse"> = {
  name: "trueFalse",
  spreadsheetName: "true-false",
  aliases: ["tf"],
  examples: [
    { text: "A group of crows is called a murder.", answers: ["True", "False"], correctAnswerIndex: 0, correctAnswerIndexes: [0] },
    { text: "The Atlantic is the largest ocean on Earth.", answers: ["True", "False"], correctAnswerIndex: 1, correctAnswerIndexes: [1] },
  ],
  write(question, answerCells) {
    question.answers.forEach((answer, i) => (answerCells[i] = answer));
    return question.correctAnswerIndex === 1 ? "false" : "true";
  },
  // Kahoot's layout writes a true-or-false question as the two answers True and False (one right answer: several are a multi-select's).
  kahootGuess: ({ answers, correctNumbers }) =>
    !(correctNumbers !== null && correctNumbers.length > 1) &&
    answers.length === 2 &&
    answers.every((answer, i) => answer.toLowerCase() === TRUE_FALSE_ANSWERS[i].toLowerCase()),
  read({ common, answers, correct }) {
    const key = correct.toLowerCase();
    // Custom wording ("Yes"/"No") may be named by its text too.
    const byText = answers.findIndex((answer) => answer.toLowerCase() === key);
    const index = byText >= 0 && answers.length === 2 ? byText : TRUE_WORDS.has(key) ? 0 : FALSE_WORDS.has(key) ? 1 : -1;
    if (index < 0) return { status: "invalid", error: appError("IMPORT_CORRECT_TRUE_FALSE") };
    return { status: "ok", input: { ...common, ...(answers.length > 0 ? { answers } : {}), correctAnswerIndex: index } };
  },
};
