import { kindOf } from "../../kinds";
import { POINTS_MULTIPLIER } from "../../question-kinds";
import { closenessFraction, closenessScale, MAX_POINTS } from "../scoring";
import { answerToCurrentQuestion, spreadOf, type AnswerRecord, type EngineQuestion, type GameState } from "../state";

/** Polls and closest-number guesses neither build nor break a streak (each kind says). */
export function keepsStreak(question: EngineQuestion): boolean {
  return kindOf(question.kind).keepsStreak;
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
