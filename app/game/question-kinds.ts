/**
 * What questions of every kind share: their limits, their content's shape, and how a typed answer
 * or number is read and matched. The kinds themselves are a registry, one folder each
 * (app/game/kinds/, docs/adding-a-question-kind.md); the one schema every way in shares is in
 * `question-input.ts`. Without zod, so that the game screens take what they need of it without
 * bringing zod to a player's phone. It imports nothing of the kinds' at run time: they import it.
 */
import type { QuestionKind } from "./kinds";

export type { QuestionKind };

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
 * Longer than any number a person types (MAX_NUMBER with separators, decimals and spaces): such a
 * text is no number, and no pattern runs on it.
 */
export const TYPED_NUMBER_MAX_LENGTH = 100;

// Each pattern can split its input only one way (digits, then a separator, then digits), so the
// engine's work is proportional to the input's length, never its square (issue 26).
const PLAIN_NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i;
const COMMA_THOUSANDS = /^[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const DOT_THOUSANDS = /^[-+]?\d{1,3}(?:\.\d{3})+(?:,\d+)?$/;
const DECIMAL_COMMA = /^[-+]?\d*,\d+$/;

/**
 * Reads a number as people type it, in a form or a spreadsheet cell: "1969", "-273.15", "1e6",
 * "1,969" or "1.969,5" (thousands separators either way), "3,5" (a decimal comma), "1 000 000".
 * Null for anything else, and for any text longer than TYPED_NUMBER_MAX_LENGTH.
 */
export function parseTypedNumber(raw: string): number | null {
  if (raw.length > TYPED_NUMBER_MAX_LENGTH) return null;
  const text = raw.trim().replace(/[\s\u00a0\u202f'_]/g, "");
  if (PLAIN_NUMBER.test(text)) return Number(text);
  if (COMMA_THOUSANDS.test(text)) return Number(text.replace(/,/g, ""));
  if (DOT_THOUSANDS.test(text)) return Number(text.replace(/\./g, "").replace(",", "."));
  if (DECIMAL_COMMA.test(text)) return Number(text.replace(",", "."));
  return null;
}
