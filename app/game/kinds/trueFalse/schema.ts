/** True or false in the shared schemas: which of the two is right, and the options' wording if not True/False. */
import { z } from "zod";
import { TRUE_FALSE_ANSWERS } from "../../question-kinds";
import { AnswerTextSchema } from "../../question-fields";
import { trueFalse } from "./kind";
import type { KindSchemaPart } from "../schema-part";
import { coded } from "#app/i18n/coded";

const TWO_ANSWERS = coded("TRUE_FALSE_TWO_ANSWERS");
const ZERO_OR_ONE = coded("TRUE_FALSE_CORRECT_ANSWER");

export const trueFalseSchema: KindSchemaPart<"trueFalse"> = {
  name: "trueFalse",
  inputFields: {
    answers: z.array(AnswerTextSchema).length(2, TWO_ANSWERS).optional(),
    correctAnswerIndex: z.union([z.literal(0), z.literal(1)], ZERO_OR_ONE),
  },
  toContent(question, base) {
    const index = question.correctAnswerIndex as number;
    return {
      ...base,
      answers: (question.answers as string[] | undefined) ?? [...TRUE_FALSE_ANSWERS],
      correctAnswerIndex: index,
      correctAnswerIndexes: [index],
    };
  },
  file: {
    fields: {
      answers: z
        .array(AnswerTextSchema)
        .length(2, TWO_ANSWERS)
        .optional()
        .describe('How the two options are worded, true first; absent means ["True", "False"].'),
      correctAnswerIndex: z.union([z.literal(0), z.literal(1)], ZERO_OR_ONE).describe("0 when the statement is true, 1 when it is false."),
    },
    description: "True or false: a statement players judge.",
  },
  toFile(question, { text, timeLimit, points, image }) {
    const standard = question.answers.length === 2 && question.answers.every((answer, i) => answer === TRUE_FALSE_ANSWERS[i]);
    return {
      kind: "trueFalse",
      text,
      ...(standard ? {} : { answers: question.answers }),
      correctAnswerIndex: question.correctAnswerIndex === 1 ? 1 : 0,
      timeLimit,
      points,
      image,
    };
  },
  ai: {
    guide: `- kind "trueFalse" (${trueFalse.label}): text is a statement that is clearly true or clearly false. answers is exactly ["True", "False"] (in English, whatever the quiz's language); correctAnswerIndexes is [0] when the statement is true and [1] when it is false. Make about as many false statements as true ones. acceptedAnswers [], correctNumber null.`,
    bounds: { answers: [2, 2], correct: [1, 1], accepted: [0, 0] },
    shuffles: false,
    fromModel(raw, label, sameness) {
      if (raw.correctAnswerIndexes.length !== 1) return `a ${label} question without exactly one correct answer`;
      const standard = TRUE_FALSE_ANSWERS.map(sameness);
      if (raw.answers.length > 0 && (raw.answers.length !== 2 || raw.answers.some((answer, i) => sameness(answer) !== standard[i]))) {
        return `a ${label} question whose answers are not "True" and "False"`;
      }
      // The stored answers are always True and False, in that order (0 = true).
      return { kind: "trueFalse", text: raw.text, correctAnswerIndex: raw.correctAnswerIndexes[0] };
    },
  },
  editor: {
    // The editor always shows True and False: the empty draft's options stay.
    draftOf: (question) => ({ trueFalse: question.correctAnswerIndex }),
    inputOf: (draft) => ({ answers: [...TRUE_FALSE_ANSWERS], correctAnswerIndex: draft.trueFalse }),
    check: () => {},
  },
};
