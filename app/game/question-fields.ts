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
import { coded } from "#app/i18n/coded";

export const QuestionTextSchema = z
  .string(coded("QUESTION_TEXT_REQUIRED"))
  .trim()
  .min(1, coded("QUESTION_TEXT_REQUIRED"))
  .max(500, coded("QUESTION_TEXT_TOO_LONG", { max: 500 }));

export const AnswerTextSchema = z
  .string(coded("ANSWER_REQUIRED"))
  .trim()
  .min(1, coded("ANSWER_REQUIRED"))
  .max(200, coded("ANSWER_TOO_LONG", { max: 200 }));

const OPTIONS_MESSAGE = () => coded("ANSWER_COUNT", { min: MIN_OPTIONS, max: MAX_OPTIONS });
export const OptionsSchema = z.array(AnswerTextSchema, OPTIONS_MESSAGE()).min(MIN_OPTIONS, OPTIONS_MESSAGE()).max(MAX_OPTIONS, OPTIONS_MESSAGE());

export const QuestionTimeLimitSchema = z
  .number(coded("TIME_LIMIT_NOT_A_NUMBER"))
  .int(coded("TIME_LIMIT_NOT_WHOLE"))
  .min(QUESTION_TIME_LIMIT_MIN, coded("TIME_LIMIT_TOO_SHORT", { seconds: QUESTION_TIME_LIMIT_MIN }))
  .max(QUESTION_TIME_LIMIT_MAX, coded("TIME_LIMIT_TOO_LONG", { seconds: QUESTION_TIME_LIMIT_MAX }));

export const PointsSchema = z.enum(POINTS_OPTIONS, coded("POINTS_CHOICE"));

export const ImageIdSchema = z.string(coded("PICTURE_ID_INVALID")).regex(IMAGE_ID_PATTERN, coded("PICTURE_ID_INVALID"));

export const AcceptedAnswerSchema = z
  .string(coded("ACCEPTED_ANSWER_REQUIRED"))
  .trim()
  .min(1, coded("ACCEPTED_ANSWER_REQUIRED"))
  .max(TYPED_ANSWER_MAX_LENGTH, coded("ACCEPTED_ANSWER_TOO_LONG", { max: TYPED_ANSWER_MAX_LENGTH }))
  .refine((answer) => normalizeTypedAnswer(answer).length > 0, coded("ACCEPTED_ANSWER_NO_LETTER"));

export const NumberValueSchema = z
  .number(coded("NUMBER_REQUIRED"))
  .refine((value) => Number.isFinite(value) && Math.abs(value) <= MAX_NUMBER, coded("NUMBER_OUT_OF_RANGE", { max: MAX_NUMBER }));

/** A right answer's position among the options, counted from 0. */
export const IndexSchema = z
  .number(coded("CORRECT_ANSWER_CHOICE"))
  .int(coded("CORRECT_ANSWER_CHOICE"))
  .min(0, coded("CORRECT_ANSWER_CHOICE"))
  .max(MAX_OPTIONS - 1, coded("CORRECT_ANSWER_CHOICE"));

export const COMMON_QUESTION_FIELDS = {
  text: QuestionTextSchema,
  timeLimit: QuestionTimeLimitSchema.nullish().transform((value) => value ?? null),
  points: PointsSchema.default("standard"),
  imageId: ImageIdSchema.nullish().transform((value) => value ?? null),
  /** Carried by old clients and by our own API output; the question's place is its order in the quiz. */
  order: z.unknown().optional(),
};
