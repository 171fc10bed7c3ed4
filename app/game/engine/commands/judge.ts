import { normalizeTypedAnswer, typedAnswerMatches, POINTS_MULTIPLIER } from "../../question-kinds";
import { closenessFraction, closenessScale, MAX_POINTS, multiSelectFraction } from "../scoring";
import { answerToCurrentQuestion, spreadOf, type AnswerRecord, type AnswerValue, type EngineQuestion, type GameState } from "../state";

/** Accepted answers of a typed question, normalised once per question. */
const normalizedAccepted = new WeakMap<EngineQuestion, string[]>();

function acceptedKeys(question: EngineQuestion): string[] {
  let keys = normalizedAccepted.get(question);
  if (!keys) normalizedAccepted.set(question, (keys = (question.acceptedAnswers ?? []).map(normalizeTypedAnswer)));
  return keys;
}

/** How right an answer is, 0 to 1; the points of a closest-number guess wait for the question to close. */
export function judge(state: GameState, question: EngineQuestion, read: { answerIndex: number; value: AnswerValue; key?: string }): number {
  switch (question.kind) {
    case "choice":
    case "trueFalse":
      return read.answerIndex === question.correctAnswerIndex ? 1 : 0;
    case "multiSelect":
      return multiSelectFraction(read.value as number[], question.correctAnswerIndexes ?? []);
    case "typeAnswer": {
      const group = state.typedAnswers.get(read.key!);
      if (group) return group.correct ? 1 : 0;
      return acceptedKeys(question).some((accepted) => typedAnswerMatches(read.key!, accepted)) ? 1 : 0;
    }
    case "closestNumber":
      return read.value === question.correctNumber ? 1 : 0;
    case "poll":
      return 0;
  }
}

/** Polls and closest-number guesses neither build nor break a streak. */
export function keepsStreak(question: EngineQuestion): boolean {
  return question.kind === "poll" || question.kind === "closestNumber";
}

/** Scores every guess of a closest-number question against the room (docs/decisions/0018-question-kinds.md). */
export function scoreGuesses(state: GameState, question: EngineQuestion): AnswerRecord[] {
  const truth = question.correctNumber ?? 0;
  let furthest = 0;
  const guesses: number[] = [];
  for (const player of state.players.values()) {
    const answer = answerToCurrentQuestion(state, player);
    if (!answer || typeof answer.value !== "number") continue;
    furthest = Math.max(furthest, Math.abs(answer.value - truth));
    guesses.push(answer.value);
  }
  state.numberSpread = spreadOf(guesses);
  const scale = closenessScale(truth, furthest);
  const multiplier = POINTS_MULTIPLIER[question.points ?? "standard"];
  const scored: AnswerRecord[] = [];
  for (const player of state.players.values()) {
    const answer = answerToCurrentQuestion(state, player);
    if (!answer || typeof answer.value !== "number") continue;
    answer.points = Math.round(MAX_POINTS * closenessFraction(answer.value, truth, scale)) * multiplier;
    player.score += answer.points;
    player.roundScore += answer.points;
    scored.push(answer);
  }
  return scored;
}
