import { kindOf } from "../../kinds";
import type { ReadAnswer as KindReadAnswer } from "../../kinds/definition";
import type { EngineQuestion } from "../state";
import { type Command, type Rejection, badAnswerKey, reject } from "../transition";

/** A player's answer as the question's kind reads it, or why it is not one. */
type ReadAnswer = KindReadAnswer | { error: Rejection };

export function readAnswer(question: EngineQuestion, command: Extract<Command, { type: "answer" }>): ReadAnswer {
  const read = kindOf(question.kind).readAnswer(question, command);
  if (!("refused" in read)) return read;
  return { error: reject("BAD_ANSWER", read.refused === "BAD_ANSWER" ? badAnswerKey(question.answers.length) : read.refused) };
}
