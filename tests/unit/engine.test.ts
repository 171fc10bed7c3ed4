import { describe, expect, it } from "vitest";
import {
  answerProgressView,
  createGameState,
  gameOverView,
  isRejection,
  leaderboardView,
  lobbyView,
  playerResultView,
  questionView,
  resultsHeaderView,
  snapshotView,
  transition,
  type Actor,
  type Command,
  type Effect,
  type EngineQuestion,
  type ErrorCode,
  type GameState,
  type Phase,
  type PlayerState,
} from "#app/game/engine/index";

// ------------------------------------------------------------------ fixtures

const T0 = 1_700_000_000_000;
/** When the fixtures' games start (the first question goes out). */
const START = T0 + 10_000;
const LIMIT_MS = 20_000;
const RESULTS_MS = 3000;
const NEXT_MS = 5000;

const QUESTIONS: EngineQuestion[] = [
  { id: 101, kind: "choice", text: "Capital of France?", answers: ["Rome", "Paris", "Berlin", "Madrid"], correctAnswerIndex: 1 },
  { id: 102, kind: "choice", text: "2 + 2?", answers: ["3", "5", "4", "22"], correctAnswerIndex: 2 },
  { id: 103, kind: "choice", text: "Largest planet?", answers: ["Jupiter", "Mars", "Venus", "Earth"], correctAnswerIndex: 0 },
];

/** `count` questions whose right answer is index (i % 4). */
function makeQuestions(count: number): EngineQuestion[] {
  return Array.from({ length: count }, (_, i) => ({
    id: 200 + i,
    kind: "choice" as const,
    text: `Question ${i + 1}`,
    answers: ["A", "B", "C", "D"],
    correctAnswerIndex: i % 4,
  }));
}

function newGame(questions: EngineQuestion[] = QUESTIONS, timeLimitSeconds = 20): GameState {
  return createGameState({
    gameCode: "ABC234",
    title: "T",
    timeLimitSeconds,
    questions,
    settings: { resultsDelayMs: RESULTS_MS, nextQuestionSeconds: NEXT_MS / 1000, lobbyGraceMs: 60_000 },
  });
}

const HOST: Actor = { role: "host" };
const GUEST: Actor = { role: "guest" };
const asPlayer = (playerId: number): Actor => ({ role: "player", playerId });

const joinCmd = (clientId: string, nickname: string): Command => ({ type: "join", clientId, nickname });
const answerCmd = (playerId: number, answerIndex: number, actor: Actor = asPlayer(playerId)): Command => ({
  type: "answer",
  actor,
  playerId,
  answerIndex,
});
const START_CMD: Command = { type: "start", actor: HOST };
const NEXT_CMD: Command = { type: "next", actor: HOST };
const TICK: Command = { type: "tick" };

/** Applies a command that must be accepted and returns its effects. */
function ok(state: GameState, command: Command, now: number): Effect[] {
  const result = transition(state, command, now);
  if (isRejection(result)) throw new Error(`unexpected rejection ${result.error.code}: ${result.error.message}`);
  return result.effects;
}

/** Applies a command that must be rejected and returns the error. */
function rejected(state: GameState, command: Command, now: number) {
  const result = transition(state, command, now);
  if (!isRejection(result)) throw new Error(`expected a rejection, got effects ${types(result.effects).join(", ")}`);
  return result.error;
}

const types = (effects: Effect[]) => effects.map((effect) => effect.type);

/** A lobby with players joined 10 ms apart at T0, as client-1, client-2, ... */
function lobbyWith(nicknames: string[], questions: EngineQuestion[] = QUESTIONS): GameState {
  const state = newGame(questions);
  nicknames.forEach((nickname, i) => ok(state, joinCmd(`client-${i + 1}`, nickname), T0 + i * 10));
  return state;
}

/** A game whose first question went out at START. */
function startedWith(nicknames: string[], questions: EngineQuestion[] = QUESTIONS): GameState {
  const state = lobbyWith(nicknames, questions);
  ok(state, START_CMD, START);
  return state;
}

function byName(state: GameState, nickname: string): PlayerState {
  const player = [...state.players.values()].find((p) => p.nickname === nickname);
  if (!player) throw new Error(`no player ${nickname}`);
  return player;
}

/** Host presses Next until the game is in `phase` (at most a few presses). */
function advanceTo(state: GameState, phase: Phase, now: number): void {
  for (let i = 0; i < 20 && state.phase !== phase; i++) ok(state, NEXT_CMD, now);
  expect(state.phase).toBe(phase);
}

interface Step {
  at: number;
  cmd: Command;
  effects?: Effect["type"][];
  error?: ErrorCode;
  message?: string;
  phase?: Phase;
  questionIndex?: number;
  deadline?: number | null;
}

/** Runs a table of commands, checking each one's outcome and the resulting state. */
function runSteps(state: GameState, steps: Step[]): void {
  steps.forEach((step, i) => {
    const label = `step ${i}: ${step.cmd.type} at T0+${step.at - T0}`;
    const result = transition(state, step.cmd, step.at);
    if (step.error) {
      expect(isRejection(result), label).toBe(true);
      if (isRejection(result)) {
        expect(result.error.code, label).toBe(step.error);
        if (step.message) expect(result.error.message, label).toBe(step.message);
      }
    } else {
      expect(isRejection(result), `${label}: ${JSON.stringify(isRejection(result) ? result.error : "")}`).toBe(false);
      if (!isRejection(result)) expect(types(result.effects), label).toEqual(step.effects ?? []);
    }
    if (step.phase !== undefined) expect(state.phase, label).toBe(step.phase);
    if (step.questionIndex !== undefined) expect(state.questionIndex, label).toBe(step.questionIndex);
    if (step.deadline !== undefined) expect(state.deadline, label).toBe(step.deadline);
  });
}

// ------------------------------------------------------------------ createGameState

describe("createGameState", () => {
  it("starts in the lobby with no players and no deadline", () => {
    const state = newGame();
    expect(state).toMatchObject({
      gameCode: "ABC234",
      title: "T",
      timeLimitMs: 20_000,
      phase: "lobby",
      questionIndex: -1,
      deadline: null,
      nextPlayerId: 1,
      connectedCount: 0,
      settings: { resultsDelayMs: 3000, nextQuestionSeconds: 5, lobbyGraceMs: 60_000 },
    });
    expect(state.players.size).toBe(0);
    expect(state.questions).toHaveLength(3);
  });

  it("fills missing settings with the defaults", () => {
    const state = createGameState({ gameCode: "XYZ789", title: "D", timeLimitSeconds: 30, questions: [], settings: { resultsDelayMs: 1 } });
    expect(state.timeLimitMs).toBe(30_000);
    expect(state.settings).toEqual({ resultsDelayMs: 1, nextQuestionSeconds: 5, lobbyGraceMs: 60_000, maxPlayers: 10_000 });
  });
});

// ------------------------------------------------------------------ join

describe("join", () => {
  it("assigns sequential ids from 1 and records the join time", () => {
    const state = newGame();
    const joins = [
      { clientId: "c-a", nickname: "Alice", at: T0 },
      { clientId: "c-b", nickname: "Bob", at: T0 + 5 },
      { clientId: "c-c", nickname: "Carol", at: T0 + 9 },
    ];
    joins.forEach(({ clientId, nickname, at }, i) => {
      const effects = ok(state, joinCmd(clientId, nickname), at);
      expect(effects).toMatchObject([
        {
          type: "playerJoined",
          rejoined: false,
          player: {
            id: i + 1,
            nickname,
            clientId,
            score: 0,
            streak: 0,
            correctCount: 0,
            connected: true,
            joinedAt: at,
            rank: 0,
            lastAnswer: null,
          },
        },
      ]);
    });
    expect([...state.players.keys()]).toEqual([1, 2, 3]);
    expect(state.players.size).toBe(3);
    expect(state.connectedCount).toBe(3);
    expect(state.nextPlayerId).toBe(4);
    expect(state.playersByClientId.get("c-b")).toBe(state.players.get(2));
    expect(state.playersByNickname.get("carol")).toBe(state.players.get(3));
  });

  it.each([
    { raw: "Bob", stored: "Bob" },
    { raw: "  Bob  ", stored: "Bob" },
    { raw: "\tBob\n", stored: "Bob" },
    { raw: " Mary Jane ", stored: "Mary Jane" },
  ])("trims the nickname $raw -> $stored", ({ raw, stored }) => {
    const state = newGame();
    const [effect] = ok(state, joinCmd("c-1", raw), T0);
    expect(effect.type === "playerJoined" && effect.player.nickname).toBe(stored);
    expect(state.players.get(1)!.nickname).toBe(stored);
  });

  it.each([
    { existing: "Alice", attempt: "Alice" },
    { existing: "Alice", attempt: "alice" },
    { existing: "Alice", attempt: "ALICE" },
    { existing: "Alice", attempt: "  aLiCe  " },
    { existing: "  bob ", attempt: "BOB" },
  ])("rejects $attempt when $existing is taken, changing nothing", ({ existing, attempt }) => {
    const state = newGame();
    ok(state, joinCmd("c-1", existing), T0);
    const before = structuredClone(state);
    const error = rejected(state, joinCmd("c-2", attempt), T0 + 100);
    expect(error).toEqual({ code: "NICKNAME_TAKEN", key: "NICKNAME_TAKEN", message: "Nickname already taken" });
    expect(state).toEqual(before);
    expect(state.players.size).toBe(1);
    expect(state.nextPlayerId).toBe(2);
    expect(state.playersByClientId.has("c-2")).toBe(false);
  });

  it.each(["__HOST__", "  __HOST__  "])("rejects the reserved host nickname %j", (nickname) => {
    const state = lobbyWith(["Alice"]);
    const before = structuredClone(state);
    const error = rejected(state, joinCmd("c-x", nickname), T0 + 100);
    expect(error).toEqual({ code: "NICKNAME_RESERVED", key: "NICKNAME_RESERVED", message: "Only the host of this game can join as host." });
    expect(state).toEqual(before);
    expect(state.players.size).toBe(1);
  });

  it.each([
    { name: "the same nickname", nickname: "Alice" },
    { name: "a differently cased nickname", nickname: "ALICE" },
    { name: "a different nickname", nickname: "Someone Else" },
  ])("a rejoin with the same clientId and $name returns the same player", ({ nickname }) => {
    const state = lobbyWith(["Alice", "Bob"]);
    const alice = state.players.get(1)!;
    const effects = ok(state, joinCmd("client-1", nickname), T0 + 1000);
    expect(effects).toHaveLength(1);
    expect(effects[0]).toMatchObject({ type: "playerJoined", rejoined: true });
    expect(effects[0].type === "playerJoined" && effects[0].player).toBe(alice);
    expect(alice.nickname).toBe("Alice");
    expect(alice.joinedAt).toBe(T0);
    expect(state.players.size).toBe(2);
    expect(state.nextPlayerId).toBe(3);
    expect(state.connectedCount).toBe(2);
  });

  it("a rejoin after a disconnect reconnects the player", () => {
    const state = lobbyWith(["Alice", "Bob"]);
    ok(state, { type: "disconnect", playerId: 1 }, T0 + 100);
    expect(state.connectedCount).toBe(1);
    const effects = ok(state, joinCmd("client-1", "Alice"), T0 + 200);
    expect(effects[0]).toMatchObject({ type: "playerJoined", rejoined: true, player: { id: 1, connected: true } });
    expect(state.connectedCount).toBe(2);
    expect(state.players.size).toBe(2);
  });

  it("a rejoin twice in a row does not count the player twice", () => {
    const state = lobbyWith(["Alice"]);
    ok(state, joinCmd("client-1", "Alice"), T0 + 100);
    ok(state, joinCmd("client-1", "Alice"), T0 + 200);
    expect(state.connectedCount).toBe(1);
    expect(state.players.size).toBe(1);
  });

  it("a new player cannot join a finished game, but a known client can come back", () => {
    const state = startedWith(["Alice"]);
    advanceTo(state, "finished", START + 1000);
    const before = structuredClone(state);
    expect(rejected(state, joinCmd("newcomer", "Zed"), START + 2000)).toEqual({
      code: "GAME_OVER",
      key: "GAME_OVER",
      message: "This game has already ended.",
    });
    expect(state).toEqual(before);
    const effects = ok(state, joinCmd("client-1", "Alice"), START + 3000);
    expect(effects[0]).toMatchObject({ type: "playerJoined", rejoined: true, player: { id: 1 } });
  });
});

// ------------------------------------------------------------------ start

describe("start", () => {
  it.each([
    {
      name: "a player",
      players: ["Alice"],
      actor: asPlayer(1),
      code: "NOT_HOST",
      message: "Only the host can start the game.",
    },
    { name: "a guest", players: ["Alice"], actor: GUEST, code: "NOT_HOST", message: "Only the host can start the game." },
    {
      name: "the host without players",
      players: [],
      actor: HOST,
      code: "NO_PLAYERS",
      message: "Wait for players to join before starting the game.",
    },
  ])("is rejected for $name ($code) and changes nothing", ({ players, actor, code, message }) => {
    const state = lobbyWith(players);
    const before = structuredClone(state);
    expect(rejected(state, { type: "start", actor }, START)).toEqual({ code, key: code, message });
    expect(state).toEqual(before);
    expect(state.phase).toBe("lobby");
    expect(state.deadline).toBeNull();
  });

  it("is rejected with NO_PLAYERS when everyone left the lobby", () => {
    const state = lobbyWith(["Alice"]);
    ok(state, { type: "leave", playerId: 1 }, T0 + 100);
    expect(rejected(state, START_CMD, START).code).toBe("NO_PLAYERS");
    expect(state.phase).toBe("lobby");
  });

  it.each(["question", "results", "leaderboard", "finished"] as const)("is rejected with ALREADY_STARTED in phase %s", (phase) => {
    const state = startedWith(["Alice", "Bob"]);
    advanceTo(state, phase, START + 1000);
    const before = structuredClone(state);
    expect(rejected(state, START_CMD, START + 2000)).toEqual({
      code: "ALREADY_STARTED",
      key: "ALREADY_STARTED",
      message: "The game has already started.",
    });
    expect(state).toEqual(before);
  });

  it("with zero questions reports gameStarted with questionCount 0 and stays in the lobby", () => {
    const state = lobbyWith(["Alice"], []);
    const effects = ok(state, START_CMD, START);
    expect(effects).toEqual([{ type: "gameStarted", questionCount: 0 }]);
    expect(state.phase).toBe("lobby");
    expect(state.questionIndex).toBe(-1);
    expect(state.deadline).toBeNull();
    // Still a lobby: others may join.
    expect(ok(state, joinCmd("late", "Bob"), START + 10)[0]).toMatchObject({ type: "playerJoined", rejoined: false });
  });

  it("starts the first question", () => {
    const state = lobbyWith(["Alice", "Bob"]);
    const effects = ok(state, START_CMD, START);
    expect(effects).toEqual([{ type: "gameStarted", questionCount: 3 }, { type: "questionStarted" }]);
    expect(state.phase).toBe("question");
    expect(state.questionIndex).toBe(0);
    expect(state.questionStartedAt).toBe(START);
    expect(state.questionEndsAt).toBe(START + 20_000);
    expect(state.deadline).toBe(START + 20_000);
    expect(state.pendingAnswers).toBe(2);
    expect(state.answeredCount).toBe(0);
    expect(state.answerCounts).toEqual([0, 0, 0, 0]);
    expect(state.ranking.map((p) => p.rank)).toEqual([1, 1]);
  });

  it.each([
    { seconds: 5, deadline: START + 5000 },
    { seconds: 10, deadline: START + 10_000 },
    { seconds: 90, deadline: START + 90_000 },
  ])("sets the question deadline from a $seconds s time limit", ({ seconds, deadline }) => {
    const state = newGame(QUESTIONS, seconds);
    ok(state, joinCmd("c", "Alice"), T0);
    ok(state, START_CMD, START);
    expect(state.deadline).toBe(deadline);
    expect(state.questionEndsAt).toBe(deadline);
  });

  it("does not count disconnected players as pending", () => {
    const state = lobbyWith(["Alice", "Bob", "Carol"]);
    ok(state, { type: "disconnect", playerId: 2 }, T0 + 500);
    ok(state, START_CMD, START);
    expect(state.pendingAnswers).toBe(2);
  });
});

// ------------------------------------------------------------------ answer

describe("answer", () => {
  it("is accepted once; a second answer is rejected with ALREADY_ANSWERED", () => {
    const state = startedWith(["Alice", "Bob"]);
    const alice = state.players.get(1)!;
    const effects = ok(state, answerCmd(1, 1), START + 2000);
    expect(effects).toEqual([
      {
        type: "answerAccepted",
        player: alice,
        answer: {
          playerId: 1,
          questionId: 101,
          questionIndex: 0,
          answerIndex: 1,
          value: null,
          responseTimeMs: 2000,
          correct: true,
          points: 950,
          answeredAt: START + 2000,
        },
      },
    ]);
    expect(alice.score).toBe(950);

    const before = structuredClone(state);
    for (const index of [1, 2]) {
      expect(rejected(state, answerCmd(1, index), START + 3000)).toEqual({
        code: "ALREADY_ANSWERED",
        key: "ALREADY_ANSWERED",
        message: "Answer already submitted",
      });
    }
    expect(state).toEqual(before);
    expect(alice.score).toBe(950);
    expect(state.answeredCount).toBe(1);
    expect(state.answerCounts).toEqual([0, 1, 0, 0]);
  });

  it.each([
    {
      name: "the host",
      cmd: answerCmd(1, 1, HOST),
      at: START + 1000,
      code: "HOST_CANNOT_ANSWER",
      message: "The host cannot answer questions.",
    },
    {
      name: "a player answering for another player",
      cmd: answerCmd(1, 1, asPlayer(2)),
      at: START + 1000,
      code: "NOT_YOUR_PLAYER",
      message: "You can only answer for your own player.",
    },
    {
      name: "a guest",
      cmd: answerCmd(1, 1, GUEST),
      at: START + 1000,
      code: "UNKNOWN_PLAYER",
      message: "Player ID is missing!",
    },
    {
      name: "an unknown player",
      cmd: answerCmd(99, 1),
      at: START + 1000,
      code: "UNKNOWN_PLAYER",
      message: "Player ID is missing!",
    },
    { name: "answer index 4", cmd: answerCmd(1, 4), at: START + 1000, code: "BAD_ANSWER", message: "Pick one of the four answers." },
    { name: "answer index -1", cmd: answerCmd(1, -1), at: START + 1000, code: "BAD_ANSWER", message: "Pick one of the four answers." },
    { name: "answer index 1.5", cmd: answerCmd(1, 1.5), at: START + 1000, code: "BAD_ANSWER", message: "Pick one of the four answers." },
    { name: "answer index NaN", cmd: answerCmd(1, NaN), at: START + 1000, code: "BAD_ANSWER", message: "Pick one of the four answers." },
    {
      name: "an answer exactly at the deadline",
      cmd: answerCmd(1, 1),
      at: START + 20_000,
      code: "QUESTION_CLOSED",
      message: "This question is closed.",
    },
    {
      name: "an answer after the deadline (before any tick)",
      cmd: answerCmd(1, 1),
      at: START + 25_000,
      code: "QUESTION_CLOSED",
      message: "This question is closed.",
    },
  ])("rejects $name with $code and changes nothing", ({ cmd, at, code, message }) => {
    const state = startedWith(["Alice", "Bob"]);
    const before = structuredClone(state);
    expect(rejected(state, cmd, at)).toEqual({ code, key: code, message });
    expect(state).toEqual(before);
    expect(state.answeredCount).toBe(0);
    expect(state.pendingAnswers).toBe(2);
  });

  it("accepts an answer 1 ms before the deadline", () => {
    const state = startedWith(["Alice", "Bob"]);
    const [effect] = ok(state, answerCmd(1, 1), START + 19_999);
    expect(effect).toMatchObject({ type: "answerAccepted", answer: { responseTimeMs: 19_999, points: 500 } });
  });

  it("rejects answers in the lobby with QUESTION_CLOSED", () => {
    const state = lobbyWith(["Alice"]);
    expect(rejected(state, answerCmd(1, 1), T0 + 100).code).toBe("QUESTION_CLOSED");
  });

  it.each(["results", "leaderboard", "finished"] as const)("rejects answers in phase %s with QUESTION_CLOSED", (phase) => {
    const state = startedWith(["Alice", "Bob"]);
    advanceTo(state, phase, START + 1000);
    const before = structuredClone(state);
    expect(rejected(state, answerCmd(1, 1), START + 1500).code).toBe("QUESTION_CLOSED");
    expect(state).toEqual(before);
  });

  it.each([
    { delay: 0, points: 1000 },
    { delay: 300, points: 1000 },
    { delay: 499, points: 1000 },
    { delay: 500, points: 988 },
    { delay: 1000, points: 975 },
    { delay: 5000, points: 875 },
    { delay: 10_000, points: 750 },
    { delay: 19_999, points: 500 },
  ])("measures a correct answer $delay ms after the question start -> $points points", ({ delay, points }) => {
    const state = startedWith(["Alice", "Bob"]);
    const [effect] = ok(state, answerCmd(1, 1), START + delay);
    expect(effect).toMatchObject({
      type: "answerAccepted",
      answer: { responseTimeMs: delay, points, correct: true, answeredAt: START + delay },
    });
    expect(state.players.get(1)!.score).toBe(points);
  });

  it.each([
    { deliveredAfter: 250, answerAfter: 1250, responseTimeMs: 1000, points: 975 },
    { deliveredAfter: 0, answerAfter: 1000, responseTimeMs: 1000, points: 975 },
    // A delivery time from before the start, or after the answer itself, cannot help.
    { deliveredAfter: -500, answerAfter: 1000, responseTimeMs: 1000, points: 975 },
    { deliveredAfter: 3000, answerAfter: 1000, responseTimeMs: 0, points: 1000 },
  ])(
    "a question written to the socket $deliveredAfter ms after the start and answered at $answerAfter ms is timed from its delivery",
    ({ deliveredAfter, answerAfter, responseTimeMs, points }) => {
      const state = startedWith(["Alice", "Bob"]);
      const delivered: Command = { type: "answer", actor: asPlayer(1), playerId: 1, answerIndex: 1, questionDeliveredAt: START + deliveredAfter };
      const [effect] = ok(state, delivered, START + answerAfter);
      expect(effect).toMatchObject({ answer: { responseTimeMs, points } });
    },
  );

  it("ignores any client-sent time: only the server clock counts", () => {
    const state = startedWith(["Alice", "Bob"]);
    const withClientTime = { ...answerCmd(1, 1), time: 0, responseTimeMs: 1 } as unknown as Command;
    const [effect] = ok(state, withClientTime, START + 10_000);
    expect(effect).toMatchObject({ answer: { responseTimeMs: 10_000, points: 750 } });
  });

  it("a faster correct answer scores more than a slower one", () => {
    const state = startedWith(["Alice", "Bob", "Carol"]);
    ok(state, answerCmd(2, 1), START + 8000);
    ok(state, answerCmd(1, 1), START + 2000);
    const alice = state.players.get(1)!;
    const bob = state.players.get(2)!;
    expect(alice.lastAnswer!.points).toBe(950);
    expect(bob.lastAnswer!.points).toBe(800);
    expect(alice.score).toBeGreaterThan(bob.score);
  });

  it.each([
    { index: 0, correct: false, points: 0, correctCount: 0, streak: 0 },
    { index: 1, correct: true, points: 975, correctCount: 1, streak: 1 },
    { index: 2, correct: false, points: 0, correctCount: 0, streak: 0 },
    { index: 3, correct: false, points: 0, correctCount: 0, streak: 0 },
  ])("answer $index to question 1 -> correct=$correct, $points points", ({ index, correct, points, correctCount, streak }) => {
    const state = startedWith(["Alice", "Bob"]);
    const [effect] = ok(state, answerCmd(1, index), START + 1000);
    expect(effect).toMatchObject({ answer: { answerIndex: index, correct, points } });
    const alice = state.players.get(1)!;
    expect(alice).toMatchObject({ score: points, correctCount, streak });
  });

  it("updates answeredCount, answerCounts and pendingAnswers", () => {
    const state = startedWith(["P1", "P2", "P3", "P4", "P5"]);
    const picks = [1, 1, 2, 3];
    picks.forEach((index, i) => ok(state, answerCmd(i + 1, index), START + 1000 + i));
    expect(state.answerCounts).toEqual([0, 2, 1, 1]);
    expect(state.answeredCount).toBe(4);
    expect(state.pendingAnswers).toBe(1);
    expect(state.phase).toBe("question");
  });

  it("closes the question as soon as every connected player has answered", () => {
    const state = startedWith(["Alice", "Bob", "Carol"]);
    runSteps(state, [
      { at: START + 1000, cmd: answerCmd(1, 1), effects: ["answerAccepted"], phase: "question" },
      { at: START + 2000, cmd: answerCmd(2, 0), effects: ["answerAccepted"], phase: "question" },
      {
        at: START + 4000,
        cmd: answerCmd(3, 1),
        effects: ["answerAccepted", "questionClosed"],
        phase: "results",
        deadline: START + 4000 + RESULTS_MS,
      },
    ]);
    expect(state.answerCounts).toEqual([1, 2, 0, 0]);
    expect(state.pendingAnswers).toBe(0);
  });

  it("reports every answering player as changed when the question closes", () => {
    const state = startedWith(["Alice", "Bob", "Carol"]);
    ok(state, answerCmd(1, 1), START + 1000);
    ok(state, answerCmd(2, 0), START + 1000);
    const effects = ok(state, answerCmd(3, 1), START + 1000);
    const closed = effects.find((e) => e.type === "questionClosed");
    expect(closed?.type === "questionClosed" && closed.changedPlayers.map((p) => p.id).sort()).toEqual([1, 2, 3]);
  });

  describe("a disconnected player does not block the early close", () => {
    it.each([
      {
        name: "disconnected before anyone answered",
        steps: [
          { at: START + 500, cmd: { type: "disconnect", playerId: 3 } as Command, effects: [], phase: "question" as Phase },
          { at: START + 1000, cmd: answerCmd(1, 1), effects: ["answerAccepted" as const], phase: "question" as Phase },
          {
            at: START + 2000,
            cmd: answerCmd(2, 1),
            effects: ["answerAccepted" as const, "questionClosed" as const],
            phase: "results" as Phase,
            deadline: START + 2000 + RESULTS_MS,
          },
        ],
      },
      {
        name: "the last player still to answer disconnects",
        steps: [
          { at: START + 1000, cmd: answerCmd(1, 1), effects: ["answerAccepted" as const], phase: "question" as Phase },
          { at: START + 2000, cmd: answerCmd(2, 1), effects: ["answerAccepted" as const], phase: "question" as Phase },
          {
            at: START + 3000,
            cmd: { type: "disconnect", playerId: 3 } as Command,
            effects: ["questionClosed" as const],
            phase: "results" as Phase,
            deadline: START + 3000 + RESULTS_MS,
          },
        ],
      },
      {
        name: "a player who already answered disconnects",
        steps: [
          { at: START + 1000, cmd: answerCmd(3, 1), effects: ["answerAccepted" as const], phase: "question" as Phase },
          { at: START + 1500, cmd: { type: "disconnect", playerId: 3 } as Command, effects: [], phase: "question" as Phase },
          { at: START + 2000, cmd: answerCmd(1, 1), effects: ["answerAccepted" as const], phase: "question" as Phase },
          {
            at: START + 2500,
            cmd: answerCmd(2, 1),
            effects: ["answerAccepted" as const, "questionClosed" as const],
            phase: "results" as Phase,
          },
        ],
      },
    ])("$name", ({ steps }) => {
      const state = startedWith(["Alice", "Bob", "Carol"]);
      runSteps(state, steps);
      // The disconnected player is still part of the game.
      expect(state.players.get(3)).toMatchObject({ connected: false });
      expect(state.players.size).toBe(3);
    });

    it("players disconnected in the lobby are not waited for", () => {
      const state = lobbyWith(["Alice", "Bob", "Carol"]);
      ok(state, { type: "disconnect", playerId: 2 }, T0 + 500);
      ok(state, START_CMD, START);
      runSteps(state, [
        { at: START + 1000, cmd: answerCmd(1, 1), effects: ["answerAccepted"] },
        { at: START + 2000, cmd: answerCmd(3, 1), effects: ["answerAccepted", "questionClosed"], phase: "results" },
      ]);
    });
  });

  it("a player who reconnects during the question is waited for again", () => {
    const state = startedWith(["Alice", "Bob"]);
    runSteps(state, [
      { at: START + 500, cmd: { type: "disconnect", playerId: 2 }, effects: [] },
      { at: START + 600, cmd: joinCmd("client-2", "Bob"), effects: ["playerJoined"] },
      { at: START + 1000, cmd: answerCmd(1, 1), effects: ["answerAccepted"], phase: "question" },
      { at: START + 2000, cmd: answerCmd(2, 1), effects: ["answerAccepted", "questionClosed"], phase: "results" },
    ]);
  });

  it("does not close early when every player disconnected without answering; the deadline closes it", () => {
    const state = startedWith(["Alice", "Bob"]);
    runSteps(state, [
      { at: START + 500, cmd: { type: "disconnect", playerId: 1 }, effects: [], phase: "question" },
      { at: START + 600, cmd: { type: "disconnect", playerId: 2 }, effects: [], phase: "question" },
      { at: START + 19_999, cmd: TICK, effects: [], phase: "question" },
      { at: START + 20_000, cmd: TICK, effects: ["questionClosed"], phase: "results" },
    ]);
  });

  describe("streaks over consecutive questions", () => {
    type Pick = "right" | "wrong" | null;
    it.each<{ name: string; picks: Pick[]; streaks: number[]; points: number[] }>([
      { name: "three right", picks: ["right", "right", "right"], streaks: [1, 2, 3], points: [1000, 1100, 1200] },
      { name: "right, wrong, right", picks: ["right", "wrong", "right"], streaks: [1, 0, 1], points: [1000, 0, 1000] },
      { name: "right, missing, right", picks: ["right", null, "right"], streaks: [1, 0, 1], points: [1000, 0, 1000] },
      { name: "wrong, right, right", picks: ["wrong", "right", "right"], streaks: [0, 1, 2], points: [0, 1000, 1100] },
      { name: "missing, right, right", picks: [null, "right", "right"], streaks: [0, 1, 2], points: [0, 1000, 1100] },
      { name: "right, right, missing", picks: ["right", "right", null], streaks: [1, 2, 0], points: [1000, 1100, 0] },
      {
        name: "eight right (bonus capped at 500)",
        picks: Array<Pick>(8).fill("right"),
        streaks: [1, 2, 3, 4, 5, 6, 7, 8],
        points: [1000, 1100, 1200, 1300, 1400, 1500, 1500, 1500],
      },
      {
        name: "three right, wrong, two right",
        picks: ["right", "right", "right", "wrong", "right", "right"],
        streaks: [1, 2, 3, 0, 1, 2],
        points: [1000, 1100, 1200, 0, 1000, 1100],
      },
    ])("$name", ({ picks, streaks, points }) => {
      const questions = makeQuestions(picks.length);
      const state = startedWith(["Solo"], questions);
      const solo = state.players.get(1)!;
      let now = START;
      const seenStreaks: number[] = [];
      const seenPoints: number[] = [];
      picks.forEach((pick, i) => {
        expect(state.phase).toBe("question");
        expect(state.questionIndex).toBe(i);
        now = state.questionStartedAt + 100;
        if (pick !== null) {
          const right = questions[i].correctAnswerIndex;
          ok(state, answerCmd(1, pick === "right" ? right : (right + 1) % 4), now);
        } else {
          ok(state, NEXT_CMD, now); // the host skips: the question closes unanswered
        }
        expect(state.phase).toBe("results");
        seenStreaks.push(solo.streak);
        seenPoints.push(playerResultView(state, solo).points);
        ok(state, NEXT_CMD, (now += 10)); // leaderboard
        ok(state, NEXT_CMD, (now += 10)); // next question or game over
      });
      expect(state.phase).toBe("finished");
      expect(seenStreaks).toEqual(streaks);
      expect(seenPoints).toEqual(points);
      expect(solo.score).toBe(points.reduce((a, b) => a + b, 0));
      expect(solo.correctCount).toBe(picks.filter((p) => p === "right").length);
    });

    it("a missing answer resets the streak when the question closes and reports the player as changed", () => {
      const state = startedWith(["Alice", "Bob"]);
      ok(state, answerCmd(1, 1), START + 100); // Alice right
      ok(state, answerCmd(2, 0), START + 100); // Bob wrong -> closes
      advanceTo(state, "question", START + 200);
      expect(state.players.get(1)!.streak).toBe(1);
      const effects = ok(state, NEXT_CMD, START + 300); // nobody answers question 2
      expect(types(effects)).toEqual(["questionClosed"]);
      const closed = effects[0];
      // Alice lost a streak and is reported; Bob had none and did not change.
      expect(closed.type === "questionClosed" && closed.changedPlayers.map((p) => p.id)).toEqual([1]);
      expect(state.players.get(1)!.streak).toBe(0);
    });
  });

  describe("ranks are competition ranks", () => {
    type Answers = Record<string, [answerIndex: number, delayMs: number] | null>;
    it.each<{ name: string; answers: Answers; ranks: Record<string, number>; order: string[] }>([
      {
        name: "a tie at the top",
        answers: { Alice: [1, 1000], Bob: [1, 1000], Carol: [0, 1000], Dave: [1, 5000] },
        ranks: { Alice: 1, Bob: 1, Dave: 3, Carol: 4 },
        order: ["Alice", "Bob", "Dave", "Carol"],
      },
      {
        name: "everyone wrong",
        answers: { Alice: [0, 100], Bob: [2, 200], Carol: [3, 300], Dave: [0, 400] },
        ranks: { Alice: 1, Bob: 1, Carol: 1, Dave: 1 },
        order: ["Alice", "Bob", "Carol", "Dave"],
      },
      {
        name: "a tie in the middle and a non-answerer",
        answers: { Alice: [1, 100], Bob: [1, 5000], Carol: [1, 5000], Dave: null },
        ranks: { Alice: 1, Bob: 2, Carol: 2, Dave: 4 },
        order: ["Alice", "Bob", "Carol", "Dave"],
      },
      {
        name: "ties at the top and at the bottom",
        answers: { Alice: null, Bob: [1, 10_000], Carol: null, Dave: [1, 10_000] },
        ranks: { Bob: 1, Dave: 1, Alice: 3, Carol: 3 },
        order: ["Bob", "Dave", "Alice", "Carol"],
      },
      {
        name: "all different",
        answers: { Alice: [1, 9000], Bob: [1, 3000], Carol: [1, 6000], Dave: [1, 12_000] },
        ranks: { Bob: 1, Carol: 2, Alice: 3, Dave: 4 },
        order: ["Bob", "Carol", "Alice", "Dave"],
      },
    ])("$name", ({ answers, ranks, order }) => {
      const state = startedWith(["Alice", "Bob", "Carol", "Dave"]);
      for (const [nickname, answer] of Object.entries(answers)) {
        if (answer) ok(state, answerCmd(byName(state, nickname).id, answer[0]), START + answer[1]);
      }
      if (state.phase === "question") ok(state, NEXT_CMD, START + 15_000);
      expect(state.phase).toBe("results");
      const seen = Object.fromEntries([...state.players.values()].map((p) => [p.nickname, p.rank]));
      expect(seen).toEqual(ranks);
      expect(state.ranking.map((p) => p.nickname)).toEqual(order);
    });
  });
});

// ------------------------------------------------------------------ tick

describe("tick", () => {
  it("does nothing in the lobby", () => {
    const state = lobbyWith(["Alice"]);
    const before = structuredClone(state);
    expect(ok(state, TICK, T0 + 1_000_000)).toEqual([]);
    expect(state).toEqual(before);
  });

  it("drives the whole game by deadlines", () => {
    const state = startedWith(["Alice", "Bob"]);
    const Q1 = START + LIMIT_MS + RESULTS_MS + NEXT_MS; // second question starts
    const Q2 = Q1 + LIMIT_MS + RESULTS_MS + NEXT_MS; // third question starts
    const END = Q2 + LIMIT_MS + RESULTS_MS + NEXT_MS;
    runSteps(state, [
      { at: START + 1, cmd: TICK, effects: [], phase: "question", questionIndex: 0, deadline: START + 20_000 },
      { at: START + 19_999, cmd: TICK, effects: [], phase: "question", deadline: START + 20_000 },
      { at: START + 20_000, cmd: TICK, effects: ["questionClosed"], phase: "results", deadline: START + 23_000 },
      { at: START + 22_999, cmd: TICK, effects: [], phase: "results", deadline: START + 23_000 },
      { at: START + 23_000, cmd: TICK, effects: ["leaderboardShown"], phase: "leaderboard", deadline: START + 28_000 },
      { at: START + 27_999, cmd: TICK, effects: [], phase: "leaderboard" },
      { at: Q1, cmd: TICK, effects: ["questionStarted"], phase: "question", questionIndex: 1, deadline: Q1 + 20_000 },
      { at: Q1 + 20_000, cmd: TICK, effects: ["questionClosed"], phase: "results", deadline: Q1 + 23_000 },
      { at: Q1 + 23_000, cmd: TICK, effects: ["leaderboardShown"], phase: "leaderboard", deadline: Q2 },
      { at: Q2, cmd: TICK, effects: ["questionStarted"], phase: "question", questionIndex: 2, deadline: Q2 + 20_000 },
      { at: Q2 + 20_000, cmd: TICK, effects: ["questionClosed"], phase: "results" },
      { at: Q2 + 23_000, cmd: TICK, effects: ["leaderboardShown"], phase: "leaderboard", deadline: END },
      { at: END - 1, cmd: TICK, effects: [], phase: "leaderboard" },
      { at: END, cmd: TICK, effects: ["gameOver"], phase: "finished", questionIndex: 2, deadline: null },
      { at: END + 60_000, cmd: TICK, effects: [], phase: "finished", deadline: null },
    ]);
    expect(state.questionStartedAt).toBe(Q2);
  });

  it("times the results from the moment the question closed early", () => {
    const state = startedWith(["Alice"]);
    runSteps(state, [
      { at: START + 4000, cmd: answerCmd(1, 1), effects: ["answerAccepted", "questionClosed"], deadline: START + 7000 },
      // The old question deadline no longer matters.
      { at: START + 6999, cmd: TICK, effects: [], phase: "results" },
      { at: START + 7000, cmd: TICK, effects: ["leaderboardShown"], phase: "leaderboard", deadline: START + 12_000 },
      { at: START + 12_000, cmd: TICK, effects: ["questionStarted"], phase: "question", questionIndex: 1, deadline: START + 32_000 },
    ]);
    expect(state.questionStartedAt).toBe(START + 12_000);
  });

  it("a late tick uses its own time as the start of the next phase", () => {
    const state = startedWith(["Alice"]);
    runSteps(state, [{ at: START + 25_000, cmd: TICK, effects: ["questionClosed"], deadline: START + 28_000 }]);
  });

  it("resets the per-question counters for the next question", () => {
    const state = startedWith(["Alice", "Bob"]);
    ok(state, answerCmd(1, 1), START + 1000);
    ok(state, answerCmd(2, 3), START + 1000);
    expect(state.answerCounts).toEqual([0, 1, 0, 1]);
    ok(state, TICK, START + 4000);
    ok(state, TICK, START + 9000);
    expect(state.phase).toBe("question");
    expect(state.questionIndex).toBe(1);
    expect(state.answerCounts).toEqual([0, 0, 0, 0]);
    expect(state.answeredCount).toBe(0);
    expect(state.pendingAnswers).toBe(2);
    // And answering is possible again.
    expect(types(ok(state, answerCmd(1, 2), START + 9500))).toEqual(["answerAccepted"]);
  });
});

// ------------------------------------------------------------------ next

describe("next", () => {
  it("moves one step per press: question -> results -> leaderboard -> next question -> ... -> game over", () => {
    const state = lobbyWith(["Alice", "Bob"]);
    const notHost = "Only the host can move to the next question.";
    runSteps(state, [
      { at: T0 + 500, cmd: NEXT_CMD, error: "NOTHING_TO_ADVANCE", message: "There is no question to move on from.", phase: "lobby" },
      { at: START, cmd: START_CMD, effects: ["gameStarted", "questionStarted"], phase: "question" },
      { at: START + 100, cmd: { type: "next", actor: asPlayer(1) }, error: "NOT_HOST", message: notHost, phase: "question" },
      { at: START + 1000, cmd: NEXT_CMD, effects: ["questionClosed"], phase: "results", deadline: START + 4000 },
      { at: START + 1100, cmd: { type: "next", actor: asPlayer(2) }, error: "NOT_HOST", message: notHost, phase: "results" },
      { at: START + 2000, cmd: NEXT_CMD, effects: ["leaderboardShown"], phase: "leaderboard", deadline: START + 7000 },
      { at: START + 2100, cmd: { type: "next", actor: GUEST }, error: "NOT_HOST", message: notHost, phase: "leaderboard" },
      {
        at: START + 3000,
        cmd: NEXT_CMD,
        effects: ["questionStarted"],
        phase: "question",
        questionIndex: 1,
        deadline: START + 23_000,
      },
      { at: START + 4000, cmd: NEXT_CMD, effects: ["questionClosed"], phase: "results", questionIndex: 1 },
      { at: START + 5000, cmd: NEXT_CMD, effects: ["leaderboardShown"], phase: "leaderboard" },
      { at: START + 6000, cmd: NEXT_CMD, effects: ["questionStarted"], phase: "question", questionIndex: 2 },
      { at: START + 7000, cmd: NEXT_CMD, effects: ["questionClosed"], phase: "results" },
      { at: START + 8000, cmd: NEXT_CMD, effects: ["leaderboardShown"], phase: "leaderboard" },
      { at: START + 9000, cmd: NEXT_CMD, effects: ["gameOver"], phase: "finished", deadline: null },
      { at: START + 9500, cmd: { type: "next", actor: asPlayer(1) }, error: "NOT_HOST", phase: "finished" },
      { at: START + 10_000, cmd: NEXT_CMD, error: "NOTHING_TO_ADVANCE", phase: "finished", deadline: null },
    ]);
  });

  it.each(["lobby", "question", "results", "leaderboard", "finished"] as const)("a rejected next in phase %s changes nothing", (phase) => {
    const state = lobbyWith(["Alice", "Bob"]);
    if (phase !== "lobby") {
      ok(state, START_CMD, START);
      advanceTo(state, phase, START + 1000);
    }
    const before = structuredClone(state);
    expect(rejected(state, { type: "next", actor: asPlayer(1) }, START + 2000).code).toBe("NOT_HOST");
    expect(state).toEqual(before);
  });

  it("a skipped question scores nothing for players who did not answer", () => {
    const state = startedWith(["Alice", "Bob"]);
    ok(state, answerCmd(1, 1), START + 1000);
    expect(types(ok(state, NEXT_CMD, START + 2000))).toEqual(["questionClosed"]);
    expect(state.players.get(1)!.score).toBe(975);
    expect(state.players.get(2)!.score).toBe(0);
    expect(state.players.get(1)!.rank).toBe(1);
    expect(state.players.get(2)!.rank).toBe(2);
  });
});

// ------------------------------------------------------------------ leave / disconnect

describe("leave and disconnect", () => {
  it("leave removes a player from the lobby and frees the nickname", () => {
    const state = lobbyWith(["Alice", "Bob"]);
    const bob = state.players.get(2)!;
    const effects = ok(state, { type: "leave", playerId: 2 }, T0 + 100);
    expect(effects).toEqual([{ type: "playerLeft", player: bob }]);
    expect(state.players.size).toBe(1);
    expect(state.players.has(2)).toBe(false);
    expect(state.playersByClientId.has("client-2")).toBe(false);
    expect(state.playersByNickname.has("bob")).toBe(false);
    expect(state.connectedCount).toBe(1);
    // The nickname is free again; the new player gets a new id.
    const [joined] = ok(state, joinCmd("client-9", "BOB"), T0 + 200);
    expect(joined).toMatchObject({ type: "playerJoined", rejoined: false, player: { id: 3, nickname: "BOB" } });
  });

  it("leave of a disconnected lobby player does not decrement the connected count twice", () => {
    const state = lobbyWith(["Alice", "Bob"]);
    ok(state, { type: "disconnect", playerId: 2 }, T0 + 100);
    expect(state.connectedCount).toBe(1);
    ok(state, { type: "leave", playerId: 2 }, T0 + 200);
    expect(state.connectedCount).toBe(1);
    expect(state.players.size).toBe(1);
  });

  it("leave of an unknown player does nothing", () => {
    const state = lobbyWith(["Alice"]);
    const before = structuredClone(state);
    expect(ok(state, { type: "leave", playerId: 42 }, T0 + 100)).toEqual([]);
    expect(state).toEqual(before);
  });

  it.each(["question", "results", "leaderboard", "finished"] as const)("leave does not remove a player in phase %s", (phase) => {
    const state = startedWith(["Alice", "Bob"]);
    ok(state, answerCmd(2, 1), START + 1000);
    advanceTo(state, phase, START + 2000);
    const before = structuredClone(state);
    expect(ok(state, { type: "leave", playerId: 2 }, START + 3000)).toEqual([]);
    expect(state).toEqual(before);
    expect(state.players.get(2)).toMatchObject({ nickname: "Bob", score: 975 });
  });

  it.each(["lobby", "question", "results", "leaderboard", "finished"] as const)("disconnect in phase %s keeps the player and its score", (phase) => {
    const state = lobbyWith(["Alice", "Bob"]);
    if (phase !== "lobby") {
      ok(state, START_CMD, START);
      ok(state, answerCmd(2, 1), START + 1000);
      advanceTo(state, phase, START + 2000);
    }
    const connectedBefore = state.connectedCount;
    const scoreBefore = state.players.get(2)!.score;
    ok(state, { type: "disconnect", playerId: 2 }, START + 3000);
    expect(state.players.size).toBe(2);
    expect(state.players.get(2)).toMatchObject({ connected: false, nickname: "Bob", score: scoreBefore });
    expect(state.playersByClientId.get("client-2")).toBe(state.players.get(2));
    expect(state.connectedCount).toBe(connectedBefore - 1);
  });

  it("a repeated or unknown disconnect is a no-op", () => {
    const state = lobbyWith(["Alice", "Bob"]);
    ok(state, { type: "disconnect", playerId: 2 }, T0 + 100);
    const before = structuredClone(state);
    expect(ok(state, { type: "disconnect", playerId: 2 }, T0 + 200)).toEqual([]);
    expect(ok(state, { type: "disconnect", playerId: 77 }, T0 + 300)).toEqual([]);
    expect(state).toEqual(before);
    expect(state.connectedCount).toBe(1);
  });
});

// ------------------------------------------------------------------ late join

describe("late join", () => {
  it.each([
    { joinAfter: 5000, answerAfter: 6000, responseTimeMs: 1000, points: 975 },
    { joinAfter: 5000, answerAfter: 5200, responseTimeMs: 200, points: 1000 },
    { joinAfter: 1000, answerAfter: 11_000, responseTimeMs: 10_000, points: 750 },
    { joinAfter: 15_000, answerAfter: 19_999, responseTimeMs: 4999, points: 875 },
  ])(
    "a player joining $joinAfter ms into the question and answering at $answerAfter ms is timed from its join",
    ({ joinAfter, answerAfter, responseTimeMs, points }) => {
      const state = startedWith(["Alice", "Bob"]);
      const [joined] = ok(state, joinCmd("late-client", "Latecomer"), START + joinAfter);
      expect(joined).toMatchObject({ type: "playerJoined", rejoined: false, player: { id: 3, joinedAt: START + joinAfter } });
      const [accepted] = ok(state, answerCmd(3, 1), START + answerAfter);
      expect(accepted).toMatchObject({ answer: { responseTimeMs, points } });
      // Players who were there from the start are timed from the question start.
      const [early] = ok(state, answerCmd(1, 1), START + answerAfter);
      expect(early).toMatchObject({ answer: { responseTimeMs: answerAfter } });
    },
  );

  it("a late joiner is waited for before the question closes early", () => {
    const state = startedWith(["Alice"]);
    runSteps(state, [
      { at: START + 1000, cmd: joinCmd("late", "Bob"), effects: ["playerJoined"] },
      { at: START + 2000, cmd: answerCmd(1, 1), effects: ["answerAccepted"], phase: "question" },
      { at: START + 3000, cmd: answerCmd(2, 1), effects: ["answerAccepted", "questionClosed"], phase: "results" },
    ]);
    expect(state.pendingAnswers).toBe(0);
  });

  it("a late joiner enters the standings at the bottom, sharing the rank of other 0-point players", () => {
    const state = startedWith(["Alice"]);
    ok(state, answerCmd(1, 1), START + 1000); // Alice 975, question closes
    expect(state.phase).toBe("results");
    ok(state, joinCmd("late-1", "Bob"), START + 1500);
    ok(state, joinCmd("late-2", "Carol"), START + 1600);
    expect(state.ranking.map((p) => [p.nickname, p.rank])).toEqual([
      ["Alice", 1],
      ["Bob", 2],
      ["Carol", 2],
    ]);
    expect(state.pendingAnswers).toBe(0);
  });

  it("a player joining between questions is timed from the next question's start", () => {
    const state = startedWith(["Alice"]);
    ok(state, NEXT_CMD, START + 1000); // results
    ok(state, joinCmd("late", "Bob"), START + 1500);
    ok(state, NEXT_CMD, START + 2000); // leaderboard
    ok(state, NEXT_CMD, START + 3000); // question 2
    expect(state.pendingAnswers).toBe(2);
    const [accepted] = ok(state, answerCmd(2, 2), START + 5000);
    expect(accepted).toMatchObject({ answer: { responseTimeMs: 2000, correct: true, points: 950 } });
  });

  it("a late joiner during the first question starts at rank 1 with everybody else", () => {
    const state = startedWith(["Alice"]);
    ok(state, joinCmd("late", "Bob"), START + 1000);
    expect(state.players.get(2)!.rank).toBe(1);
    expect(state.ranking.map((p) => p.id)).toEqual([1, 2]);
  });
});

// ------------------------------------------------------------------ views

describe("views", () => {
  const nicknames = (n: number) => Array.from({ length: n }, (_, i) => `P${String(i + 1).padStart(3, "0")}`);

  describe("questionView", () => {
    it.each([0, 1, 2])("never reveals the right answer (question index %i)", (index) => {
      const state = startedWith(["Alice"]);
      let now = START;
      for (let i = 0; i < index; i++) {
        for (let press = 0; press < 3; press++) ok(state, NEXT_CMD, (now += 1000)); // results, leaderboard, question
      }
      expect(state.phase).toBe("question");
      expect(state.questionIndex).toBe(index);
      const view = questionView(state, now + 123);
      const question = QUESTIONS[index];
      expect(view).toEqual({
        question: { id: question.id, kind: "choice", text: question.text, answers: question.answers, points: "standard", image: null, imageOnPlayers: false },
        questionNumber: index + 1,
        totalQuestions: 3,
        timeLimit: 20,
        endsAt: now + 20_000,
        serverNow: now + 123,
      });
      expect(JSON.stringify(view).toLowerCase()).not.toContain("correct");
      expect(Object.keys(view.question).sort()).toEqual(["answers", "id", "image", "imageOnPlayers", "kind", "points", "text"]);
    });
  });

  describe("leaderboardView", () => {
    it("lists at most 10 players, best first, and flags only the last question's leaderboard", () => {
      const state = startedWith(nicknames(15));
      // Player i answers right (i * 500) ms in, so a lower id means a higher score.
      for (let id = 1; id <= 15; id++) ok(state, answerCmd(id, 1), START + id * 500);
      expect(state.phase).toBe("results");
      const isLast: boolean[] = [];
      for (let q = 0; q < 3; q++) {
        if (state.phase === "question") ok(state, NEXT_CMD, START + 100_000 * q);
        ok(state, NEXT_CMD, START + 100_000 * q + 1); // leaderboard
        expect(state.phase).toBe("leaderboard");
        const view = leaderboardView(state);
        expect(view.players).toHaveLength(10);
        expect(view.players.map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        expect(view.players.map((p) => p.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        expect(view.players[0]).toEqual({ rank: 1, id: 1, nickname: "P001", score: 988 });
        expect(view).toMatchObject({ nextQuestionIn: 5, questionNumber: q + 1, totalQuestions: 3, playerCount: 15 });
        isLast.push(view.isLastLeaderboard);
        ok(state, NEXT_CMD, START + 100_000 * q + 2); // next question / game over
      }
      expect(isLast).toEqual([false, false, true]);
      expect(state.phase).toBe("finished");
      const over = gameOverView(state);
      expect(over.players).toHaveLength(10);
      expect(over.playerCount).toBe(15);
    });

    it("lists everyone when there are fewer than 10 players", () => {
      const state = startedWith(["Alice", "Bob", "Carol"]);
      advanceTo(state, "leaderboard", START + 1000);
      expect(leaderboardView(state).players.map((p) => p.nickname)).toEqual(["Alice", "Bob", "Carol"]);
    });
  });

  describe("playerResultView", () => {
    it("for a player who did not answer: answerIndex null, 0 points, responseTimeMs null", () => {
      const state = startedWith(["Alice", "Bob"]);
      ok(state, answerCmd(1, 1), START + 1000);
      ok(state, NEXT_CMD, START + 2000);
      expect(playerResultView(state, state.players.get(2)!)).toEqual({
        playerId: 2,
        nickname: "Bob",
        answerIndex: null,
        value: null,
        correct: false,
        points: 0,
        responseTimeMs: null,
        score: 0,
        streak: 0,
        rank: 2,
      });
      expect(playerResultView(state, state.players.get(1)!)).toEqual({
        playerId: 1,
        nickname: "Alice",
        answerIndex: 1,
        value: null,
        correct: true,
        points: 975,
        responseTimeMs: 1000,
        score: 975,
        streak: 1,
        rank: 1,
      });
    });

    it("does not show the previous question's answer as the current one", () => {
      const state = startedWith(["Alice", "Bob"]);
      ok(state, answerCmd(1, 1), START + 1000);
      ok(state, answerCmd(2, 1), START + 1000);
      advanceTo(state, "question", START + 2000);
      ok(state, NEXT_CMD, START + 3000); // question 2 closes unanswered
      expect(playerResultView(state, state.players.get(1)!)).toMatchObject({
        answerIndex: null,
        points: 0,
        responseTimeMs: null,
        correct: false,
        score: 975,
        streak: 0,
      });
    });
  });

  describe("results and progress headers", () => {
    it("carry the counts; only the results header has the right answer", () => {
      const state = startedWith(["Alice", "Bob", "Carol"]);
      ok(state, answerCmd(1, 1), START + 1000);
      ok(state, answerCmd(2, 3), START + 1000);
      const progress = answerProgressView(state);
      expect(progress).toEqual({ questionNumber: 1, answeredCount: 2, playerCount: 3, answerCounts: [0, 1, 0, 1] });
      expect(JSON.stringify(progress).toLowerCase()).not.toContain("correct");
      progress.answerCounts[0] = 99; // a copy, not the live array
      expect(state.answerCounts).toEqual([0, 1, 0, 1]);
      ok(state, NEXT_CMD, START + 2000);
      expect(resultsHeaderView(state)).toEqual({
        questionNumber: 1,
        kind: "choice",
        correctAnswerIndex: 1,
        correctAnswerIndexes: [1],
        acceptedAnswers: [],
        correctNumber: null,
        numberSpread: null,
        answeredCount: 2,
        answerCounts: [0, 1, 0, 1],
      });
    });
  });

  describe("lobbyView", () => {
    it.each([
      { joined: 0, shown: [] as number[] },
      { joined: 3, shown: [1, 2, 3] },
      { joined: 50, shown: Array.from({ length: 50 }, (_, i) => i + 1) },
      { joined: 51, shown: Array.from({ length: 50 }, (_, i) => i + 2) },
      { joined: 60, shown: Array.from({ length: 50 }, (_, i) => i + 11) },
      { joined: 101, shown: Array.from({ length: 50 }, (_, i) => i + 52) },
      { joined: 250, shown: Array.from({ length: 50 }, (_, i) => i + 201) },
    ])("with $joined players shows the $shown.length most recent and the full count", ({ joined, shown }) => {
      const state = lobbyWith(nicknames(joined));
      const view = lobbyView(state);
      expect(view.playerCount).toBe(joined);
      expect(view.players.length).toBeLessThanOrEqual(50);
      expect(view.players.map((p) => p.nickname)).toEqual(shown.map((id) => nicknames(id).at(-1)));
      // Names alone: a display sees this list, and holds no player's id (issue 17).
      if (joined > 0) expect(view.players.at(-1)).toEqual({ nickname: nicknames(joined).at(-1) });
    });

    it("drops players who left", () => {
      const state = lobbyWith(["Alice", "Bob", "Carol"]);
      ok(state, { type: "leave", playerId: 2 }, T0 + 100);
      expect(lobbyView(state)).toEqual({
        playerCount: 2,
        players: [{ nickname: "Alice" }, { nickname: "Carol" }],
      });
    });

    // Regression: the recent-names list once kept only a window of joiners, so after many joins
    // and leaves two lobbies with the same players showed different lists.
    it("depends only on who is in the lobby, not on how many joined before", () => {
      const lobbyAfter = (joined: number) => {
        const state = lobbyWith(nicknames(joined));
        for (let id = 60; id <= joined; id++) ok(state, { type: "leave", playerId: id }, T0 + 100_000);
        return state;
      };
      const hundred = lobbyAfter(100); // players 1..59 remain
      const hundredAndOne = lobbyAfter(101); // players 1..59 remain
      expect([...hundredAndOne.players.keys()]).toEqual([...hundred.players.keys()]);
      expect(lobbyView(hundred).players.map((p) => p.nickname)).toEqual(nicknames(59).slice(9));
      expect(lobbyView(hundredAndOne)).toEqual(lobbyView(hundred));
    });

    it("lists a rejoining player only once", () => {
      const state = lobbyWith(["Alice", "Bob"]);
      ok(state, { type: "disconnect", playerId: 1 }, T0 + 100);
      ok(state, joinCmd("client-1", "Alice"), T0 + 200);
      expect(lobbyView(state).players.map((p) => p.nickname)).toEqual(["Alice", "Bob"]);
    });
  });

  describe("snapshotView", () => {
    it.each([
      { count: 3, playerSees: 3 },
      { count: 50, playerSees: 50 },
      { count: 60, playerSees: 50 },
      { count: 130, playerSees: 50 },
    ])("with $count players: a player sees $playerSees, the host sees all", ({ count, playerSees }) => {
      const state = lobbyWith(nicknames(count));
      const me = state.players.get(1)!;
      const forPlayer = snapshotView(state, { role: "player", player: me });
      const forHost = snapshotView(state, { role: "host" });
      expect(forPlayer.players).toHaveLength(playerSees);
      expect(forPlayer.playerCount).toBe(count);
      expect(forHost.players).toHaveLength(count);
      expect(forHost.players.map((p) => p.id)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      expect(forHost.playerCount).toBe(count);
      expect(forPlayer).toMatchObject({ role: "player", playerId: 1, phase: "lobby", questionNumber: 0 });
      expect(forHost).toMatchObject({
        gameCode: "ABC234",
        title: "T",
        role: "host",
        playerId: null,
        phase: "lobby",
        questionNumber: 0,
        totalQuestions: 3,
        timeLimit: 20,
      });
    });

    it("reflects the current question during the game", () => {
      const state = startedWith(["Alice", "Bob"]);
      ok(state, NEXT_CMD, START + 1000);
      expect(snapshotView(state, { role: "host" })).toMatchObject({ phase: "results", questionNumber: 1 });
      expect(JSON.stringify(snapshotView(state, { role: "host" })).toLowerCase()).not.toContain("correct");
    });
  });
});

describe("reserved host nickname", () => {
  it.each(["__HOST__", "__host__", "__Host__", " __HOST__ "])("refuses %j as a player's nickname", (nickname) => {
    const state = createGameState({ gameCode: "ABC234", title: "T", timeLimitSeconds: 20, questions: [] });
    const result = transition(state, { type: "join", clientId: "c1", nickname }, 1000);
    expect(result).toEqual({ error: { code: "NICKNAME_RESERVED", key: "NICKNAME_RESERVED", message: "Only the host of this game can join as host." } });
    expect(state.players.size).toBe(0);
  });
});

// ------------------------------------------------------------------ moderation: kick, lock, cap

describe("kick", () => {
  const kickCmd = (playerId: number, actor: Actor = HOST): Command => ({ type: "kick", actor, playerId });

  it("removes a lobby player for good: the same browser cannot join again, under any name", () => {
    const state = lobbyWith(["Ann", "Bob"]);
    const bob = byName(state, "Bob");
    expect(types(ok(state, kickCmd(bob.id), T0 + 100))).toEqual(["playerKicked"]);
    expect(state.players.has(bob.id)).toBe(false);
    expect(state.connectedCount).toBe(1);
    expect(rejected(state, joinCmd("client-2", "Bob"), T0 + 200)).toEqual({
      code: "KICKED",
      key: "KICKED",
      message: "You were removed from this game by the host.",
    });
    expect(rejected(state, joinCmd("client-2", "Robert"), T0 + 200).code).toBe("KICKED");
    // The name is free again for someone else.
    expect(types(ok(state, joinCmd("client-9", "Bob"), T0 + 300))).toEqual(["playerJoined"]);
  });

  it("is for the host only, and for players still in the game", () => {
    const state = lobbyWith(["Ann", "Bob"]);
    const bob = byName(state, "Bob");
    expect(rejected(state, kickCmd(bob.id, asPlayer(byName(state, "Ann").id)), T0).message).toBe("Only the host can remove players.");
    expect(rejected(state, kickCmd(bob.id, GUEST), T0).code).toBe("NOT_HOST");
    expect(rejected(state, kickCmd(999), T0).message).toBe("That player is no longer in the game.");
  });

  it("mid-question takes the player's answer out of the counts and closes the question when the rest have answered", () => {
    const state = startedWith(["Ann", "Bob", "Cat"]);
    const [ann, bob, cat] = ["Ann", "Bob", "Cat"].map((name) => byName(state, name));
    ok(state, answerCmd(ann.id, 1), START + 1000);
    ok(state, answerCmd(bob.id, 0), START + 1500);
    expect(state.answerCounts).toEqual([1, 1, 0, 0]);
    // Bob answered and is removed: his vote goes; Cat has not answered, so the question stays open.
    expect(types(ok(state, kickCmd(bob.id), START + 2000))).toEqual(["playerKicked"]);
    expect(state.answeredCount).toBe(1);
    expect(state.answerCounts).toEqual([0, 1, 0, 0]);
    expect(state.ranking).not.toContain(bob);
    // Cat has not answered: removing her leaves only answered players, so the question closes.
    expect(types(ok(state, kickCmd(cat.id), START + 2500))).toEqual(["playerKicked", "questionClosed"]);
    expect(state.phase).toBe("results");
    expect([...state.players.values()].map((player) => player.nickname)).toEqual(["Ann"]);
  });
});

describe("lock", () => {
  const lockCmd = (locked: boolean, actor: Actor = HOST): Command => ({ type: "lock", actor, locked });

  it("closes the game to new players while those already in may rejoin", () => {
    const state = lobbyWith(["Ann"]);
    expect(types(ok(state, lockCmd(true), T0 + 100))).toEqual(["lobbyLocked"]);
    expect(state.locked).toBe(true);
    expect(rejected(state, joinCmd("client-7", "Zed"), T0 + 200)).toEqual({
      code: "LOBBY_LOCKED",
      key: "LOBBY_LOCKED",
      message: "The host has locked this game, so no new players can join.",
    });
    ok(state, { type: "disconnect", playerId: byName(state, "Ann").id }, T0 + 300);
    expect(types(ok(state, joinCmd("client-1", "Ann"), T0 + 400))).toEqual(["playerJoined"]);
    // Locking twice changes nothing; unlocking opens the door again.
    expect(ok(state, lockCmd(true), T0 + 500)).toEqual([]);
    expect(types(ok(state, lockCmd(false), T0 + 600))).toEqual(["lobbyLocked"]);
    expect(types(ok(state, joinCmd("client-7", "Zed"), T0 + 700))).toEqual(["playerJoined"]);
  });

  it("is for the host only", () => {
    const state = lobbyWith(["Ann"]);
    expect(rejected(state, lockCmd(true, asPlayer(byName(state, "Ann").id)), T0).message).toBe("Only the host can lock or unlock the game.");
  });
});

describe("player cap", () => {
  it("refuses a new player once the game is full, but not a returning one", () => {
    const state = createGameState({ gameCode: "ABC234", title: "T", timeLimitSeconds: 20, questions: QUESTIONS, settings: { maxPlayers: 2 } });
    ok(state, joinCmd("client-1", "Ann"), T0);
    ok(state, joinCmd("client-2", "Bob"), T0 + 1);
    expect(rejected(state, joinCmd("client-3", "Cat"), T0 + 2)).toEqual({
      code: "GAME_FULL",
      key: "GAME_FULL",
      message: "This game is full. Ask the host to open another one.",
    });
    ok(state, { type: "disconnect", playerId: byName(state, "Bob").id }, T0 + 3);
    expect(types(ok(state, joinCmd("client-2", "Bob"), T0 + 4))).toEqual(["playerJoined"]);
  });
});
