import { kindOf } from "#app/game/kinds";
import type { Question } from "./quiz.server";
import type { ReportAnswerValue } from "./game-report.server";

/** The right answer in words, for the page and the files. */
export function correctAnswerText(question: Question): string {
  return kindOf(question.kind).correctAnswerText(question);
}

/** An answer in words (options' texts, the text typed, the number guessed), for the files. */
export function answerText(question: Pick<Question, "answers">, value: ReportAnswerValue): string {
  if (value.type === "options") return value.picks.map((pick) => question.answers[pick] ?? "").join("; ");
  if (value.type === "text") return value.text;
  return String(value.value);
}
