/**
 * Helpers that several kinds share, chosen by how a kind holds its right answer
 * (`RightAnswerShape`), never by a kind's name.
 */
import type { EngineQuestion } from "../engine/state";
import type { QuestionContent } from "../question-kinds";
import type { KindReveal, ReadAnswer, RightAnswerShape } from "./definition";

/** One option of the question's, by its index. */
export function readOneOption(question: EngineQuestion, index: number | undefined): ReadAnswer | { refused: "BAD_ANSWER" } {
  if (index === undefined || !Number.isInteger(index) || index < 0 || index >= question.answers.length) return { refused: "BAD_ANSWER" };
  return { answerIndex: index, value: null };
}

/** The options' texts at the right indexes, for the report. */
export function optionsText(question: QuestionContent): string {
  return question.correctAnswerIndexes.map((index) => question.answers[index] ?? "").join("; ");
}

/** The reveal's fields for a question whose right answer has this shape. */
export function revealOf(shape: RightAnswerShape, question: EngineQuestion): KindReveal {
  return {
    correctAnswerIndex: shape === "oneIndex" ? question.correctAnswerIndex : -1,
    correctAnswerIndexes: shape === "oneIndex" ? [question.correctAnswerIndex] : shape === "indexList" ? (question.correctAnswerIndexes ?? []) : [],
    acceptedAnswers: shape === "acceptedTexts" ? (question.acceptedAnswers ?? []) : [],
    correctNumber: shape === "number" ? (question.correctNumber ?? null) : null,
  };
}
