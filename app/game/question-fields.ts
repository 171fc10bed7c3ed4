/**
 * The field rules every question shares, with their messages, for the shared question schema
 * (`question-input.ts`) and each kind's own fields (app/game/kinds/<kind>/schema.ts). A leaf: it
 * imports no kind, so the kinds can build on it.
 */
import { z } from "zod";
import {
  IMAGE_ID_PATTERN,
  MAX_NUMBER,
  MAX_OPTIONS,
  MIN_OPTIONS,
  normalizeTypedAnswer,
  POINTS_OPTIONS,
  QUESTION_TIME_LIMIT_MAX,
  QUESTION_TIME_LIMIT_MIN,
  TYPED_ANSWER_MAX_LENGTH,
} from "./question-kinds";

export const QuestionTextSchema = z
  .string({ error: "Question text is required." })
  .trim()
  .min(1, "Question text is required.")
  .max(500, "Keep the question under 500 characters.");

export const AnswerTextSchema = z
  .string({ error: "Every answer option is required." })
  .trim()
  .min(1, "Every answer option is required.")
  .max(200, "Keep each answer under 200 characters.");

const OPTIONS_MESSAGE = `A question needs ${MIN_OPTIONS} to ${MAX_OPTIONS} answers.`;
export const OptionsSchema = z.array(AnswerTextSchema, { error: OPTIONS_MESSAGE }).min(MIN_OPTIONS, OPTIONS_MESSAGE).max(MAX_OPTIONS, OPTIONS_MESSAGE);

export const QuestionTimeLimitSchema = z
  .number({ error: "Time limit must be a number of seconds." })
  .int("Time limit must be a whole number of seconds.")
  .min(QUESTION_TIME_LIMIT_MIN, `Time limit must be at least ${QUESTION_TIME_LIMIT_MIN} seconds.`)
  .max(QUESTION_TIME_LIMIT_MAX, `Time limit must be at most ${QUESTION_TIME_LIMIT_MAX} seconds.`);

export const PointsSchema = z.enum(POINTS_OPTIONS, { error: "Points must be standard, double or none." });

export const ImageIdSchema = z.string({ error: "Not a picture id." }).regex(IMAGE_ID_PATTERN, "Not a picture id.");

export const AcceptedAnswerSchema = z
  .string({ error: "Every accepted answer is required." })
  .trim()
  .min(1, "Every accepted answer is required.")
  .max(TYPED_ANSWER_MAX_LENGTH, `Keep each accepted answer under ${TYPED_ANSWER_MAX_LENGTH} characters.`)
  .refine((answer) => normalizeTypedAnswer(answer).length > 0, "An accepted answer needs a letter or a digit.");

export const NumberValueSchema = z
  .number({ error: "Enter a number." })
  .refine((value) => Number.isFinite(value) && Math.abs(value) <= MAX_NUMBER, `Enter a number between -${MAX_NUMBER} and ${MAX_NUMBER}.`);

const indexMessage = "Choose which answer is correct.";
/** A right answer's position among the options, counted from 0. */
export const IndexSchema = z
  .number({ error: indexMessage })
  .int(indexMessage)
  .min(0, indexMessage)
  .max(MAX_OPTIONS - 1, indexMessage);

export const COMMON_QUESTION_FIELDS = {
  text: QuestionTextSchema,
  timeLimit: QuestionTimeLimitSchema.nullish().transform((value) => value ?? null),
  points: PointsSchema.default("standard"),
  imageId: ImageIdSchema.nullish().transform((value) => value ?? null),
  /** Carried by old clients and by our own API output; the question's place is its order in the quiz. */
  order: z.unknown().optional(),
};
