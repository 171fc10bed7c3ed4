import { describe, expect, it } from "vitest";
import { readServerMessage, SERVER_MESSAGE_TYPES } from "#app/game/client/server-message";
import { ServerMessageSchema, type ServerMessage, type ServerPayload } from "#app/game/protocol";
import type { PublicQuestion } from "#app/game/protocol-views";

const question: PublicQuestion = { id: 1, kind: "choice", text: "2 + 2?", answers: ["3", "4"], points: "standard", image: null, imageOnPlayers: false };
const standing = { rank: 1, id: 7, nickname: "Ann", score: 950 };

/** One of each message the server sends, as the zod schema of the protocol takes it. */
const MESSAGES: ServerMessage[] = [
  { type: "ERROR", payload: { message: "Game not found", code: "GAME_NOT_FOUND" } },
  { type: "ERROR", payload: { message: "Nickname already taken" } },
  { type: "PLAYER_JOINED", payload: { player: { id: 7, nickname: "Ann" } } },
  { type: "PLAYER_LEFT", payload: { playerId: 7 } },
  { type: "LOBBY_UPDATE", payload: { playerCount: 2, players: [{ nickname: "Ann" }] } },
  {
    type: "GAME_SNAPSHOT",
    payload: {
      gameCode: "ABC234",
      title: "Quiz",
      role: "player",
      playerId: null,
      phase: "lobby",
      questionNumber: 0,
      totalQuestions: 3,
      timeLimit: 20,
      playerCount: 0,
      players: [],
      locked: true,
    },
  },
  { type: "LOBBY_LOCKED", payload: { locked: false } },
  { type: "PICTURES_ON_PLAYERS", payload: { enabled: true } },
  { type: "GAME_STARTED", payload: { questionCount: 3 } },
  { type: "QUESTION_STARTED", payload: { question, questionNumber: 1, totalQuestions: 3, timeLimit: 20, endsAt: 25_000, serverNow: 5_000 } },
  { type: "ANSWER_ACCEPTED", payload: { questionNumber: 1, answerIndex: 1 } },
  { type: "ANSWER_ACCEPTED", payload: { questionNumber: 2, value: [0, 2] } },
  { type: "ANSWER_PROGRESS", payload: { questionNumber: 1, answeredCount: 1, playerCount: 2, answerCounts: [0, 1] } },
  {
    type: "ANSWER_RESULTS",
    payload: {
      questionNumber: 1,
      kind: "closestNumber",
      correctAnswerIndex: -1,
      correctAnswerIndexes: [],
      acceptedAnswers: [],
      correctNumber: 1969,
      numberSpread: { count: 1, min: 1970, max: 1970, median: 1970, buckets: [{ from: 1960, to: 1980, count: 1 }] },
      answeredCount: 1,
      answerCounts: [],
      typedAnswers: [{ text: "1970", count: 1, correct: false }],
      playerResults: [
        { playerId: 7, nickname: "Ann", answerIndex: null, value: 1970, correct: false, points: 900, responseTimeMs: 1200, score: 900, streak: 0, rank: 1 },
      ],
      question: { ...question, kind: "closestNumber", answers: [] },
    },
  },
  {
    type: "LEADERBOARD_UPDATE",
    payload: {
      players: [standing],
      isLastLeaderboard: false,
      nextQuestionIn: 5,
      questionNumber: 1,
      totalQuestions: 3,
      playerCount: 1,
      nextImage: null,
      you: { rank: 1, score: 950 },
    },
  },
  { type: "GAME_OVER", payload: { players: [standing], playerCount: 1 } },
  { type: "ERROR", payload: { message: "Unknown message type: FOO.", code: "BAD_MESSAGE", values: { type: "FOO" } } },
  // The host's snapshot lists every player with its id; a display's (and a player's) the names alone (issue 17).
  {
    type: "GAME_SNAPSHOT",
    payload: { ...snapshotOf("host"), playerCount: 1, players: [{ id: 7, nickname: "Ann" }] },
  },
  {
    type: "GAME_SNAPSHOT",
    payload: { ...snapshotOf("display"), playerCount: 1, players: [{ nickname: "Ann" }] },
  },
];

function snapshotOf(role: "host" | "display"): ServerPayload<"GAME_SNAPSHOT"> {
  return {
    gameCode: "ABC234",
    title: "Quiz",
    role,
    playerId: null,
    phase: "lobby",
    questionNumber: 0,
    totalQuestions: 3,
    timeLimit: 20,
    playerCount: 0,
    players: [],
  };
}

describe("readServerMessage (the browser's check, without zod)", () => {
  it("knows every message type of the protocol", () => {
    const protocolTypes = ServerMessageSchema.options.map((option) => option.shape.type.value);
    expect([...SERVER_MESSAGE_TYPES].sort()).toEqual([...protocolTypes].sort());
  });

  it.each(MESSAGES.map((message) => [message.type, message] as const))("takes a %s the protocol's schema takes", (_type, message) => {
    expect(ServerMessageSchema.safeParse(message).success).toBe(true);
    // As it arrives: decoded from the JSON the server wrote.
    expect(readServerMessage(JSON.parse(JSON.stringify(message)))).toEqual({ ok: true, message });
  });

  it.each([
    ["null", null, "A message must be an object with a type."],
    ["a list", [], "A message must be an object with a type."],
    ["a message without a type", { payload: {} }, "A message must be an object with a type."],
    ["a numeric type", { type: 7, payload: {} }, "A message must be an object with a type."],
    ["an unknown type", { type: "SURPRISE", payload: {} }, "Unknown message type: SURPRISE."],
    ["a client's message", { type: "JOIN_GAME", payload: { gameCode: "ABC234", nickname: "Ann" } }, "Unknown message type: JOIN_GAME."],
    ["a message without a payload", { type: "PLAYER_LEFT" }, "PLAYER_LEFT has an unexpected payload."],
    ["a payload that is a list", { type: "LOBBY_LOCKED", payload: [true] }, "LOBBY_LOCKED has an unexpected payload."],
    ["a missing field", { type: "GAME_STARTED", payload: {} }, "GAME_STARTED has an unexpected payload."],
    ["a field of the wrong kind", { type: "LOBBY_LOCKED", payload: { locked: "yes" } }, "LOBBY_LOCKED has an unexpected payload."],
    ["an unknown phase", { ...MESSAGES[5], payload: { ...MESSAGES[5].payload, phase: "intermission" } }, "GAME_SNAPSHOT has an unexpected payload."],
    ["a player without a nickname", { type: "PLAYER_JOINED", payload: { player: { id: 7 } } }, "PLAYER_JOINED has an unexpected payload."],
    [
      "a lobby name that is not text",
      { type: "LOBBY_UPDATE", payload: { playerCount: 1, players: [{ nickname: 7 }] } },
      "LOBBY_UPDATE has an unexpected payload.",
    ],
    [
      "a question of an unknown kind",
      { type: "QUESTION_STARTED", payload: { ...MESSAGES[9].payload, question: { ...question, kind: "essay" } } },
      "QUESTION_STARTED has an unexpected payload.",
    ],
    [
      "a question whose options are not text",
      { type: "QUESTION_STARTED", payload: { ...MESSAGES[9].payload, question: { ...question, answers: [3, 4] } } },
      "QUESTION_STARTED has an unexpected payload.",
    ],
    ["an optional field of the wrong kind", { type: "ERROR", payload: { message: "No", code: 404 } }, "ERROR has an unexpected payload."],
    ["values that are not text or numbers", { type: "ERROR", payload: { message: "No", values: { type: {} } } }, "ERROR has an unexpected payload."],
    [
      "a standing in a game over without a score",
      { type: "GAME_OVER", payload: { players: [{ rank: 1, id: 7, nickname: "Ann" }], playerCount: 1 } },
      "GAME_OVER has an unexpected payload.",
    ],
  ])("refuses %s", (_name, data, reason) => {
    expect(readServerMessage(data)).toEqual({ ok: false, reason });
  });

  it("cuts a long unknown type in its reason", () => {
    expect(readServerMessage({ type: "X".repeat(500), payload: {} })).toEqual({ ok: false, reason: `Unknown message type: ${"X".repeat(40)}.` });
  });
});
