/**
 * A kind's part in the schemas every way in shares (docs/adding-a-question-kind.md): its fields in
 * the shared question schema and in the quiz file, the checks across them, its content, its quiz
 * file question, its AI reply and its editor draft. With zod; the registry of these parts is
 * `schemas.ts`.
 */
import type { z } from "zod";
import type { AppError } from "#app/i18n/app-error";
import type { QuestionContent, QuestionKind } from "../question-kinds";

/** The fields every kind's question in a quiz file starts with. */
export interface FileQuestionCommon {
  text: string;
  timeLimit: number | null;
  points: QuestionContent["points"];
  image: { mediaType: string; data: string } | null;
}

/** A question of the AI's reply, every field present (app/ai/generated-quiz.ts). */
export interface ModelQuestion {
  text: string;
  answers: string[];
  correctAnswerIndexes: number[];
  acceptedAnswers: string[];
  correctNumber?: number | null;
}

type Bounds = readonly [min: number, max: number];

/** A question as the editor's form holds it (app/schemas/quiz-form-schema.ts). */
export interface QuestionDraft {
  kind: QuestionKind;
  text: string;
  answers: string[];
  correctAnswerIndex: number;
  correctAnswerIndexes: number[];
  trueFalse: number;
  acceptedAnswers: string;
  correctNumber: string;
  timeLimit: string;
  points: string;
  imageId: string;
}

export interface KindSchemaPart<Name extends QuestionKind = QuestionKind> {
  readonly name: Name;
  /** Its own fields in the shared question schema (`kind` and the common fields are added). */
  readonly inputFields: z.ZodRawShape;
  /** Checks across its fields, after each field's own (an index within the options, ...). */
  refine?(question: Record<string, unknown>, ctx: z.RefinementCtx): void;
  /** A checked question's content; `base` has every field empty. */
  toContent(question: Record<string, unknown>, base: QuestionContent): QuestionContent;
  /** Its own fields in the quiz file, described for the published JSON Schema, and its description. */
  readonly file: { fields: z.ZodRawShape; description: string };
  /** A question as the quiz file writes it, only the fields its kind uses. */
  toFile(question: QuestionContent, common: FileQuestionCommon): Record<string, unknown>;
  readonly ai: {
    /** What the model is told of it: what it is, the fields it fills, and its rules. */
    guide: string;
    /** How many answers, right options and accepted answers it has (the reply's JSON Schema bounds). */
    bounds: { answers: Bounds; correct: Bounds; accepted: Bounds };
    /** Whether its options are shuffled (the model favours the first slots). */
    shuffles: boolean;
    /** A reply's question in the shape the shared schema reads, or what is wrong with it (`label` names the kind). */
    fromModel(raw: ModelQuestion, label: string, sameness: (text: string) => string): Record<string, unknown> | string;
  };
  readonly editor: {
    /** What a stored question sets in its draft, over the empty draft of its kind. */
    draftOf(question: QuestionContent, empty: QuestionDraft): Partial<QuestionDraft>;
    /** Its fields of a draft in the shape the shared schema reads. */
    inputOf(draft: QuestionDraft): Record<string, unknown>;
    /** The editor's own messages before the shared rules, by field, raised with their codes (`n` is the question's number). */
    check(draft: QuestionDraft, n: number, errors: Record<string, AppError>): void;
  };
}
