/**
 * Type the answer: players type it; it is right when it matches an accepted answer as compared
 * (accents, case and punctuation aside, one typo forgiven: docs/decisions/0018-question-kinds.md),
 * or when the host accepts it after the question closes.
 */
import type { EngineQuestion } from "../../engine/state";
import { normalizeTypedAnswer, typedAnswerMatches, TYPED_ANSWER_MAX_LENGTH } from "../../question-kinds";
import type { QuestionKindDefinition } from "../definition";

/** Accepted answers of a typed question, normalised once per question. */
const normalizedAccepted = new WeakMap<EngineQuestion, string[]>();
function acceptedKeys(question: EngineQuestion): string[] {
  let keys = normalizedAccepted.get(question);
  if (!keys) normalizedAccepted.set(question, (keys = (question.acceptedAnswers ?? []).map(normalizeTypedAnswer)));
  return keys;
}

export const typeAnswer: QuestionKindDefinition<"typeAnswer", "BAD_TEXT"> = {
  name: "typeAnswer",
  label: "Type the answer",
  hasOptions: false,
  pickOne: false,
  scored: true,
  keepsStreak: false,
  typed: true,
  scoredAtClose: false,
  rated: true,
  rightAnswer: "acceptedTexts",
  answer: "text",
  readAnswer(_question, sent) {
    const text = typeof sent.text === "string" ? sent.text.trim() : "";
    const key = normalizeTypedAnswer(text);
    if (key.length === 0 || text.length > TYPED_ANSWER_MAX_LENGTH) return { refused: "BAD_TEXT" };
    return { answerIndex: -1, value: text, key };
  },
  judge(state, question, read) {
    // An answer typed the same as one already judged (or accepted by the host) is judged the same.
    const group = state.typedAnswers.get(read.key!);
    if (group) return group.correct ? 1 : 0;
    return acceptedKeys(question).some((accepted) => typedAnswerMatches(read.key!, accepted)) ? 1 : 0;
  },
  refusals: { BAD_TEXT: `Type an answer of at most ${TYPED_ANSWER_MAX_LENGTH} characters.` },
  rightAnswerSent: (question) => ({ text: question.acceptedAnswers?.[0] ?? "" }),
  correctAnswerText: (question) => question.acceptedAnswers.join("; "),
};
