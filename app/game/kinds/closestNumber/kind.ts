/**
 * Closest number: players guess a number; when the question closes every guess scores by how close
 * it came against the room (engine/scoring.ts's closeness, docs/decisions/0018-question-kinds.md).
 */
import { MAX_NUMBER } from "../../question-kinds";
import type { QuestionKindDefinition } from "../definition";

export const closestNumber: QuestionKindDefinition<"closestNumber", "NUMBER_REQUIRED"> = {
  name: "closestNumber",
  label: "Closest number",
  hasOptions: false,
  pickOne: false,
  scored: true,
  keepsStreak: true,
  typed: false,
  scoredAtClose: true,
  // An exact guess is luck, not ease.
  rated: false,
  rightAnswer: "number",
  answer: "number",
  readAnswer(_question, sent) {
    const guess = sent.number;
    if (typeof guess !== "number" || !Number.isFinite(guess) || Math.abs(guess) > MAX_NUMBER) return { refused: "NUMBER_REQUIRED" };
    return { answerIndex: -1, value: guess };
  },
  judge: (_state, question, read) => (read.value === question.correctNumber ? 1 : 0),
  refusals: { NUMBER_REQUIRED: "Enter a number." },
  rightAnswerSent: (question) => ({ number: question.correctNumber ?? 0 }),
  correctAnswerText: (question) => (question.correctNumber === null ? "" : String(question.correctNumber)),
};
