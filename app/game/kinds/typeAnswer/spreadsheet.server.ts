/** Type the answer in a spreadsheet: the accepted answers in the answer columns, any more as "a|b" in Correct. */
import { MAX_OPTIONS } from "../../question-kinds";
import type { KindSpreadsheetPart } from "../spreadsheet-part";

export const typeAnswerSpreadsheet: KindSpreadsheetPart<"typeAnswer"> = {
  name: "typeAnswer",
  spreadsheetName: "type-answer",
  aliases: ["typeanswer", "typed", "open"],
  examples: [
    { text: "Which element has the symbol Fe?", acceptedAnswers: ["Iron"] },
    { text: "What is the capital of the Netherlands?", acceptedAnswers: ["Amsterdam"] },
  ],
  write(question, answerCells) {
    // Up to six in the answer columns, where a person expects them; any more in Correct.
    question.acceptedAnswers.slice(0, MAX_OPTIONS).forEach((answer, i) => (answerCells[i] = answer));
    return question.acceptedAnswers.slice(MAX_OPTIONS).join("|");
  },
  read({ common, answers, correct }) {
    // The accepted answers are in the answer columns, or "a|b" in Correct, or both.
    const accepted = [...answers, ...correct.split("|").map((answer) => answer.trim())].filter(Boolean);
    return { status: "ok", input: { ...common, acceptedAnswers: [...new Set(accepted)] } };
  },
};
