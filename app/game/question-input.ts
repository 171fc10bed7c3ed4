/**
 * The one schema every way in shares for a question of any kind (the JSON API, the editor, import,
 * AI generation), so a question is checked the same wherever it comes from, and its field rules
 * with their messages. Each kind brings its own fields and checks (app/game/kinds/<kind>/schema.ts).
 */
import { z } from "zod";
import { DEFAULT_KIND, KIND_DEFINITIONS, QUESTION_KINDS } from "./kinds";
import { kindSchemaOf } from "./kinds/schemas";
import { COMMON_QUESTION_FIELDS } from "./question-fields";
import type { PointsOption, QuestionContent, QuestionKind } from "./question-kinds";

export {
  AcceptedAnswerSchema,
  AnswerTextSchema,
  COMMON_QUESTION_FIELDS,
  ImageIdSchema,
  IndexSchema,
  NumberValueSchema,
  OptionsSchema,
  PointsSchema,
  QuestionTextSchema,
  QuestionTimeLimitSchema,
} from "./question-fields";
import { coded } from "#app/i18n/coded";

/** A kind's name, as the registry lists them (the database does not check it: docs/decisions/0045-question-kind-registry.md). */
export const QuestionKindSchema = z.enum(QUESTION_KINDS, coded("QUESTION_KIND_CHOICE", { kinds: QUESTION_KINDS.join(", ") }));

/** Each kind's branch: its name, the fields every question has, then its own (app/game/kinds/<kind>/schema.ts). */
const BRANCHES = KIND_DEFINITIONS.map(({ name }) => z.object({ kind: z.literal(name), ...COMMON_QUESTION_FIELDS, ...kindSchemaOf(name).inputFields }));

/**
 * One question of any kind. Without `kind` it is a multiple-choice question in the original shape
 * (`answers` + `correctAnswerIndex`), so every client of the first API keeps working unchanged.
 */
export const QuestionInputSchema = z
  .preprocess(
    (value) => (value && typeof value === "object" && !Array.isArray(value) && !("kind" in value) ? { ...value, kind: DEFAULT_KIND } : value),
    z.discriminatedUnion(
      "kind",
      BRANCHES as unknown as [(typeof BRANCHES)[number], ...(typeof BRANCHES)[number][]],
      coded("QUESTION_KIND_CHOICE", { kinds: QUESTION_KINDS.join(", ") }),
    ),
  )
  .superRefine((question, ctx) => kindSchemaOf(question.kind as QuestionKind).refine?.(question, ctx))
  .transform((question): QuestionContent => toContent(question as Record<string, unknown> & { kind: QuestionKind; text: string }));

export type QuestionInput = z.input<typeof QuestionInputSchema>;

function toContent(question: Record<string, unknown> & { kind: QuestionKind; text: string }): QuestionContent {
  const base: QuestionContent = {
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
  return kindSchemaOf(question.kind).toContent(question, base);
}
