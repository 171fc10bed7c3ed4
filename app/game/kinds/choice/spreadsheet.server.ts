/** Multiple choice in a spreadsheet: the options in the answer columns, the right one's number (or text) in Correct. */
import { appError } from "#app/i18n/app-error";
import { MAX_OPTIONS } from "../../question-kinds";
import type { KindSpreadsheetPart } from "../spreadsheet-part";

export const choiceSpreadsheet: KindSpreadsheetPart<"choice"> = {
  name: "choice",
  spreadsheetName: "choice",
  aliases: ["quiz", "singlechoice"],
  examples: [
    { text: "What is the capital of Australia?", answers: ["Sydney", "Canberra", "Melbourne", "Perth"], correctAnswerIndex: 1, correctAnswerIndexes: [1] },
    {
      text: "Which of these animals is a mammal?",
      answers: ["Ant", "Bee", "Cat", "Duck", "Eel", "Frog"],
      correctAnswerIndex: 2,
      correctAnswerIndexes: [2],
    },
  ],
  write(question, answerCells) {
    question.answers.forEach((answer, i) => (answerCells[i] = answer));
    return question.correctAnswerIndex + 1;
  },
  read({ common, answers, correct, answerNumbers, toIndexes }) {
    if (correct === "") return { status: "ok", input: { ...common, answers } };
    // The right answer written out instead of its number.
    const byText = answers.findIndex((answer) => answer.toLowerCase() === correct.toLowerCase());
    if (byText >= 0 && !/^\d+$/.test(correct)) return { status: "ok", input: { ...common, answers, correctAnswerIndex: byText } };
    const numbers = answerNumbers(correct);
    if (!numbers) return { status: "invalid", error: appError("IMPORT_CORRECT_NUMBER", { max: MAX_OPTIONS }) };
    if (numbers.length > 1) return { status: "invalid", error: appError("IMPORT_CHOICE_ONE_CORRECT") };
    const indexes = toIndexes(numbers);
    if (!Array.isArray(indexes)) return { status: "invalid", error: indexes };
    return { status: "ok", input: { ...common, answers, correctAnswerIndex: indexes[0] } };
  },
};
