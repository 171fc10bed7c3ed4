/** Multiple choice: one right option among 2 to 6. */
import type { QuestionKindDefinition } from "../definition";
import { optionsText, readOneOption } from "../shared";

export const choice: QuestionKindDefinition<"choice"> = {
  name: "choice",
  label: "Multiple choice",
  hasOptions: true,
  pickOne: true,
  scored: true,
  keepsStreak: false,
  typed: false,
  scoredAtClose: false,
  rated: true,
  rightAnswer: "oneIndex",
  answer: "option",
  readAnswer: (question, sent) => readOneOption(question, sent.answerIndex),
  judge: (_state, question, read) => (read.answerIndex === question.correctAnswerIndex ? 1 : 0),
  refusals: {},
  rightAnswerSent: (question) => ({ answerIndex: question.correctAnswerIndex }),
  correctAnswerText: optionsText,
};
