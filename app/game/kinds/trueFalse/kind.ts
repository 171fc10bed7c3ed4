/** True or false: a statement, and its two options (True/False unless the author worded them). */
import type { QuestionKindDefinition } from "../definition";
import { optionsText, readOneOption } from "../shared";

export const trueFalse: QuestionKindDefinition<"trueFalse"> = {
  name: "trueFalse",
  label: "True or false",
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
