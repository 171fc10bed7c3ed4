/** Multiple choice in the shared schemas: the options and the one right option's index. */
import { MAX_OPTIONS, MIN_OPTIONS } from "../../question-kinds";
import { IndexSchema, OptionsSchema } from "../../question-fields";
import { choice } from "./kind";
import type { KindSchemaPart } from "../schema-part";
import { AI_OPTIONS, checkDraftOptions, draftOptions, FILE_OPTIONS, oneRightOption, outOfRange } from "../shared-schema";
import { codedIssue } from "#app/i18n/coded";

export const choiceSchema: KindSchemaPart<"choice"> = {
  name: "choice",
  inputFields: { answers: OptionsSchema, correctAnswerIndex: IndexSchema },
  refine(question, ctx) {
    if (outOfRange(question.correctAnswerIndex as number, (question.answers as string[]).length)) {
      ctx.addIssue({ code: "custom", path: ["correctAnswerIndex"], ...codedIssue("CORRECT_ANSWER_NOT_AN_ANSWER") });
    }
  },
  toContent: (question, base) => ({
    ...base,
    answers: question.answers as string[],
    correctAnswerIndex: question.correctAnswerIndex as number,
    correctAnswerIndexes: [question.correctAnswerIndex as number],
  }),
  file: {
    fields: { answers: FILE_OPTIONS, correctAnswerIndex: IndexSchema.describe("The one right option, counted from 0.") },
    description: "Multiple choice: exactly one option is right.",
  },
  toFile: (question, { text, timeLimit, points, image }) => ({
    kind: "choice",
    text,
    answers: question.answers,
    correctAnswerIndex: question.correctAnswerIndex,
    timeLimit,
    points,
    image,
  }),
  ai: {
    guide: `- kind "choice" (${choice.label}): a question with ${AI_OPTIONS} options (4 is usual) in answers, exactly one of them right. correctAnswerIndexes holds the one 0-based position of the right option. The wrong options are plausible and of the same sort as the right one (four years, four cities, four people...). acceptedAnswers [], correctNumber null.`,
    bounds: { answers: [MIN_OPTIONS, MAX_OPTIONS], correct: [1, 1], accepted: [0, 0] },
    shuffles: true,
    fromModel(raw, label) {
      const index = oneRightOption(raw, label);
      if (typeof index === "string") return index;
      return { kind: "choice", text: raw.text, answers: raw.answers, correctAnswerIndex: index };
    },
  },
  editor: {
    draftOf: (question, empty) => ({ answers: draftOptions(question.answers, empty), correctAnswerIndex: question.correctAnswerIndex }),
    inputOf: (draft) => ({ answers: draft.answers, correctAnswerIndex: draft.correctAnswerIndex }),
    check: checkDraftOptions,
  },
};
