/** Multi-select in the shared schemas: the options and the right ones (one or more), ascending. */
import { z } from "zod";
import { MAX_OPTIONS, MIN_OPTIONS } from "../../question-kinds";
import { IndexSchema, OptionsSchema } from "../../question-fields";
import { multiSelect } from "./kind";
import type { KindSchemaPart } from "../schema-part";
import { AI_OPTIONS, checkDraftOptions, draftOptions, FILE_OPTIONS, outOfRange } from "../shared-schema";
import { coded, codedIssue } from "#app/i18n/coded";
import { appError } from "#app/i18n/app-error";

const AT_LEAST_ONE = coded("CORRECT_ANSWERS_REQUIRED");
const rightOptions = () => z.array(IndexSchema, AT_LEAST_ONE).min(1, AT_LEAST_ONE).max(MAX_OPTIONS, AT_LEAST_ONE);

export const multiSelectSchema: KindSchemaPart<"multiSelect"> = {
  name: "multiSelect",
  inputFields: { answers: OptionsSchema, correctAnswerIndexes: rightOptions() },
  refine(question, ctx) {
    const indexes = question.correctAnswerIndexes as number[];
    if (indexes.some((index) => outOfRange(index, (question.answers as string[]).length))) {
      ctx.addIssue({ code: "custom", path: ["correctAnswerIndexes"], ...codedIssue("CORRECT_ANSWERS_NOT_ANSWERS") });
    }
    if (new Set(indexes).size !== indexes.length) {
      ctx.addIssue({ code: "custom", path: ["correctAnswerIndexes"], ...codedIssue("CORRECT_ANSWERS_REPEATED") });
    }
  },
  toContent: (question, base) => ({
    ...base,
    answers: question.answers as string[],
    correctAnswerIndexes: [...(question.correctAnswerIndexes as number[])].sort((a, b) => a - b),
  }),
  file: {
    fields: {
      answers: FILE_OPTIONS,
      correctAnswerIndexes: rightOptions().describe("Every right option, counted from 0; one or more. Points scale with right picks minus wrong ones."),
    },
    description: "Multi-select: players pick every option they think is right.",
  },
  toFile: (question, { text, timeLimit, points, image }) => ({
    kind: "multiSelect",
    text,
    answers: question.answers,
    correctAnswerIndexes: question.correctAnswerIndexes,
    timeLimit,
    points,
    image,
  }),
  ai: {
    guide: `- kind "multiSelect" (${multiSelect.label}): a question with ${AI_OPTIONS} options in answers of which at least one, usually two or three, are right; correctAnswerIndexes lists the 0-based position of every right option, each once. The question says players may pick several ("Which of these ... ?"). acceptedAnswers [], correctNumber null.`,
    bounds: { answers: [MIN_OPTIONS, MAX_OPTIONS], correct: [1, MAX_OPTIONS], accepted: [0, 0] },
    shuffles: true,
    fromModel: (raw) => ({ kind: "multiSelect", text: raw.text, answers: raw.answers, correctAnswerIndexes: raw.correctAnswerIndexes }),
  },
  editor: {
    draftOf: (question, empty) => ({ answers: draftOptions(question.answers, empty), correctAnswerIndexes: [...question.correctAnswerIndexes] }),
    inputOf: (draft) => ({ answers: draft.answers, correctAnswerIndexes: draft.correctAnswerIndexes.filter((index) => index < draft.answers.length) }),
    check(draft, n, errors) {
      checkDraftOptions(draft, n, errors);
      if (draft.correctAnswerIndexes.length === 0) errors.correctAnswerIndexes = appError("QUESTION_NO_CORRECT_ANSWER", { n });
    },
  },
};
