import type { ErrorCode as CatalogKey } from "#app/i18n/app-error";
import { kindOf } from "../../kinds";
import type { ReadAnswer as KindReadAnswer } from "../../kinds/definition";
import type { EngineQuestion } from "../state";
import { type Command, type Rejection, badAnswerKey, kindRefusal, reject } from "../transition";

/** A player's answer as the question's kind reads it, or why it is not one. */
type ReadAnswer = KindReadAnswer | { error: Rejection };

export function readAnswer(question: EngineQuestion, command: Extract<Command, { type: "answer" }>): ReadAnswer {
  const kind = kindOf(question.kind);
  const read = kind.readAnswer(question, command);
  if (!("refused" in read)) return read;
  // The wire's code stays BAD_ANSWER for every reason; the words are the option count's, or the kind's own.
  if (read.refused === "BAD_ANSWER") return { error: reject("BAD_ANSWER", badAnswerKey(question.answers.length)) };
  // Each kind's refusals are keys of every errors catalog: tests/unit/question-kind-registry.test.ts holds them to it.
  return { error: kindRefusal(read.refused as CatalogKey, kind.refusals[read.refused]) };
}
