/**
 * The six kinds of question: their names, their limits, and the one schema every way in shares
 * (the JSON API, the editor, import, AI generation), so a question is checked the same wherever it
 * comes from. A question kind is data (docs/architecture notes "A question kind is data, not a
 * shape"); how each kind scores lives in `engine/scoring.ts`.
 */
import { z } from "zod";

export const QUESTION_KINDS = ["choice", "trueFalse", "multiSelect", "typeAnswer", "closestNumber", "poll"] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

export const KIND_LABELS: Record<QuestionKind, string> = {
  choice: "Multiple choice",
  trueFalse: "True or false",
  multiSelect: "Multi-select",
  typeAnswer: "Type the answer",
  closestNumber: "Closest number",
  poll: "Poll",
};

export const POINTS_OPTIONS = ["standard", "double", "none"] as const;
export type PointsOption = (typeof POINTS_OPTIONS)[number];
export const POINTS_LABELS: Record<PointsOption, string> = { standard: "Standard", double: "Double points", none: "No points" };
export const POINTS_MULTIPLIER: Record<PointsOption, number> = { none: 0, standard: 1, double: 2 };

export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 6;
export const MAX_ACCEPTED_ANSWERS = 10;
export const TYPED_ANSWER_MAX_LENGTH = 100;
export const QUESTION_TIME_LIMIT_MIN = 5;
export const QUESTION_TIME_LIMIT_MAX = 240;
/** Guesses and true values of a closest-number question stay within this, so sums and spreads stay exact. */
export const MAX_NUMBER = 1e12;
export const TRUE_FALSE_ANSWERS = ["True", "False"] as const;
/** An image id is the hex SHA-256 of the stored WebP (see app/models/image.server.ts). */
export const IMAGE_ID_PATTERN = /^[0-9a-f]{64}$/;

/** Kinds whose players pick among the options; the others are typed. */
export function hasOptions(kind: QuestionKind): boolean {
  return kind === "choice" || kind === "trueFalse" || kind === "multiSelect" || kind === "poll";
}

/** A question as stored and exchanged; fields a kind does not use are empty. */
export interface QuestionContent {
  kind: QuestionKind;
  text: string;
  /** The options players pick from: 2-6 (True/False for trueFalse); empty for typeAnswer and closestNumber. */
  answers: string[];
  /** choice and trueFalse: the right option; -1 for every other kind. */
  correctAnswerIndex: number;
  /** multiSelect: the right options (one or more), ascending; choice/trueFalse: the one; empty otherwise. */
  correctAnswerIndexes: number[];
  /** typeAnswer: every answer that counts as right, as the author wrote it. */
  acceptedAnswers: string[];
  /** closestNumber: the true value. */
  correctNumber: number | null;
  /** Seconds for this question; null takes the quiz's time limit. */
  timeLimit: number | null;
  points: PointsOption;
  imageId: string | null;
}

// ------------------------------------------------------------------------------ field rules

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
const IndexSchema = z
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

// ------------------------------------------------------------------------------ typed answers

/**
 * The form in which typed answers are compared: accents, case, punctuation and the spaces around
 * and between words do not count (docs/decisions/0018-question-kinds.md).
 */
export function normalizeTypedAnswer(raw: string): string {
  return raw
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLocaleLowerCase("en-US")
    .replace(/[\p{P}\p{S}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Answers of this many letters or more forgive one typo. */
export const TYPO_MIN_LENGTH = 5;

/**
 * At most one edit apart: one letter added, dropped, changed, or two neighbours swapped
 * (optimal string alignment distance <= 1), in O(length).
 */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const restA = endA - start;
  const restB = endB - start;
  if (restA <= 1 && restB <= 1) return true;
  // Two neighbours swapped: "ab" against "ba".
  return restA === 2 && restB === 2 && a[start] === b[start + 1] && a[start + 1] === b[start];
}

/** Whether a typed answer (normalised) matches one accepted answer (normalised). */
export function typedAnswerMatches(typed: string, accepted: string): boolean {
  if (typed === accepted) return true;
  return accepted.replace(/ /g, "").length >= TYPO_MIN_LENGTH && withinOneEdit(typed, accepted);
}

/**
 * Reads a number as people type it, in a form or a spreadsheet cell: "1969", "-273.15", "1e6",
 * "1,969" or "1.969,5" (thousands separators either way), "3,5" (a decimal comma), "1 000 000".
 * Null for anything else.
 */
export function parseTypedNumber(raw: string): number | null {
  const text = raw.trim().replace(/[\s\u00a0\u202f'_]/g, "");
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return Number(text);
  if (/^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) return Number(text.replace(/,/g, ""));
  if (/^[-+]?\d{1,3}(\.\d{3})+(,\d+)?$/.test(text)) return Number(text.replace(/\./g, "").replace(",", "."));
  if (/^[-+]?\d*,\d+$/.test(text)) return Number(text.replace(",", "."));
  return null;
}
