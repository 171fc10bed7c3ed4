/**
 * The host's pause of a running question (issue 17): the question keeps its time left while paused,
 * its deadline moves by the pause, answers wait for the resume, and an answer's speed is measured
 * without the pause, so nobody gains or loses points by it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createGameState,
  isPaused,
  isRejection,
  pausedMsBefore,
  questionView,
  recipientsOf,
  remainingMsOf,
  restoreGameState,
  scoreAnswer,
  transition,
  type Actor,
  type AnswerRecord,
  type Command,
  type Effect,
  type EngineQuestion,
  type ErrorCode,
  type GameState,
} from "#app/game/engine/index";
import { ServerMessageSchema } from "#app/game/protocol";
import { MAX_PAUSES_PER_QUESTION } from "#app/game/rules";
import { readServerMessage } from "#app/game/client/server-message";

const T0 = 1_700_000_000_000;
const START = T0 + 10_000;
const LIMIT_MS = 20_000;
const RESULTS_MS = 3000;

const QUESTIONS: EngineQuestion[] = [
  { id: 101, kind: "choice", text: "Capital of France?", answers: ["Rome", "Paris", "Berlin", "Madrid"], correctAnswerIndex: 1 },
  { id: 102, kind: "choice", text: "2 + 2?", answers: ["3", "5", "4", "22"], correctAnswerIndex: 2 },
];

const HOST: Actor = { role: "host" };
const asPlayer = (playerId: number): Actor => ({ role: "player", playerId });
const PAUSE: Command = { type: "pause", actor: HOST };
const RESUME: Command = { type: "resume", actor: HOST };
const TICK: Command = { type: "tick" };
const answerCmd = (playerId: number, answerIndex: number): Command => ({ type: "answer", actor: asPlayer(playerId), playerId, answerIndex });

function ok(state: GameState, command: Command, now: number): Effect[] {
  const result = transition(state, command, now);
  if (isRejection(result)) throw new Error(`unexpected rejection ${result.error.code}: ${result.error.message}`);
  return result.effects;
}

function refused(state: GameState, command: Command, now: number): { code: ErrorCode; message: string } {
  const result = transition(state, command, now);
  if (!isRejection(result)) throw new Error(`expected a rejection, got ${JSON.stringify(result.effects.map((effect) => effect.type))}`);
  return result.error;
}

/** A game with `players` players (ids 1..n) and its first question open at START. */
function running(players = 2): GameState {
  const state = createGameState({
    gameCode: "ABC234",
    title: "T",
    timeLimitSeconds: LIMIT_MS / 1000,
    questions: QUESTIONS,
    settings: { resultsDelayMs: RESULTS_MS, nextQuestionSeconds: 5, lobbyGraceMs: 60_000 },
  });
  for (let i = 1; i <= players; i++) ok(state, { type: "join", clientId: `c${i}`, nickname: `P${i}` }, T0);
  ok(state, { type: "start", actor: HOST }, START);
  return state;
}

function accepted(effects: Effect[]): AnswerRecord {
  const effect = effects.find((candidate) => candidate.type === "answerAccepted");
  if (!effect || effect.type !== "answerAccepted") throw new Error("no answer accepted");
  return effect.answer;
}

describe("pause", () => {
  it("stops the question's clock: no deadline while paused, and the time left is kept", () => {
    const state = running();
    expect(ok(state, PAUSE, START + 4000)).toEqual([{ type: "questionPaused" }]);
    expect(isPaused(state)).toBe(true);
    expect(state.deadline).toBeNull();
    expect(remainingMsOf(state, START + 4000)).toBe(16_000);
    expect(remainingMsOf(state, START + 90_000)).toBe(16_000);
    // The question's own end has passed long ago on the wall clock: a tick changes nothing.
    expect(ok(state, TICK, START + 60_000)).toEqual([]);
    expect(state.phase).toBe("question");
  });

  it("moves the deadline by the paused time on resume, and the question closes then, not before", () => {
    const state = running();
    ok(state, PAUSE, START + 4000);
    expect(ok(state, RESUME, START + 34_000)).toEqual([{ type: "questionResumed" }]);
    expect(isPaused(state)).toBe(false);
    expect(state.questionEndsAt).toBe(START + LIMIT_MS + 30_000);
    expect(state.deadline).toBe(state.questionEndsAt);
    expect(remainingMsOf(state, START + 34_000)).toBe(16_000);
    expect(ok(state, TICK, START + 49_999)).toEqual([]);
    expect(ok(state, TICK, START + 50_000).map((effect) => effect.type)).toEqual(["questionClosed"]);
  });

  it("adds up several pauses", () => {
    const state = running();
    ok(state, PAUSE, START + 1000);
    ok(state, RESUME, START + 3000);
    ok(state, PAUSE, START + 5000);
    ok(state, RESUME, START + 10_000);
    expect(state.questionEndsAt).toBe(START + LIMIT_MS + 7000);
    expect(pausedMsBefore(state, START + 500)).toBe(0);
    expect(pausedMsBefore(state, START + 2000)).toBe(1000);
    expect(pausedMsBefore(state, START + 4000)).toBe(2000);
    expect(pausedMsBefore(state, START + 6000)).toBe(3000);
    expect(pausedMsBefore(state, START + 12_000)).toBe(7000);
  });

  it("refuses answers while paused with PAUSED, and takes them after the resume", () => {
    const state = running();
    ok(state, PAUSE, START + 2000);
    const error = refused(state, answerCmd(1, 1), START + 3000);
    expect(error).toEqual({ code: "PAUSED", key: "PAUSED", message: "The host has paused the question. Answer when it resumes." });
    expect(state.answeredCount).toBe(0);
    ok(state, RESUME, START + 10_000);
    expect(accepted(ok(state, answerCmd(1, 1), START + 11_000)).correct).toBe(true);
  });

  it("measures an answer's time without the pause, so its points are those of an answer given that fast", () => {
    const paused = running();
    ok(paused, PAUSE, START + 2000);
    ok(paused, RESUME, START + 12_000);
    const answer = accepted(ok(paused, answerCmd(1, 1), START + 16_000));
    expect(answer.responseTimeMs).toBe(6000);
    expect(answer.points).toBe(scoreAnswer({ correct: true, responseTimeMs: 6000, timeLimitMs: LIMIT_MS, streak: 1 }));

    const unpaused = running();
    expect(accepted(ok(unpaused, answerCmd(1, 1), START + 6000))).toMatchObject({ responseTimeMs: 6000, points: answer.points });
  });

  it("times a player who joined during a pause from the resume", () => {
    const state = running(1);
    ok(state, PAUSE, START + 2000);
    ok(state, { type: "join", clientId: "late", nickname: "Late" }, START + 5000);
    ok(state, RESUME, START + 9000);
    expect(accepted(ok(state, answerCmd(2, 1), START + 10_000)).responseTimeMs).toBe(1000);
  });

  it("times a player whose question arrived after a pause from its arrival, less the later pauses only", () => {
    const state = running(1);
    ok(state, PAUSE, START + 1000);
    ok(state, RESUME, START + 4000);
    ok(state, PAUSE, START + 8000);
    ok(state, RESUME, START + 9000);
    const answer = accepted(ok(state, { ...answerCmd(1, 1), questionDeliveredAt: START + 6000 } as Command, START + 10_000));
    expect(answer.responseTimeMs).toBe(3000);
  });

  it("is for the host only, and only on a running question; resume only when paused", () => {
    const state = running();
    expect(refused(state, { type: "pause", actor: asPlayer(1) }, START + 1000)).toEqual({
      code: "NOT_HOST",
      key: "NOT_HOST_PAUSE",
      message: "Only the host can pause or resume the question.",
    });
    expect(refused(state, { type: "pause", actor: { role: "guest" } }, START + 1000).code).toBe("NOT_HOST");
    expect(refused(state, RESUME, START + 1000)).toEqual({ code: "NOT_PAUSED", key: "NOT_PAUSED", message: "The question is not paused." });
    ok(state, PAUSE, START + 1000);
    expect(refused(state, PAUSE, START + 1500)).toEqual({
      code: "NOTHING_TO_PAUSE",
      key: "NOTHING_TO_PAUSE",
      message: "There is no running question to pause.",
    });
    expect(refused(state, { type: "resume", actor: asPlayer(2) }, START + 1500).code).toBe("NOT_HOST");
    ok(state, RESUME, START + 2000);
    // Its time is up, though no tick has closed it yet.
    expect(refused(state, PAUSE, START + 1000 + LIMIT_MS + 1000).code).toBe("NOTHING_TO_PAUSE");
  });

  it(`pauses a question at most ${MAX_PAUSES_PER_QUESTION} times, so a host's button held down cannot grow what every pause writes`, () => {
    const state = running();
    let now = START + 1000;
    for (let i = 0; i < MAX_PAUSES_PER_QUESTION; i++) {
      ok(state, PAUSE, now++);
      ok(state, RESUME, now++);
    }
    expect(refused(state, PAUSE, now)).toEqual({
      code: "TOO_MANY_PAUSES",
      key: "TOO_MANY_PAUSES",
      message: "This question has been paused too often. Let it run.",
    });
    // The next question may be paused again.
    ok(state, { type: "next", actor: HOST }, now + 1);
    ok(state, { type: "next", actor: HOST }, now + 2);
    ok(state, { type: "next", actor: HOST }, now + 3);
    expect(state.phase).toBe("question");
    ok(state, PAUSE, now + 4);
  });

  it("cannot pause the lobby, the results, the leaderboard or the podium", () => {
    const state = createGameState({ gameCode: "ABC234", title: "T", timeLimitSeconds: 20, questions: QUESTIONS.slice(0, 1) });
    expect(refused(state, PAUSE, T0).code).toBe("NOTHING_TO_PAUSE");
    ok(state, { type: "join", clientId: "c1", nickname: "A" }, T0);
    ok(state, { type: "start", actor: HOST }, START);
    ok(state, { type: "next", actor: HOST }, START + 1);
    expect(state.phase).toBe("results");
    expect(refused(state, PAUSE, START + 2).code).toBe("NOTHING_TO_PAUSE");
    expect(refused(state, RESUME, START + 2).code).toBe("NOT_PAUSED");
    ok(state, { type: "next", actor: HOST }, START + 3);
    expect(refused(state, PAUSE, START + 4).code).toBe("NOTHING_TO_PAUSE");
    ok(state, { type: "next", actor: HOST }, START + 5);
    expect(state.phase).toBe("finished");
    expect(refused(state, PAUSE, START + 6).code).toBe("NOTHING_TO_PAUSE");
  });

  it("Skip while paused ends the pause and closes the question; the results run their usual time", () => {
    const state = running();
    ok(state, PAUSE, START + 1000);
    expect(ok(state, { type: "next", actor: HOST }, START + 5000).map((effect) => effect.type)).toEqual(["questionClosed"]);
    expect(state.phase).toBe("results");
    expect(isPaused(state)).toBe(false);
    expect(state.deadline).toBe(START + 5000 + RESULTS_MS);
  });

  it("closes a paused question when its last waited-for player is removed, as a running one", () => {
    const state = running(2);
    ok(state, answerCmd(1, 1), START + 1000);
    ok(state, PAUSE, START + 2000);
    expect(ok(state, { type: "kick", actor: HOST, playerId: 2 }, START + 3000).map((effect) => effect.type)).toEqual(["playerKicked", "questionClosed"]);
    expect(state.phase).toBe("results");
    expect(isPaused(state)).toBe(false);
  });

  it("starts the next question unpaused, with no pause carried over", () => {
    const state = running(1);
    ok(state, PAUSE, START + 1000);
    ok(state, RESUME, START + 3000);
    ok(state, { type: "next", actor: HOST }, START + 4000);
    ok(state, { type: "next", actor: HOST }, START + 5000);
    ok(state, { type: "next", actor: HOST }, START + 6000);
    expect(state.questionIndex).toBe(1);
    expect(state.questionPauses).toEqual([]);
    expect(state.questionEndsAt).toBe(START + 6000 + LIMIT_MS);
  });
});

describe("what the clients are told of a pause", () => {
  it("QUESTION_PAUSED and QUESTION_RESUMED go to everyone as one message each, in the protocol's shape", () => {
    const state = running();
    const audience = { now: START + 4000, hasHosts: true };
    const [paused] = recipientsOf(state, ok(state, PAUSE, START + 4000)[0], audience);
    expect(paused).toEqual({ to: "everyone", type: "QUESTION_PAUSED", payload: { questionNumber: 1, remainingMs: 16_000 } });
    const [resumed] = recipientsOf(state, ok(state, RESUME, START + 9000)[0], { now: START + 9000, hasHosts: true });
    expect(resumed).toEqual({
      to: "everyone",
      type: "QUESTION_RESUMED",
      payload: { questionNumber: 1, remainingMs: 16_000, endsAt: START + 25_000, serverNow: START + 9000 },
    });
    for (const message of [paused, resumed]) {
      const { to: _, ...wire } = message as { to: string; type: string; payload: unknown };
      expect(ServerMessageSchema.safeParse(wire).success).toBe(true);
      expect(readServerMessage(wire)).toMatchObject({ ok: true });
    }
  });

  it("a client that (re)joins a paused question is told it is paused and how long it has left", () => {
    const state = running();
    ok(state, PAUSE, START + 4000);
    const view = questionView(state, START + 50_000);
    expect(view.pausedRemainingMs).toBe(16_000);
    expect(ServerMessageSchema.safeParse({ type: "QUESTION_STARTED", payload: view }).success).toBe(true);
    ok(state, RESUME, START + 60_000);
    expect(questionView(state, START + 60_000).pausedRemainingMs).toBeUndefined();
  });
});

describe("restoring a paused question", () => {
  function restore(state: GameState, now: number): GameState {
    return restoreGameState(
      { gameCode: state.gameCode, title: state.title, timeLimitSeconds: state.timeLimitMs / 1000, questions: state.questions, settings: state.settings },
      {
        phase: state.phase,
        round: state.round,
        questionIndex: state.questionIndex,
        questionStartedAt: state.questionStartedAt,
        questionPauses: state.questionPauses.map((pause) => [pause.from, pause.to]),
      },
      [...state.players.values()].map(({ id, nickname, clientId, joinedAt }) => ({ id, nickname, clientId, joinedAt })),
      [],
      now,
    );
  }

  it("comes back paused with the same time left, however long the server was down", () => {
    const state = running();
    ok(state, PAUSE, START + 1000);
    ok(state, RESUME, START + 3000);
    ok(state, PAUSE, START + 7000);
    const restored = restore(state, START + 600_000);
    expect(isPaused(restored)).toBe(true);
    expect(restored.deadline).toBeNull();
    expect(remainingMsOf(restored, START + 600_000)).toBe(15_000);
    expect(refused(restored, answerCmd(1, 1), START + 600_001).code).toBe("PAUSED");
    ok(restored, RESUME, START + 700_000);
    expect(restored.deadline).toBe(START + 700_000 + 15_000);
    // Answered 5 s of running time after the question went out: 1 s, then 4 s after the first resume.
    expect(accepted(ok(restored, answerCmd(1, 1), START + 700_000)).responseTimeMs).toBe(5000);
  });

  it("comes back running with its deadline moved by the pauses it had", () => {
    const state = running();
    ok(state, PAUSE, START + 1000);
    ok(state, RESUME, START + 3000);
    const restored = restore(state, START + 5000);
    expect(isPaused(restored)).toBe(false);
    expect(restored.deadline).toBe(START + LIMIT_MS + 2000);
    expect(restored.questionEndsAt).toBe(state.questionEndsAt);
  });
});

describe("pause properties", () => {
  it("an answer's points do not depend on pauses before it: with pauses they equal those of the same running time without", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ run: fc.integer({ min: 0, max: 3000 }), pause: fc.integer({ min: 1, max: 60_000 }) }), { maxLength: 6 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 3 }),
        (pauses, lastRun, answerIndex) => {
          const state = running(1);
          let now = START;
          let runningMs = 0;
          for (const { run, pause } of pauses) {
            now += run;
            runningMs += run;
            if (runningMs >= LIMIT_MS) return;
            ok(state, PAUSE, now);
            now += pause;
            ok(state, RESUME, now);
          }
          now += lastRun;
          runningMs += lastRun;
          if (runningMs >= LIMIT_MS) return;
          expect(remainingMsOf(state, now)).toBe(LIMIT_MS - runningMs);
          const answer = accepted(ok(state, answerCmd(1, answerIndex), now));
          const plain = running(1);
          const expected = accepted(ok(plain, answerCmd(1, answerIndex), START + runningMs));
          expect({ responseTimeMs: answer.responseTimeMs, points: answer.points }).toEqual({
            responseTimeMs: expected.responseTimeMs,
            points: expected.points,
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
