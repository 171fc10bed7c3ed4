/** Multi-select in a spreadsheet: the options in the answer columns, the right ones' numbers in Correct ("1,3"). */
import { appError } from "#app/i18n/app-error";
import type { KindSpreadsheetPart } from "../spreadsheet-part";

export const multiSelectSpreadsheet: KindSpreadsheetPart<"multiSelect"> = {
  name: "multiSelect",
  spreadsheetName: "multi-select",
  aliases: ["multipleselect", "multipleanswers"],
  examples: [
    { text: "Which of these are planets?", answers: ["Mars", "Pluto", "Venus", "The Moon"], correctAnswerIndexes: [0, 2] },
    { text: "Which of these are flowers?", answers: ["Oak", "Rose", "Tulip", "Pine", "Daisy"], correctAnswerIndexes: [1, 2, 4] },
  ],
  write(question, answerCells) {
    question.answers.forEach((answer, i) => (answerCells[i] = answer));
    return question.correctAnswerIndexes.map((index) => index + 1).join(",");
  },
  // Kahoot's layout names a question with several right answers by their numbers ("1,3").
  kahootGuess: ({ correctNumbers }) => correctNumbers !== null && correctNumbers.length > 1,
  read({ common, answers, correct, answerNumbers, toIndexes }) {
    if (correct === "") return { status: "ok", input: { ...common, answers } };
    const numbers = answerNumbers(correct);
    if (!numbers) return { status: "invalid", error: appError("IMPORT_CORRECT_NUMBERS") };
    const indexes = toIndexes(numbers);
    if (!Array.isArray(indexes)) return { status: "invalid", error: indexes };
    return { status: "ok", input: { ...common, answers, correctAnswerIndexes: indexes } };
  },
};
