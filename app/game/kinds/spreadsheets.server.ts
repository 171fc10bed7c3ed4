/**
 * The registry of the kinds' spreadsheet parts (app/game/kinds/spreadsheet-part.ts), server-only.
 * Lists the same kinds as `index.ts`; a kind without one does not compile.
 */
import { choiceSpreadsheet } from "./choice/spreadsheet.server";
import { closestNumberSpreadsheet } from "./closestNumber/spreadsheet.server";
import { DEFAULT_KIND, QUESTION_KINDS, type QuestionKind } from "./index";
import { multiSelectSpreadsheet } from "./multiSelect/spreadsheet.server";
import { pollSpreadsheet } from "./poll/spreadsheet.server";
import type { KindSpreadsheetPart, UnnamedRow } from "./spreadsheet-part";
import { trueFalseSpreadsheet } from "./trueFalse/spreadsheet.server";
import { typeAnswerSpreadsheet } from "./typeAnswer/spreadsheet.server";

export const KIND_SPREADSHEETS: { readonly [Name in QuestionKind]: KindSpreadsheetPart<Name> } = {
  choice: choiceSpreadsheet,
  trueFalse: trueFalseSpreadsheet,
  multiSelect: multiSelectSpreadsheet,
  typeAnswer: typeAnswerSpreadsheet,
  closestNumber: closestNumberSpreadsheet,
  poll: pollSpreadsheet,
};

export function kindSpreadsheetOf(name: QuestionKind): KindSpreadsheetPart {
  return KIND_SPREADSHEETS[name] as KindSpreadsheetPart;
}

/** The kind of a row without a Kind cell: the one whose spreadsheet part claims it, or the default kind. */
export function guessKindOf(row: UnnamedRow): QuestionKind {
  return QUESTION_KINDS.find((name) => KIND_SPREADSHEETS[name].kahootGuess?.(row)) ?? DEFAULT_KIND;
}
