/** Request bodies of the JSON API (docs/product.md#http-api), shared by the browser and the server. */
import { z } from "zod";
import { QuestionInputSchema } from "#app/game/question-input";
import { ClientIdSchema, IdSchema, QuizDescriptionSchema, QuizTitleSchema, TimeLimitSchema } from "./validation";

export const CreateQuizSchema = z.object({
  title: QuizTitleSchema,
  description: QuizDescriptionSchema.nullish().transform((value) => value ?? ""),
  timeLimit: TimeLimitSchema,
  isPublic: z.boolean({ error: "isPublic must be true or false." }).default(false),
  /** The first clients send a fixed 1; ownership comes from the requester, not from this field (docs/product.md#roles). */
  creatorId: z.unknown().optional(),
});

/** A question of any kind (app/game/question-input.ts) for a quiz, at a place in it. */
export const CreateQuestionSchema = z
  .object({
    quizId: IdSchema,
    order: z.number({ error: "order must be a number." }).int("order must be a whole number.").min(0, "order starts at 0."),
  })
  .passthrough()
  .transform((body, ctx) => {
    const content = QuestionInputSchema.safeParse(body);
    if (content.success) return { quizId: body.quizId, order: body.order, ...content.data };
    for (const issue of content.error.issues) ctx.addIssue({ ...issue, code: "custom", message: issue.message });
    return z.NEVER;
  });

export const CreateGameSchema = z.object({
  quizId: IdSchema,
  /** The first clients send a fixed 1; the host is whoever registers with its client id (docs/product.md#roles). */
  hostId: z.unknown().optional(),
});

export const RegisterHostSchema = z.object({
  clientId: ClientIdSchema,
});

export const CreateSubscriptionSessionSchema = z.object({
  planId: z.union(
    [
      IdSchema,
      z
        .string()
        .regex(/^[1-9]\d{0,15}$/, "Choose a plan.")
        .transform(Number),
    ],
    { error: "Choose a plan." },
  ),
});
