import { describe, expect, it } from "vitest";
import { gameReducer, initialGameState, screenFor, timeLeftMs, type ClientGameState, type GameAction } from "#app/game/client/game-state";
import { reconnectDelay, RECONNECT_MAX_DELAY_MS } from "#app/game/client/socket";
import type { ServerMessage } from "#app/game/protocol";

const server = (message: ServerMessage, receivedAt = 1_000): GameAction => ({ type: "server", message, receivedAt });
const run = (actions: GameAction[], from: ClientGameState = initialGameState) => actions.reduce(gameReducer, from);

const joinAsPlayer: GameAction[] = [
  { type: "joining", gameCode: "ABC234", nickname: "Ann", isHost: false },
  server({ type: "PLAYER_JOINED", payload: { player: { id: 7, nickname: "Ann" } } }),
  server({
    type: "GAME_SNAPSHOT",
    payload: {
      gameCode: "ABC234",
      title: "Quiz",
      role: "player",
      playerId: 7,
      phase: "lobby",
      questionNumber: 0,
      totalQuestions: 3,
      timeLimit: 20,
      playerCount: 1,
      players: [{ nickname: "Ann" }],
    },
  }),
];

const question: ServerMessage = {
  type: "QUESTION_STARTED",
  payload: {
    question: { id: 1, kind: "choice", text: "Q1", answers: ["a", "b", "c", "d"], points: "standard", image: null, imageOnPlayers: false },
    questionNumber: 1,
    totalQuestions: 3,
    timeLimit: 20,
    endsAt: 25_000,
    serverNow: 5_000,
  },
};

describe("client game state (docs/product.md#client-state)", () => {
  it("learns its player id from its own PLAYER_JOINED and lands in the lobby", () => {
    const state = run(joinAsPlayer);
    expect(state).toMatchObject({ gameCode: "ABC234", playerId: 7, isHost: false, joining: false, phase: "lobby", playerCount: 1 });
    expect(screenFor(state)).toBe("/waiting/ABC234");
  });

  it("keeps the lobby's names without ids for a player, and every player with its id for a host (issue 17)", () => {
    const lobby = server({ type: "LOBBY_UPDATE", payload: { playerCount: 3, players: [{ nickname: "Ann" }, { nickname: "Bob" }, { nickname: "Cat" }] } });
    const player = run([...joinAsPlayer, lobby]);
    expect(player).toMatchObject({ playerId: 7, nickname: "Ann", playerCount: 3, players: [{ nickname: "Ann" }, { nickname: "Bob" }, { nickname: "Cat" }] });
    // Its own join told again (a rejoin) is the same entry, matched by name.
    expect(run([server({ type: "PLAYER_JOINED", payload: { player: { id: 7, nickname: "Ann" } } })], player).players).toHaveLength(3);

    const host = run([
      { type: "joining", gameCode: "ABC234", nickname: "__HOST__", isHost: true },
      server({
        type: "GAME_SNAPSHOT",
        payload: {
          gameCode: "ABC234",
          title: "Quiz",
          role: "host",
          playerId: null,
          phase: "lobby",
          questionNumber: 0,
          totalQuestions: 3,
          timeLimit: 20,
          playerCount: 1,
          players: [{ id: 7, nickname: "Ann" }],
        },
      }),
      server({ type: "PLAYER_JOINED", payload: { player: { id: 8, nickname: "Bob" } } }),
      server({ type: "PLAYER_LEFT", payload: { playerId: 7 } }),
    ]);
    expect(host).toMatchObject({ playerCount: 1, players: [{ id: 8, nickname: "Bob" }] });
  });

  it("clears the join and keeps the reason when the server refuses it", () => {
    const state = run([
      { type: "joining", gameCode: "ABC234", nickname: "Ann", isHost: false },
      server({ type: "ERROR", payload: { message: "Nickname already taken" } }),
    ]);
    expect(state.gameCode).toBeNull();
    expect(state.joinError).toBe("Nickname already taken");
    expect(state.joinErrorValues).toBeNull();
    expect(screenFor(state)).toBeNull();
  });

  it("sends players to /play and the host to /host on QUESTION_STARTED, clearing the selection", () => {
    const player = run([...joinAsPlayer, { type: "answerSubmitting", answerIndex: 2 }, server(question, 4_000)]);
    expect(player).toMatchObject({ isQuestionActive: true, questionNumber: 1, totalQuestions: 3, selectedAnswerIndex: null, answerStatus: "idle" });
    expect(screenFor(player)).toBe("/play/ABC234");
    expect(screenFor({ ...player, isHost: true })).toBe("/host/ABC234");
  });

  it("syncs the countdown to the server clock, not the local one", () => {
    const state = run([...joinAsPlayer, server(question, 4_000)]);
    // The local clock is 1 s behind the server: 20 s from the server's 5 s mark is 19 s from local 5 s.
    expect(state.clockOffsetMs).toBe(1_000);
    expect(timeLeftMs(state, 5_000)).toBe(19_000);
    expect(timeLeftMs(state, 30_000)).toBe(0);
  });

  it("holds the countdown while the host pauses, and runs it again from the kept time on resume", () => {
    const started = run([...joinAsPlayer, server(question, 5_000)]);
    const paused = gameReducer(started, server({ type: "QUESTION_PAUSED", payload: { questionNumber: 1, remainingMs: 16_000 } }, 9_000));
    expect(paused.pausedRemainingMs).toBe(16_000);
    expect(timeLeftMs(paused, 9_000)).toBe(16_000);
    expect(timeLeftMs(paused, 60_000)).toBe(16_000);
    // A pause of another question (a late message) changes nothing.
    expect(gameReducer(started, server({ type: "QUESTION_PAUSED", payload: { questionNumber: 2, remainingMs: 1 } })).pausedRemainingMs).toBeNull();
    // An answer refused because of the pause can be given again once it is over.
    const refused = run([{ type: "answerSubmitting", answerIndex: 1 }, server({ type: "ERROR", payload: { message: "paused", code: "PAUSED" } })], paused);
    expect(refused.answerStatus).toBe("error");
    const resumed = gameReducer(
      refused,
      server({ type: "QUESTION_RESUMED", payload: { questionNumber: 1, remainingMs: 16_000, endsAt: 61_000, serverNow: 45_000 } }, 44_000),
    );
    expect(resumed).toMatchObject({ pausedRemainingMs: null, endsAt: 61_000, clockOffsetMs: 1_000, answerStatus: "idle", answerErrorCode: null });
    expect(timeLeftMs(resumed, 44_000)).toBe(16_000);
  });

  it("opens a question that was paused when this client (re)joined as paused", () => {
    const state = run([...joinAsPlayer, server({ ...question, payload: { ...question.payload, pausedRemainingMs: 7_000 } } as ServerMessage)]);
    expect(state).toMatchObject({ isQuestionActive: true, pausedRemainingMs: 7_000 });
    expect(timeLeftMs(state, 99_000)).toBe(7_000);
    expect(run([server(question)], state).pausedRemainingMs).toBeNull();
  });

  it("tracks submitting, success and error for an answer", () => {
    const submitting = run([...joinAsPlayer, server(question), { type: "answerSubmitting", answerIndex: 1 }]);
    expect(submitting).toMatchObject({ answerStatus: "submitting", selectedAnswerIndex: 1 });
    const accepted = gameReducer(submitting, server({ type: "ANSWER_ACCEPTED", payload: { questionNumber: 1, answerIndex: 1 } }));
    expect(accepted.answerStatus).toBe("success");
    const refused = gameReducer(submitting, server({ type: "ERROR", payload: { message: "This question is closed." } }));
    expect(refused).toMatchObject({ answerStatus: "error", answerError: "This question is closed." });
    // A refusal with values keeps them, for the screen to say it in the page's language.
    const quoted = { message: "Unknown message type: FOO.", code: "BAD_MESSAGE", values: { type: "FOO" } };
    expect(gameReducer(submitting, server({ type: "ERROR", payload: quoted }))).toMatchObject({
      answerStatus: "error",
      answerError: quoted.message,
      answerErrorCode: "BAD_MESSAGE",
      answerErrorValues: { type: "FOO" },
    });
  });

  it("shows results on /result for players, then the leaderboard, then the podium", () => {
    const results = run([
      ...joinAsPlayer,
      server(question),
      server({
        type: "ANSWER_RESULTS",
        payload: {
          questionNumber: 1,
          kind: "choice",
          correctAnswerIndex: 2,
          correctAnswerIndexes: [2],
          acceptedAnswers: [],
          correctNumber: null,
          numberSpread: null,
          answerCounts: [0, 0, 1, 0],
          playerResults: [{ playerId: 7, nickname: "Ann", answerIndex: 2, correct: true, points: 950, responseTimeMs: 1200, score: 950, streak: 1, rank: 1 }],
        },
      }),
    ]);
    expect(results).toMatchObject({ isQuestionActive: false, isShowingResults: true, correctAnswerIndex: 2, selectedAnswerIndex: 2 });
    expect(screenFor(results)).toBe("/result/ABC234");
    const board = gameReducer(
      results,
      server(
        {
          type: "LEADERBOARD_UPDATE",
          payload: {
            players: [{ rank: 1, id: 7, nickname: "Ann", score: 950 }],
            isLastLeaderboard: false,
            nextQuestionIn: 5,
            questionNumber: 1,
            totalQuestions: 3,
            playerCount: 1,
            you: { rank: 1, score: 950 },
          },
        },
        9_000,
      ),
    );
    expect(board).toMatchObject({ myStanding: { rank: 1, score: 950 }, nextQuestionIn: 5, leaderboardShownAt: 9_000 });
    expect(screenFor(board)).toBe("/leaderboard/ABC234");
    const over = gameReducer(
      board,
      server({ type: "GAME_OVER", payload: { players: [{ rank: 1, id: 7, nickname: "Ann", score: 950 }], playerCount: 1, you: { rank: 1, score: 950 } } }),
    );
    expect(over.isGameOver).toBe(true);
    expect(screenFor(over)).toBe("/results/ABC234");
  });

  it("returns to the lobby on Play Again's snapshot with fresh scores", () => {
    const over = run([
      ...joinAsPlayer,
      server(question),
      server({ type: "GAME_OVER", payload: { players: [], playerCount: 1, you: { rank: 1, score: 900 } } }),
    ]);
    const again = gameReducer(
      over,
      server({
        type: "GAME_SNAPSHOT",
        payload: {
          gameCode: "ABC234",
          title: "Quiz",
          role: "player",
          playerId: 7,
          phase: "lobby",
          questionNumber: 0,
          totalQuestions: 3,
          timeLimit: 20,
          playerCount: 1,
          players: [{ id: 7, nickname: "Ann" }],
        },
      }),
    );
    expect(again).toMatchObject({ isGameOver: false, myStanding: null, playerId: 7, nickname: "Ann", phase: "lobby" });
    expect(screenFor(again)).toBe("/waiting/ABC234");
  });

  it("does not proceed on a zero-question GAME_STARTED", () => {
    const state = run([...joinAsPlayer, server({ type: "GAME_STARTED", payload: { questionCount: 0 } })]);
    expect(screenFor(state)).toBe("/waiting/ABC234");
  });

  it("resets everything", () => {
    expect(run([...joinAsPlayer, { type: "reset" }])).toEqual(initialGameState);
  });

  it("stays out of a game it has left, or left for another, when that game's snapshot was already on its way", () => {
    const [joining, joined, snapshot] = joinAsPlayer;
    // Leave pressed before the join's answer came: no screen pulls the browser back into the lobby.
    const left = run([joining, { type: "reset" }, joined, snapshot]);
    expect(screenFor(left)).toBeNull();
    expect(left.gameCode).toBeNull();
    // Left for another game: the old game's snapshot does not stand in for the new one's.
    const elsewhere = run([joining, { type: "joining", gameCode: "XYZ789", nickname: "Ann", isHost: false }, snapshot]);
    expect(elsewhere.joining).toBe(true);
    expect(elsewhere.gameCode).toBe("XYZ789");
    expect(screenFor(elsewhere)).toBeNull();
  });
});

describe("reconnect delay (docs/product.md#reconnection)", () => {
  it.each([
    [0, 1500],
    [1, 2250],
    [2, 3375],
    [3, 5063],
    [4, 7594],
    [5, 10_000],
    [9, 10_000],
  ])("attempt %i waits about %i ms (1500 ms x 1.5^n, capped at 10 s)", (attempt, base) => {
    expect(reconnectDelay(attempt, () => 0.5)).toBe(base);
    expect(reconnectDelay(attempt, () => 0)).toBe(Math.round(base * 0.8));
    expect(reconnectDelay(attempt, () => 1)).toBeLessThanOrEqual(Math.round(Math.min(base, RECONNECT_MAX_DELAY_MS) * 1.2));
  });
});
