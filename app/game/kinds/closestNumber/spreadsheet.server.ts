/** Closest number in a spreadsheet: the true value in Correct, the answer columns empty. */
import { parseTypedNumber } from "../../question-kinds";
import type { KindSpreadsheetPart } from "../spreadsheet-part";

export const closestNumberSpreadsheet: KindSpreadsheetPart<"closestNumber"> = {
  name: "closestNumber",
  spreadsheetName: "closest-number",
  aliases: ["number", "slider"],
  examples: [
    { text: "In which year did the Berlin Wall fall?", correctNumber: 1989, timeLimit: 30, points: "double" },
    { text: "How high is Mount Everest, in metres?", correctNumber: 8849 },
  ],
  write: (question) => question.correctNumber ?? "",
  read({ common, answers, correct }) {
    if (answers.length > 0) return { status: "invalid", message: "A closest-number question takes its number in Correct; leave the answers empty." };
    const value = parseTypedNumber(correct);
    if (value === null) return { status: "invalid", message: "Correct must be the true number, like 1989 or 3.5." };
    return { status: "ok", input: { ...common, correctNumber: value } };
  },
};
