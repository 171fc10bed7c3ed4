/** Multi-select: one or more right options; partly right picks score a share (engine/scoring.ts). */
import { multiSelectFraction } from "../../engine/scoring";
import type { QuestionKindDefinition } from "../definition";
import { optionsText } from "../shared";

export const multiSelect: QuestionKindDefinition<"multiSelect", "BAD_PICKS"> = {
  name: "multiSelect",
  label: "Multi-select",
  hasOptions: true,
  pickOne: false,
  scored: true,
  keepsStreak: false,
  typed: false,
  scoredAtClose: false,
  rated: true,
  rightAnswer: "indexList",
  answer: "options",
  readAnswer(question, sent) {
    const picks = sent.answerIndexes;
    const valid =
      Array.isArray(picks) &&
      picks.length > 0 &&
      picks.length <= question.answers.length &&
      picks.every((pick) => Number.isInteger(pick) && pick >= 0 && pick < question.answers.length) &&
      new Set(picks).size === picks.length;
    if (!valid) return { refused: "BAD_PICKS" };
    return { answerIndex: -1, value: [...picks].sort((a, b) => a - b) };
  },
  judge: (_state, question, read) => multiSelectFraction(read.value as number[], question.correctAnswerIndexes ?? []),
  refusals: { BAD_PICKS: "Pick one or more of the answers, each once." },
  rightAnswerSent: (question) => ({ answerIndexes: [...(question.correctAnswerIndexes ?? [])] }),
  correctAnswerText: optionsText,
};
