import { MAX_PAUSES_PER_QUESTION } from "../../rules";
import { normalizeTypedAnswer, POINTS_MULTIPLIER } from "../../question-kinds";
import { scoreJudged } from "../scoring";
import { addLatePoints, rankTeams, TeamTally } from "../teams";
import { answerToCurrentQuestion, currentQuestion, optionCount, type AnswerRecord, type GameState, type PlayerState } from "../state";
import { currentPause, pausedMsBefore, resultsDelayMsOf, timeLimitMsOf } from "../clock";
import { type Actor, type Command, type Effect, type TransitionResult, reject } from "../transition";
import { readAnswer } from "./read-answer";
import { keepsStreak, scoreGuesses } from "./judge";
import { kindOf } from "../../kinds";
import { rank } from "./reveal";

export function startQuestion(state: GameState, index: number, now: number): Effect[] {
  state.phase = "question";
  state.questionIndex = index;
  state.questionStartedAt = now;
  state.questionEndsAt = now + timeLimitMsOf(state, index);
  state.questionPauses = [];
  state.deadline = state.questionEndsAt;
  state.answeredCount = 0;
  state.answerCounts = new Array<number>(optionCount(state.questions[index])).fill(0);
  state.typedAnswers = new Map();
  state.numberSpread = null;
  state.pendingAnswers = state.connectedCount;
  state.awaitingReturn.clear();
  return [{ type: "questionStarted" }];
}

export function answer(state: GameState, command: Extract<Command, { type: "answer" }>, now: number): TransitionResult {
  const { actor, playerId } = command;
  if (actor.role === "host") return reject("HOST_CANNOT_ANSWER");
  if (actor.role !== "player") return reject("UNKNOWN_PLAYER");
  if (actor.playerId !== playerId) return reject("NOT_YOUR_PLAYER");
  const player = state.players.get(playerId);
  if (!player) return reject("UNKNOWN_PLAYER");
  if (state.phase !== "question") return reject("QUESTION_CLOSED");
  if (currentPause(state)) return reject("PAUSED");
  if (now >= state.questionEndsAt) return reject("QUESTION_CLOSED");
  if (answerToCurrentQuestion(state, player)) return reject("ALREADY_ANSWERED");
  const question = currentQuestion(state)!;
  const read = readAnswer(question, command);
  if ("error" in read) return read.error;

  // A player who joined after the question went out, or whom the broadcast reached late, is timed from
  // then; the time the host kept the question paused since then does not count.
  const timeLimitMs = timeLimitMsOf(state, state.questionIndex);
  const sentAt = Math.max(state.questionStartedAt, player.joinedAt, Math.min(command.questionDeliveredAt ?? 0, now));
  const pausedSinceSent = pausedMsBefore(state, now) - pausedMsBefore(state, sentAt);
  const responseTimeMs = Math.min(Math.max(now - sentAt - pausedSinceSent, 0), timeLimitMs);
  const fraction = kindOf(question.kind).judge(state, question, read);
  const correct = fraction >= 1;
  const streak = keepsStreak(question) ? player.streak : correct ? player.streak + 1 : 0;
  const multiplier = POINTS_MULTIPLIER[question.points ?? "standard"];
  // A closest-number guess is scored against the room when the question closes.
  const points = kindOf(question.kind).scoredAtClose ? 0 : scoreJudged({ fraction, responseTimeMs, timeLimitMs, streak, multiplier });
  const record: AnswerRecord = {
    playerId,
    questionId: question.id,
    questionIndex: state.questionIndex,
    answerIndex: read.answerIndex,
    value: read.value,
    responseTimeMs,
    correct,
    points,
    answeredAt: now,
  };
  player.lastAnswer = record;
  player.streak = streak;
  player.score += points;
  player.roundScore += points;
  if (correct) player.correctCount++;
  state.answeredCount++;
  countAnswer(state, record, read.key, correct, 1);
  if (player.connected) state.pendingAnswers--;
  return { effects: [{ type: "answerAccepted", player, answer: record }, ...closeIfEveryoneAnswered(state, now)] };
}

/** Adds (or, with -1, takes back) an answer in the open question's tallies. */
export function countAnswer(state: GameState, record: AnswerRecord, key: string | undefined, correct: boolean, delta: 1 | -1): void {
  if (record.answerIndex >= 0) state.answerCounts[record.answerIndex] += delta;
  else if (Array.isArray(record.value)) for (const pick of record.value) state.answerCounts[pick] += delta;
  else if (typeof record.value === "string") {
    const groupKey = key ?? normalizeTypedAnswer(record.value);
    const group = state.typedAnswers.get(groupKey);
    if (group) {
      group.count += delta;
      group.correct ||= correct && delta > 0;
    } else if (delta > 0) state.typedAnswers.set(groupKey, { text: record.value, count: 1, correct });
    if (group && group.count === 0) state.typedAnswers.delete(groupKey);
  }
}

export function closeIfEveryoneAnswered(state: GameState, now: number): Effect[] {
  if (state.phase !== "question" || state.pendingAnswers > 0 || state.answeredCount === 0) return [];
  return closeQuestion(state, now);
}

export function closeQuestion(state: GameState, now: number): Effect[] {
  // Skipped, or nobody left to wait for, while paused: the pause ends with the question.
  if (currentPause(state)) endPause(state, now);
  const question = currentQuestion(state)!;
  const scoredAnswers = kindOf(question.kind).scoredAtClose ? scoreGuesses(state, question) : [];
  const keepStreaks = keepsStreak(question);
  const changedPlayers: PlayerState[] = [];
  const tally = state.teamMode ? new TeamTally(state) : null;
  for (const player of state.players.values()) {
    tally?.add(player);
    const answered = answerToCurrentQuestion(state, player);
    if (answered) {
      changedPlayers.push(player);
    } else if (player.streak !== 0 && !keepStreaks) {
      player.streak = 0;
      changedPlayers.push(player);
    }
  }
  rank(state);
  tally?.close();
  state.phase = "results";
  state.deadline = now + resultsDelayMsOf(state);
  return [{ type: "questionClosed", changedPlayers, scoredAnswers }];
}

/**
 * The host accepts a typed answer that was marked wrong, while its question is still the current
 * one (its results, the leaderboard after it, or the podium after the last question). Everyone who
 * typed it (as compared, docs/decisions/0018) gets the points of a right answer at their speed,
 * without a streak bonus, and the standings are recomputed.
 */
export function acceptTypedAnswer(state: GameState, command: Extract<Command, { type: "acceptTypedAnswer" }>): TransitionResult {
  if (command.actor.role !== "host") return reject("NOT_HOST", "NOT_HOST_ACCEPT");
  const question = currentQuestion(state);
  const closed = state.phase === "results" || state.phase === "leaderboard" || state.phase === "finished";
  const key = normalizeTypedAnswer(command.text);
  const group = state.typedAnswers.get(key);
  if (!question || !closed || !kindOf(question.kind).typed || command.questionNumber !== state.questionIndex + 1 || !group || group.correct) {
    return reject("NOTHING_TO_ACCEPT");
  }
  group.correct = true;
  const timeLimitMs = timeLimitMsOf(state, state.questionIndex);
  const multiplier = POINTS_MULTIPLIER[question.points ?? "standard"];
  const changedPlayers: PlayerState[] = [];
  const answers: AnswerRecord[] = [];
  // A host's action, once per question: a pass over the players is affordable here.
  for (const player of state.players.values()) {
    const answer = answerToCurrentQuestion(state, player);
    if (!answer || answer.correct || typeof answer.value !== "string" || normalizeTypedAnswer(answer.value) !== key) continue;
    answer.correct = true;
    const before = answer.points;
    answer.points = scoreJudged({ fraction: 1, responseTimeMs: answer.responseTimeMs, timeLimitMs, streak: 1, multiplier });
    player.score += answer.points - before;
    player.roundScore += answer.points - before;
    if (state.teamMode) addLatePoints(state, player, answer.points - before);
    player.correctCount++;
    player.streak = 1;
    changedPlayers.push(player);
    answers.push(answer);
  }
  rank(state);
  if (state.teamMode) rankTeams(state);
  return { effects: [{ type: "typedAnswerAccepted", questionIndex: state.questionIndex, changedPlayers, answers }] };
}

/**
 * The host stops the open question's clock: its deadline is gone until the resume, so its timer
 * cannot close it, and answers are refused meanwhile (nobody answers a question the room cannot see).
 */
export function pause(state: GameState, actor: Actor, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", "NOT_HOST_PAUSE");
  if (state.phase !== "question" || currentPause(state) || now >= state.questionEndsAt) return reject("NOTHING_TO_PAUSE");
  if (state.questionPauses.length >= MAX_PAUSES_PER_QUESTION) return reject("TOO_MANY_PAUSES");
  state.questionPauses.push({ from: now, to: null, pausedBefore: pausedMsBefore(state, now) });
  state.deadline = null;
  return { effects: [{ type: "questionPaused" }] };
}

/** The question runs again with the time it had left: its end moves by the pause. */
export function resume(state: GameState, actor: Actor, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", "NOT_HOST_PAUSE");
  if (!currentPause(state)) return reject("NOT_PAUSED");
  endPause(state, now);
  state.deadline = state.questionEndsAt;
  return { effects: [{ type: "questionResumed" }] };
}

function endPause(state: GameState, now: number): void {
  const pause = currentPause(state)!;
  pause.to = Math.max(now, pause.from);
  state.questionEndsAt += pause.to - pause.from;
}
