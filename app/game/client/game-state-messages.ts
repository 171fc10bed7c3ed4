import type { ServerMessage } from "../protocol";
import type { LobbyPlayer, PlayerRef } from "../protocol-views";
import { type ClientGameState, initialGameState, isFinalError } from "./game-state";

function upsertPlayer(players: LobbyPlayer[], player: PlayerRef): LobbyPlayer[] {
  // A name without an id (a player's list) is the same player: nicknames are unique in a game.
  const index = players.findIndex((existing) => (existing.id === undefined ? existing.nickname === player.nickname : existing.id === player.id));
  if (index === -1) return [...players, player];
  const copy = players.slice();
  copy[index] = player;
  return copy;
}

export function onServerMessage(state: ClientGameState, message: ServerMessage, receivedAt: number): ClientGameState {
  switch (message.type) {
    case "ERROR": {
      const { message: text, code = null, key = null, values = null } = message.payload;
      // Removed by the host, or the game is gone: out of it for good.
      if (isFinalError(message.payload.code) || state.joining)
        return { ...initialGameState, clockOffsetMs: state.clockOffsetMs, joinError: text, joinErrorCode: code, joinErrorKey: key, joinErrorValues: values };
      if (state.answerStatus === "submitting")
        return { ...state, answerStatus: "error", answerError: text, answerErrorCode: code, answerErrorKey: key, answerErrorValues: values };
      return state;
    }
    case "PLAYER_JOINED": {
      const { player } = message.payload;
      // A player learns its id from the PLAYER_JOINED for its own nickname (docs/product.md#client-state).
      const isMe = !state.isHost && state.joining && player.nickname.toLowerCase() === state.nickname?.trim().toLowerCase();
      const players = upsertPlayer(state.players, player);
      return {
        ...state,
        players,
        playerCount: Math.max(state.playerCount, players.length),
        ...(isMe ? { playerId: player.id, nickname: player.nickname } : {}),
      };
    }
    case "PLAYER_LEFT": {
      const players = state.players.filter((player) => player.id !== message.payload.playerId);
      return { ...state, players, playerCount: Math.max(0, state.playerCount - 1) };
    }
    case "LOBBY_UPDATE":
      return { ...state, players: message.payload.players, playerCount: message.payload.playerCount };
    case "GAME_SNAPSHOT": {
      const snapshot = message.payload;
      // Only the game this browser is in or joining: one it has left (Leave pressed before the join's
      // answer came) or left for another must not pull it back to its screens.
      if (!state.gameCode || state.gameCode.toUpperCase() !== snapshot.gameCode.toUpperCase()) return state;
      const back = snapshot.phase === "lobby";
      return {
        ...(back ? { ...initialGameState, clockOffsetMs: state.clockOffsetMs } : state),
        gameCode: snapshot.gameCode,
        nickname: state.nickname,
        isHost: snapshot.role === "host",
        isDisplay: snapshot.role === "display",
        surface: state.surface,
        playerId: snapshot.playerId,
        joining: false,
        title: snapshot.title,
        phase: snapshot.phase,
        players: snapshot.players,
        playerCount: snapshot.playerCount,
        questionNumber: snapshot.questionNumber,
        totalQuestions: snapshot.totalQuestions,
        timeLimit: snapshot.timeLimit,
        locked: snapshot.locked ?? false,
        picturesOnPlayers: snapshot.picturesOnPlayers ?? false,
        teamMode: snapshot.teamMode ?? false,
        teams: snapshot.teams ?? [],
        myTeamId: snapshot.teamId ?? null,
        round: snapshot.round ?? null,
      };
    }
    case "TEAMS_UPDATE":
      return { ...state, teamMode: message.payload.teamMode, teams: message.payload.teams };
    case "TEAM_CHOSEN":
      return { ...state, myTeamId: message.payload.teamId };
    case "ROUND_OVER": {
      const payload = message.payload;
      return {
        ...state,
        phase: "break",
        round: payload.round,
        nextRoundTitle: payload.nextRoundTitle,
        leaderboard: payload.players,
        teamStandings: payload.teams ?? [],
        roundResults: payload.rounds,
        myStanding: payload.you ?? state.myStanding,
        playerCount: payload.playerCount,
        breakEndsAt: payload.breakEndsAt,
        clockOffsetMs: payload.serverNow - receivedAt,
        isQuestionActive: false,
        isShowingResults: false,
      };
    }
    case "BREAK_TIMER":
      return { ...state, breakEndsAt: message.payload.breakEndsAt, clockOffsetMs: message.payload.serverNow - receivedAt };
    case "LOBBY_LOCKED":
      return { ...state, locked: message.payload.locked };
    case "PICTURES_ON_PLAYERS": {
      const enabled = message.payload.enabled;
      const question = state.currentQuestion ? { ...state.currentQuestion, imageOnPlayers: enabled } : null;
      return { ...state, picturesOnPlayers: enabled, currentQuestion: question };
    }
    case "GAME_STARTED":
      if (message.payload.questionCount === 0) return state;
      return {
        ...state,
        totalQuestions: message.payload.questionCount,
        questionNumber: 0,
        isGameOver: false,
        isShowingResults: false,
        leaderboard: [],
        myStanding: null,
        answerResults: [],
      };
    case "QUESTION_STARTED": {
      const payload = message.payload;
      return {
        ...state,
        phase: "question",
        currentQuestion: payload.question,
        questionNumber: payload.questionNumber,
        totalQuestions: payload.totalQuestions,
        timeLimit: payload.timeLimit,
        endsAt: payload.endsAt,
        clockOffsetMs: payload.serverNow - receivedAt,
        pausedRemainingMs: payload.pausedRemainingMs ?? null,
        correctAnswerIndex: null,
        reveal: null,
        selectedAnswerIndex: null,
        submittedValue: null,
        answerStatus: "idle",
        answerError: null,
        answerErrorCode: null,
        answerErrorKey: null,
        answerErrorValues: null,
        isQuestionActive: true,
        isShowingResults: false,
        isGameOver: false,
        answeredCount: 0,
        answerCounts: new Array<number>(payload.question.answers.length).fill(0),
        answerResults: [],
        picturesOnPlayers: payload.question.imageOnPlayers,
        round: payload.round ?? state.round,
        breakEndsAt: null,
      };
    }
    case "QUESTION_PAUSED":
      if (message.payload.questionNumber !== state.questionNumber) return state;
      return { ...state, pausedRemainingMs: message.payload.remainingMs };
    case "QUESTION_RESUMED": {
      const payload = message.payload;
      if (payload.questionNumber !== state.questionNumber) return state;
      // An answer the pause refused may be given again now.
      const refusedByPause = state.answerStatus === "error" && state.answerErrorCode === "PAUSED";
      return {
        ...state,
        pausedRemainingMs: null,
        endsAt: payload.endsAt,
        clockOffsetMs: payload.serverNow - receivedAt,
        ...(refusedByPause
          ? { answerStatus: "idle", answerError: null, answerErrorCode: null, answerErrorKey: null, selectedAnswerIndex: null, submittedValue: null }
          : {}),
      };
    }
    case "ANSWER_ACCEPTED":
      if (message.payload.questionNumber !== state.questionNumber) return state;
      return {
        ...state,
        selectedAnswerIndex: message.payload.answerIndex ?? null,
        submittedValue: message.payload.value ?? null,
        answerStatus: "success",
        answerError: null,
        answerErrorCode: null,
        answerErrorKey: null,
        answerErrorValues: null,
      };
    case "ANSWER_PROGRESS":
      if (message.payload.questionNumber !== state.questionNumber) return state;
      return {
        ...state,
        answeredCount: message.payload.answeredCount,
        playerCount: message.payload.playerCount,
        answerCounts: message.payload.answerCounts,
      };
    case "ANSWER_RESULTS": {
      const payload = message.payload;
      const mine = payload.playerResults.find((result) => result.playerId === state.playerId);
      return {
        ...state,
        phase: "results",
        currentQuestion: payload.question ?? state.currentQuestion,
        questionNumber: payload.questionNumber,
        correctAnswerIndex: payload.correctAnswerIndex,
        answerCounts: payload.answerCounts,
        reveal: {
          kind: payload.kind,
          correctAnswerIndexes: payload.correctAnswerIndexes,
          acceptedAnswers: payload.acceptedAnswers,
          correctNumber: payload.correctNumber,
          numberSpread: payload.numberSpread,
          typedAnswers: payload.typedAnswers ?? [],
        },
        answeredCount: payload.answeredCount ?? payload.answerCounts.reduce((sum, count) => sum + count, 0),
        answerResults: payload.playerResults,
        selectedAnswerIndex: mine ? mine.answerIndex : state.selectedAnswerIndex,
        submittedValue: mine ? (mine.value ?? null) : state.submittedValue,
        isQuestionActive: false,
        isShowingResults: true,
        pausedRemainingMs: null,
      };
    }
    case "LEADERBOARD_UPDATE": {
      const payload = message.payload;
      return {
        ...state,
        phase: "leaderboard",
        leaderboard: payload.players,
        myStanding: payload.you ?? state.myStanding,
        isLastLeaderboard: payload.isLastLeaderboard,
        nextQuestionIn: payload.nextQuestionIn,
        questionNumber: payload.questionNumber,
        totalQuestions: payload.totalQuestions,
        playerCount: payload.playerCount,
        leaderboardShownAt: receivedAt,
        nextImage: payload.nextImage ?? null,
        teamStandings: payload.teams ?? [],
        round: payload.round ?? state.round,
        isQuestionActive: false,
        isShowingResults: false,
      };
    }
    case "GAME_OVER":
      return {
        ...state,
        phase: "finished",
        leaderboard: message.payload.players,
        myStanding: message.payload.you ?? state.myStanding,
        playerCount: message.payload.playerCount,
        teamStandings: message.payload.teams ?? [],
        roundResults: message.payload.rounds ?? [],
        isGameOver: true,
        isQuestionActive: false,
        isShowingResults: false,
      };
  }
}
