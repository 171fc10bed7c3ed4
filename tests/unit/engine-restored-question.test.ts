/**
 * A question restored mid-way (a restart, or another node taking the game over after its owner died,
 * issue 28): every player comes back with a fresh socket one by one, over a second or two. The
 * question must go on with the time it had left for all of them: the first player back who answers
 * must not close it as "everyone has answered" while the others are still reconnecting. Found by the
 * cluster test (tests/integration/cluster.test.ts): after a kill -9, a player back 1.5 s later found
 * the question already closed, 5 s before its end.
 */
import { describe, expect, it } from "vitest";
import {
  createGameState,
  isRejection,
  restoreGameState,
  transition,
  type AnswerRecord,
  type Command,
  type Effect,
  type EngineQuestion,
  type GameState,
} from "#app/game/engine/index";

const T0 = 1_700_000_000_000;
const START = T0 + 10_000;
const LIMIT_MS = 10_000;

const QUESTIONS: EngineQuestion[] = [
  { id: 101, kind: "choice", text: "Capital of France?", answers: ["Rome", "Paris", "Berlin", "Madrid"], correctAnswerIndex: 1 },
  { id: 102, kind: "choice", text: "2 + 2?", answers: ["3", "5", "4", "22"], correctAnswerIndex: 2 },
];
const SETTINGS = { resultsDelayMs: 500, nextQuestionSeconds: 1, lobbyGraceMs: 60_000 };

function ok(state: GameState, command: Command, now: number): Effect[] {
  const result = transition(state, command, now);
  if (isRejection(result)) throw new Error(`unexpected rejection ${result.error.code}: ${result.error.message}`);
  return result.effects;
}

/** Three players in the first question, P1 answered 2 s in; the node then dies and the game is restored 3 s in. */
function restoredMidQuestion(): GameState {
  const state = createGameState({ gameCode: "ABC234", title: "T", timeLimitSeconds: LIMIT_MS / 1000, questions: QUESTIONS, settings: SETTINGS });
  for (let i = 1; i <= 3; i++) ok(state, { type: "join", clientId: `c${i}`, nickname: `P${i}` }, T0);
  ok(state, { type: "start", actor: { role: "host" } }, START);
  const effects = ok(state, { type: "answer", actor: { role: "player", playerId: 1 }, playerId: 1, answerIndex: 1 }, START + 2000);
  const accepted = effects.find((effect) => effect.type === "answerAccepted") as Extract<Effect, { type: "answerAccepted" }>;
  const stored: AnswerRecord[] = [accepted.answer];
  return restoreGameState(
    { gameCode: state.gameCode, title: state.title, timeLimitSeconds: LIMIT_MS / 1000, questions: QUESTIONS, settings: SETTINGS },
    { phase: "question", round: 0, questionIndex: 0, questionStartedAt: START, questionPauses: [] },
    [...state.players.values()].map(({ id, nickname, clientId, joinedAt }) => ({ id, nickname, clientId, joinedAt })),
    stored,
    START + 3000,
  );
}

describe("a question restored mid-way", () => {
  it("stays open for the players still coming back when the first one back answers", () => {
    const state = restoredMidQuestion();
    ok(state, { type: "join", clientId: "c2", nickname: "P2" }, START + 4500);
    const effects = ok(state, { type: "answer", actor: { role: "player", playerId: 2 }, playerId: 2, answerIndex: 0 }, START + 4600);
    expect(effects.map((effect) => effect.type)).not.toContain("questionClosed");
    expect(state.phase).toBe("question");
    // P3, back a moment later, still answers it.
    ok(state, { type: "join", clientId: "c3", nickname: "P3" }, START + 5000);
    const third = ok(state, { type: "answer", actor: { role: "player", playerId: 3 }, playerId: 3, answerIndex: 1 }, START + 5200);
    expect(third.map((effect) => effect.type)).toContain("answerAccepted");
  });

  it("closes once every player has answered, back or not, as before", () => {
    const state = restoredMidQuestion();
    ok(state, { type: "join", clientId: "c2", nickname: "P2" }, START + 4500);
    ok(state, { type: "join", clientId: "c3", nickname: "P3" }, START + 4600);
    ok(state, { type: "answer", actor: { role: "player", playerId: 2 }, playerId: 2, answerIndex: 0 }, START + 4700);
    const last = ok(state, { type: "answer", actor: { role: "player", playerId: 3 }, playerId: 3, answerIndex: 1 }, START + 4800);
    expect(last.map((effect) => effect.type)).toContain("questionClosed");
  });

  it("closes at its deadline when a player never comes back", () => {
    const state = restoredMidQuestion();
    ok(state, { type: "join", clientId: "c2", nickname: "P2" }, START + 4500);
    ok(state, { type: "answer", actor: { role: "player", playerId: 2 }, playerId: 2, answerIndex: 0 }, START + 4600);
    expect(ok(state, { type: "tick" }, START + LIMIT_MS - 1).map((effect) => effect.type)).not.toContain("questionClosed");
    expect(ok(state, { type: "tick" }, START + LIMIT_MS).map((effect) => effect.type)).toContain("questionClosed");
  });
});
