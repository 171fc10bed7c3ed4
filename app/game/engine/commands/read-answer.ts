import { MAX_NUMBER, normalizeTypedAnswer, TYPED_ANSWER_MAX_LENGTH } from "../../question-kinds";
import type { AnswerValue, EngineQuestion } from "../state";
import { type Command, type Rejection, MESSAGES, badAnswerMessage, reject } from "../transition";

/** A player's answer as the question's kind reads it, or why it is not one. */
type ReadAnswer = { answerIndex: number; value: AnswerValue; key?: string } | { error: Rejection };

export function readAnswer(question: EngineQuestion, command: Extract<Command, { type: "answer" }>): ReadAnswer {
  switch (question.kind) {
    case "choice":
    case "trueFalse":
    case "poll": {
      const index = command.answerIndex;
      if (index === undefined || !Number.isInteger(index) || index < 0 || index >= question.answers.length) {
        return { error: reject("BAD_ANSWER", badAnswerMessage(question.answers.length)) };
      }
      return { answerIndex: index, value: null };
    }
    case "multiSelect": {
      const picks = command.answerIndexes;
      const valid =
        Array.isArray(picks) &&
        picks.length > 0 &&
        picks.length <= question.answers.length &&
        picks.every((pick) => Number.isInteger(pick) && pick >= 0 && pick < question.answers.length) &&
        new Set(picks).size === picks.length;
      if (!valid) return { error: reject("BAD_ANSWER", MESSAGES.BAD_PICKS) };
      return { answerIndex: -1, value: [...picks].sort((a, b) => a - b) };
    }
    case "typeAnswer": {
      const text = typeof command.text === "string" ? command.text.trim() : "";
      const key = normalizeTypedAnswer(text);
      if (key.length === 0 || text.length > TYPED_ANSWER_MAX_LENGTH) return { error: reject("BAD_ANSWER", MESSAGES.BAD_TEXT) };
      return { answerIndex: -1, value: text, key };
    }
    case "closestNumber": {
      const guess = command.number;
      if (typeof guess !== "number" || !Number.isFinite(guess) || Math.abs(guess) > MAX_NUMBER) return { error: reject("BAD_ANSWER", MESSAGES.BAD_NUMBER) };
      return { answerIndex: -1, value: guess };
    }
  }
}
