/** Request bodies of the JSON API (spec section 7), shared by the browser and the server. */
import { z } from "zod";
import {
  AnswerIndexSchema,
  AnswersSchema,
  ClientIdSchema,
  IdSchema,
  QuestionTextSchema,
  QuizDescriptionSchema,
  QuizTitleSchema,
  TimeLimitSchema,
} from "./validation";

export const CreateQuizSchema = z.object({
  title: QuizTitleSchema,
  description: QuizDescriptionSchema.nullish().transform((value) => value ?? ""),
  timeLimit: TimeLimitSchema,
  isPublic: z.boolean({ error: "isPublic must be true or false." }).default(false),
  /** The spec's client sends a fixed 1; ownership comes from the requester, not from this field. */
  creatorId: z.unknown().optional(),
});

export const CreateQuestionSchema = z.object({
  quizId: IdSchema,
  text: QuestionTextSchema,
  answers: AnswersSchema,
  correctAnswerIndex: AnswerIndexSchema,
  order: z.number({ error: "order must be a number." }).int("order must be a whole number.").min(0, "order starts at 0."),
});

export const CreateGameSchema = z.object({
  quizId: IdSchema,
  /** The spec's client sends a fixed 1; the host is whoever registers with its client id. */
  hostId: z.unknown().optional(),
});

export const RegisterHostSchema = z.object({
  clientId: ClientIdSchema,
});

export const CreateSubscriptionSessionSchema = z.object({
  planId: z.union([IdSchema, z.string().regex(/^[1-9]\d{0,15}$/, "Choose a plan.").transform(Number)], { error: "Choose a plan." }),
});
