/** Closest number in a spreadsheet: the true value in Correct, the answer columns empty. */
import { appError } from "#app/i18n/app-error";
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
    if (answers.length > 0) return { status: "invalid", error: appError("IMPORT_CLOSEST_NUMBER_ANSWERS") };
    const value = parseTypedNumber(correct);
    if (value === null) return { status: "invalid", error: appError("IMPORT_CORRECT_VALUE") };
    return { status: "ok", input: { ...common, correctNumber: value } };
  },
};
