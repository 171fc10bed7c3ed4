/** A poll in a spreadsheet: its options in the answer columns; Correct and Points stay empty. */
import type { KindSpreadsheetPart } from "../spreadsheet-part";

export const pollSpreadsheet: KindSpreadsheetPart<"poll"> = {
  name: "poll",
  spreadsheetName: "poll",
  aliases: ["survey"],
  examples: [
    { text: "Which round should come next?", answers: ["Music", "Sport", "History"], points: "none" },
    { text: "Which season do you like best?", answers: ["Spring", "Summer", "Autumn", "Winter", "None"], points: "none" },
  ],
  write(question, answerCells) {
    question.answers.forEach((answer, i) => (answerCells[i] = answer));
    return "";
  },
  read: ({ common, answers }) => ({ status: "ok", input: { ...common, answers } }),
};
