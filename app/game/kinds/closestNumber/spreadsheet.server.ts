/** Closest number in a spreadsheet: the true value in Correct, the answer columns empty. */
import { parseTypedNumber } from "../../question-kinds";
import type { KindSpreadsheetPart } from "../spreadsheet-part";

export const closestNumberSpreadsheet: KindSpreadsheetPart<"closestNumber"> = {
  name: "closestNumber",
  spreadsheetName: "closest-number",
  aliases: ["number", "slider"],
  write: (question) => question.correctNumber ?? "",
  read({ common, answers, correct }) {
    if (answers.length > 0) return { status: "invalid", message: "A closest-number question takes its number in Correct; leave the answers empty." };
    const value = parseTypedNumber(correct);
    if (value === null) return { status: "invalid", message: "Correct must be the true number, like 1989 or 3.5." };
    return { status: "ok", input: { ...common, correctNumber: value } };
  },
};
