/**
 * The one schema every way in shares for a question of any kind (the JSON API, the editor, import,
 * AI generation), so a question is checked the same wherever it comes from, and its field rules
 * with their messages. The kinds themselves, as data, are in `question-kinds.ts`.
 */
import { z } from "zod";
import {
  IMAGE_ID_PATTERN,
  MAX_ACCEPTED_ANSWERS,
  MAX_NUMBER,
  MAX_OPTIONS,
  MIN_OPTIONS,
  normalizeTypedAnswer,
  POINTS_OPTIONS,
  QUESTION_TIME_LIMIT_MAX,
  QUESTION_TIME_LIMIT_MIN,
  TRUE_FALSE_ANSWERS,
  TYPED_ANSWER_MAX_LENGTH,
  type PointsOption,
  type QuestionContent,
  type QuestionKind,
} from "./question-kinds";
import { QUESTION_KINDS } from "./kinds";

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

const AcceptedAnswerSchema = z
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

const common = {
  text: QuestionTextSchema,
  timeLimit: QuestionTimeLimitSchema.nullish().transform((value) => value ?? null),
  points: PointsSchema.default("standard"),
  imageId: ImageIdSchema.nullish().transform((value) => value ?? null),
  /** Carried by old clients and by our own API output; the question's place is its order in the quiz. */
  order: z.unknown().optional(),
};

const outOfRange = (index: number, count: number) => index >= count;

/**
 * One question of any kind. Without `kind` it is a multiple-choice question in the original shape
 * (`answers` + `correctAnswerIndex`), so every client of the first API keeps working unchanged.
 */
export const QuestionInputSchema = z
  .preprocess(
    (value) => (value && typeof value === "object" && !Array.isArray(value) && !("kind" in value) ? { ...value, kind: "choice" } : value),
    z.discriminatedUnion(
      "kind",
      [
        z.object({ kind: z.literal("choice"), ...common, answers: OptionsSchema, correctAnswerIndex: IndexSchema }),
        z.object({
          kind: z.literal("trueFalse"),
          ...common,
          answers: z.array(AnswerTextSchema).length(2, "A true-or-false question has exactly 2 answers.").optional(),
          correctAnswerIndex: z.union([z.literal(0), z.literal(1)], { error: "The correct answer is 0 (true) or 1 (false)." }),
        }),
        z.object({
          kind: z.literal("multiSelect"),
          ...common,
          answers: OptionsSchema,
          correctAnswerIndexes: z
            .array(IndexSchema, { error: "Choose at least one correct answer." })
            .min(1, "Choose at least one correct answer.")
            .max(MAX_OPTIONS, "Choose at least one correct answer."),
        }),
        z.object({
          kind: z.literal("typeAnswer"),
          ...common,
          acceptedAnswers: z
            .array(AcceptedAnswerSchema, { error: "Give at least one accepted answer." })
            .min(1, "Give at least one accepted answer.")
            .max(MAX_ACCEPTED_ANSWERS, `Give at most ${MAX_ACCEPTED_ANSWERS} accepted answers.`),
        }),
        z.object({ kind: z.literal("closestNumber"), ...common, correctNumber: NumberValueSchema }),
        z.object({ kind: z.literal("poll"), ...common, answers: OptionsSchema }),
      ],
      { error: `kind must be one of ${QUESTION_KINDS.join(", ")}.` },
    ),
  )
  .superRefine((question, ctx) => {
    if (question.kind === "choice" && outOfRange(question.correctAnswerIndex, question.answers.length)) {
      ctx.addIssue({ code: "custom", path: ["correctAnswerIndex"], message: "The correct answer must be one of the answers." });
    }
    if (question.kind === "multiSelect") {
      if (question.correctAnswerIndexes.some((index) => outOfRange(index, question.answers.length))) {
        ctx.addIssue({ code: "custom", path: ["correctAnswerIndexes"], message: "Every correct answer must be one of the answers." });
      }
      if (new Set(question.correctAnswerIndexes).size !== question.correctAnswerIndexes.length) {
        ctx.addIssue({ code: "custom", path: ["correctAnswerIndexes"], message: "Name each correct answer once." });
      }
    }
  })
  .transform((question): QuestionContent => toContent(question));

export type QuestionInput = z.input<typeof QuestionInputSchema>;

function toContent(question: Record<string, unknown> & { kind: QuestionKind; text: string }): QuestionContent {
  const base = {
    kind: question.kind,
    text: question.text,
    answers: [] as string[],
    correctAnswerIndex: -1,
    correctAnswerIndexes: [] as number[],
    acceptedAnswers: [] as string[],
    correctNumber: null as number | null,
    timeLimit: (question.timeLimit as number | null) ?? null,
    points: (question.points as PointsOption) ?? "standard",
    imageId: (question.imageId as string | null) ?? null,
  };
  switch (question.kind) {
    case "choice":
      return {
        ...base,
        answers: question.answers as string[],
        correctAnswerIndex: question.correctAnswerIndex as number,
        correctAnswerIndexes: [question.correctAnswerIndex as number],
      };
    case "trueFalse": {
      const index = question.correctAnswerIndex as number;
      return {
        ...base,
        answers: (question.answers as string[] | undefined) ?? [...TRUE_FALSE_ANSWERS],
        correctAnswerIndex: index,
        correctAnswerIndexes: [index],
      };
    }
    case "multiSelect":
      return { ...base, answers: question.answers as string[], correctAnswerIndexes: [...(question.correctAnswerIndexes as number[])].sort((a, b) => a - b) };
    case "typeAnswer":
      return { ...base, acceptedAnswers: question.acceptedAnswers as string[] };
    case "closestNumber":
      return { ...base, correctNumber: question.correctNumber as number };
    case "poll":
      return { ...base, answers: question.answers as string[], points: "none" };
  }
}
