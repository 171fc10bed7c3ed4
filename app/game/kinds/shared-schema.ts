/** Schema helpers several kinds share (app/game/kinds/schema-part.ts). */
import { appError, type AppError } from "#app/i18n/app-error";
import { MAX_OPTIONS, MIN_OPTIONS } from "../question-kinds";
import { OptionsSchema } from "../question-fields";
import type { QuestionDraft } from "./schema-part";

/** The options as the quiz file describes them. */
export const FILE_OPTIONS = OptionsSchema.describe(`The options players pick from, 2 to ${MAX_OPTIONS}, in the order they are shown.`);

/** How the AI's prompt says how many options a question has. */
export const AI_OPTIONS = `${MIN_OPTIONS} to ${MAX_OPTIONS}`;

export const outOfRange = (index: number, count: number) => index >= count;

/** A stored question's options in its draft; a question without options keeps the empty draft's. */
export function draftOptions(answers: string[], empty: QuestionDraft): string[] {
  return answers.length === 0 ? empty.answers : [...answers];
}

/** The editor's messages on a question's options: every option filled, and enough of them. */
export function checkDraftOptions(draft: QuestionDraft, n: number, errors: Record<string, AppError>): void {
  draft.answers.forEach((answer, index) => {
    if (answer.trim() === "") errors[`answers.${index}`] ??= appError("QUESTION_EMPTY_ANSWER", { n });
  });
  if (draft.answers.length < MIN_OPTIONS) errors.answers = appError("QUESTION_TOO_FEW_ANSWERS", { n, min: MIN_OPTIONS });
}

/** Options of a generated question with exactly one right option, or what is wrong. */
export function oneRightOption(raw: { correctAnswerIndexes: number[] }, label: string): number | string {
  if (raw.correctAnswerIndexes.length !== 1) return `a ${label} question without exactly one correct answer`;
  return raw.correctAnswerIndexes[0];
}
