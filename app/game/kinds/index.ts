/**
 * The registry of question kinds: the part every side shares (docs/adding-a-question-kind.md,
 * docs/decisions/0045-question-kind-registry.md). Code outside app/game/kinds/ asks a kind what it
 * needs (`kindOf(question.kind).typed`, `.judge(...)`) and never compares a kind's name
 * (tests/unit/question-kind-registry.test.ts keeps it so). Without zod or React: the input
 * schemas are registered in `schemas.ts`, the components in `components.ts`, the spreadsheet
 * columns in `spreadsheets.server.ts`.
 */
import { choice } from "./choice/kind";
import { closestNumber } from "./closestNumber/kind";
import type { QuestionKindDefinition } from "./definition";
import { multiSelect } from "./multiSelect/kind";
import { poll } from "./poll/kind";
import { trueFalse } from "./trueFalse/kind";
import { typeAnswer } from "./typeAnswer/kind";

/** Every kind, in the order the editor lists them. */
export const KIND_DEFINITIONS = [choice, trueFalse, multiSelect, typeAnswer, closestNumber, poll] as const;

export type QuestionKind = (typeof KIND_DEFINITIONS)[number]["name"];
export const QUESTION_KINDS = KIND_DEFINITIONS.map((kind) => kind.name) as unknown as readonly [QuestionKind, ...QuestionKind[]];

/** A question without a kind is multiple choice: the API's original shape (docs/decisions/0018-question-kinds.md). */
export const DEFAULT_KIND: QuestionKind = "choice";

const BY_NAME = new Map<string, QuestionKindDefinition<QuestionKind>>(KIND_DEFINITIONS.map((kind) => [kind.name, kind]));

export function isQuestionKind(name: unknown): name is QuestionKind {
  return typeof name === "string" && BY_NAME.has(name);
}

/** The kind of this name; an unknown name (which no schema lets in) throws. */
export function kindOf(name: QuestionKind): QuestionKindDefinition<QuestionKind> {
  const kind = BY_NAME.get(name);
  if (!kind) throw new Error(`Unknown question kind: ${String(name)}`);
  return kind;
}

export const KIND_LABELS = Object.fromEntries(KIND_DEFINITIONS.map((kind) => [kind.name, kind.label])) as Record<QuestionKind, string>;

/** Kinds whose players pick among the options; the others are typed. */
export function hasOptions(kind: QuestionKind): boolean {
  return kindOf(kind).hasOptions;
}

export type { QuestionKindDefinition } from "./definition";
