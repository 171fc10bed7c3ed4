/** Closest number in the shared schemas: the true value. */
import { appError } from "#app/i18n/app-error";
import { parseTypedNumber } from "../../question-kinds";
import { NumberValueSchema } from "../../question-fields";
import { closestNumber } from "./kind";
import type { KindSchemaPart } from "../schema-part";
import { draftOptions } from "../shared-schema";

export const closestNumberSchema: KindSchemaPart<"closestNumber"> = {
  name: "closestNumber",
  inputFields: { correctNumber: NumberValueSchema },
  toContent: (question, base) => ({ ...base, correctNumber: question.correctNumber as number }),
  file: {
    fields: { correctNumber: NumberValueSchema.describe("The true value; the closer a guess, the more points (exact = full points).") },
    description: "Closest number: players guess a number.",
  },
  toFile: (question, { text, timeLimit, points, image }) => ({
    kind: "closestNumber",
    text,
    correctNumber: question.correctNumber ?? 0,
    timeLimit,
    points,
    image,
  }),
  ai: {
    guide: `- kind "closestNumber" (${closestNumber.label}): players guess a number and the closest guess wins. The question asks for a single true value that is a well-known, undisputed fact (a year, a height, a count), and says the unit when there is one. correctNumber is that value as a plain number. answers [], correctAnswerIndexes [], acceptedAnswers [].`,
    bounds: { answers: [0, 0], correct: [0, 0], accepted: [0, 0] },
    shuffles: false,
    fromModel: (raw) => ({ kind: "closestNumber", text: raw.text, correctNumber: raw.correctNumber ?? undefined }),
  },
  editor: {
    draftOf: (question, empty) => ({ answers: draftOptions(question.answers, empty) }),
    inputOf: (draft) => ({ correctNumber: parseTypedNumber(draft.correctNumber) ?? (draft.correctNumber.trim() === "" ? undefined : Number.NaN) }),
    check(draft, n, errors) {
      if (parseTypedNumber(draft.correctNumber) === null) errors.correctNumber = appError("QUESTION_NO_NUMBER", { n });
    },
  },
};
