/** Poll: an opinion question; no right answer, no points, no streak. The smallest kind. */
import type { QuestionKindDefinition } from "../definition";
import { readOneOption } from "../shared";

export const poll: QuestionKindDefinition<"poll"> = {
  name: "poll",
  label: "Poll",
  hasOptions: true,
  pickOne: true,
  scored: false,
  keepsStreak: true,
  typed: false,
  scoredAtClose: false,
  rated: true,
  rightAnswer: "none",
  answer: "option",
  readAnswer: (question, sent) => readOneOption(question, sent.answerIndex),
  judge: () => 0,
  refusals: {},
  // Every option is as right as another.
  rightAnswerSent: () => ({ answerIndex: 0 }),
  correctAnswerText: () => "",
};
