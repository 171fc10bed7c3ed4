/** Type the answer in the shared schemas: the accepted answers, as the author wrote them. */
import { z } from "zod";
import { MAX_ACCEPTED_ANSWERS, TYPED_ANSWER_MAX_LENGTH } from "../../question-kinds";
import { AcceptedAnswerSchema } from "../../question-fields";
import { typeAnswer } from "./kind";
import type { KindSchemaPart } from "../schema-part";
import { draftOptions } from "../shared-schema";
import { coded } from "#app/i18n/coded";
import { appError } from "#app/i18n/app-error";

/** A generated type-the-answer question lists at most this many accepted spellings. */
export const MAX_GENERATED_ACCEPTED_ANSWERS = 5;

const AT_LEAST_ONE = coded("ACCEPTED_ANSWERS_REQUIRED");
const AT_MOST = coded("ACCEPTED_ANSWERS_TOO_MANY", { max: MAX_ACCEPTED_ANSWERS });
const EVERY_REQUIRED = coded("ACCEPTED_ANSWER_REQUIRED");

export const typeAnswerSchema: KindSchemaPart<"typeAnswer"> = {
  name: "typeAnswer",
  inputFields: { acceptedAnswers: z.array(AcceptedAnswerSchema, AT_LEAST_ONE).min(1, AT_LEAST_ONE).max(MAX_ACCEPTED_ANSWERS, AT_MOST) },
  toContent: (question, base) => ({ ...base, acceptedAnswers: question.acceptedAnswers as string[] }),
  file: {
    fields: {
      acceptedAnswers: z
        .array(
          z
            .string(EVERY_REQUIRED)
            .trim()
            .min(1, EVERY_REQUIRED)
            .max(TYPED_ANSWER_MAX_LENGTH, coded("ACCEPTED_ANSWER_TOO_LONG", { max: TYPED_ANSWER_MAX_LENGTH })),
          AT_LEAST_ONE,
        )
        .min(1, AT_LEAST_ONE)
        .max(MAX_ACCEPTED_ANSWERS, AT_MOST)
        .describe(
          `Every answer that counts as right, 1 to ${MAX_ACCEPTED_ANSWERS}. Case, accents, punctuation and surrounding spaces do not count, and one typo is forgiven in answers of 5 letters or more.`,
        ),
    },
    description: "Type the answer: players type it.",
  },
  toFile: (question, { text, timeLimit, points, image }) => ({ kind: "typeAnswer", text, acceptedAnswers: question.acceptedAnswers, timeLimit, points, image }),
  ai: {
    guide: `- kind "typeAnswer" (${typeAnswer.label}): players type the answer, so it is one short word, name or number that nobody could spell in a way that is hard to foresee. acceptedAnswers lists 1 to ${MAX_GENERATED_ACCEPTED_ANSWERS} short ways of writing the right answer (the answer first, then common alternative spellings or names; case, accents and punctuation do not matter, so do not list those variants). answers [], correctAnswerIndexes [], correctNumber null.`,
    bounds: { answers: [0, 0], correct: [0, 0], accepted: [1, MAX_GENERATED_ACCEPTED_ANSWERS] },
    shuffles: false,
    fromModel(raw, label) {
      if (raw.acceptedAnswers.length > MAX_GENERATED_ACCEPTED_ANSWERS) {
        return `a ${label} question with more than ${MAX_GENERATED_ACCEPTED_ANSWERS} accepted answers`;
      }
      return { kind: "typeAnswer", text: raw.text, acceptedAnswers: raw.acceptedAnswers };
    },
  },
  editor: {
    draftOf: (question, empty) => ({ answers: draftOptions(question.answers, empty) }),
    inputOf: (draft) => ({
      acceptedAnswers: draft.acceptedAnswers
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    }),
    check(draft, n, errors) {
      if (draft.acceptedAnswers.trim() === "") errors.acceptedAnswers = appError("QUESTION_NO_ACCEPTED_ANSWER", { n });
    },
  },
};
