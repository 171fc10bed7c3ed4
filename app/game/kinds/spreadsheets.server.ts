/**
 * The registry of the kinds' spreadsheet parts (app/game/kinds/spreadsheet-part.ts), server-only.
 * Lists the same kinds as `index.ts`; a kind without one does not compile.
 */
import { choiceSpreadsheet } from "./choice/spreadsheet.server";
import { closestNumberSpreadsheet } from "./closestNumber/spreadsheet.server";
import type { QuestionKind } from "./index";
import { multiSelectSpreadsheet } from "./multiSelect/spreadsheet.server";
import { pollSpreadsheet } from "./poll/spreadsheet.server";
import type { KindSpreadsheetPart } from "./spreadsheet-part";
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
