/**
 * What each role may see of a game. Players never see the correct answer before the reveal,
 * nor other players' picks; payloads that go to everyone are built once.
 */
import { LEADERBOARD_SIZE } from "../rules";
import type { OwnStanding, PlayerResult, ServerPayload, Standing } from "../protocol";
import {
  answerToCurrentQuestion,
  currentQuestion,
  isLastQuestion,
  recentPlayers,
  type GameState,
  type PlayerState,
} from "./state";

export function playerRef(player: PlayerState) {
  return { id: player.id, nickname: player.nickname };
}

export function lobbyView(state: GameState): ServerPayload<"LOBBY_UPDATE"> {
  return { playerCount: state.players.size, players: recentPlayers(state).map(playerRef) };
}

export function snapshotView(
  state: GameState,
  viewer: { role: "host" } | { role: "player"; player: PlayerState },
): ServerPayload<"GAME_SNAPSHOT"> {
  const players = viewer.role === "host" ? [...state.players.values()] : recentPlayers(state);
  return {
    gameCode: state.gameCode,
    title: state.title,
    role: viewer.role,
    playerId: viewer.role === "player" ? viewer.player.id : null,
    phase: state.phase,
    questionNumber: state.questionIndex + 1,
    totalQuestions: state.questions.length,
    timeLimit: state.timeLimitMs / 1000,
    playerCount: state.players.size,
    players: players.map(playerRef),
    locked: state.locked,
  };
}

export function questionView(state: GameState, serverNow: number): ServerPayload<"QUESTION_STARTED"> {
  const question = currentQuestion(state)!;
  return {
    question: { id: question.id, text: question.text, answers: question.answers },
    questionNumber: state.questionIndex + 1,
    totalQuestions: state.questions.length,
    timeLimit: state.timeLimitMs / 1000,
    endsAt: state.questionEndsAt,
    serverNow,
  };
}

export function answerProgressView(state: GameState): ServerPayload<"ANSWER_PROGRESS"> {
  return {
    questionNumber: state.questionIndex + 1,
    answeredCount: state.answeredCount,
    playerCount: state.players.size,
    answerCounts: [...state.answerCounts],
  };
}

export function playerResultView(state: GameState, player: PlayerState): PlayerResult {
  const answer = answerToCurrentQuestion(state, player);
  return {
    playerId: player.id,
    nickname: player.nickname,
    answerIndex: answer ? answer.answerIndex : null,
    correct: answer?.correct ?? false,
    points: answer?.points ?? 0,
    responseTimeMs: answer ? answer.responseTimeMs : null,
    score: player.score,
    streak: player.streak,
    rank: player.rank,
  };
}

/** ANSWER_RESULTS without `playerResults`: the part every viewer shares. */
export function resultsHeaderView(state: GameState): Omit<ServerPayload<"ANSWER_RESULTS">, "playerResults"> {
  return {
    questionNumber: state.questionIndex + 1,
    correctAnswerIndex: currentQuestion(state)!.correctAnswerIndex,
    answerCounts: [...state.answerCounts],
  };
}

export function topStandings(state: GameState): Standing[] {
  return state.ranking
    .slice(0, LEADERBOARD_SIZE)
    .map((player) => ({ rank: player.rank, id: player.id, nickname: player.nickname, score: player.score }));
}

export function ownStanding(player: PlayerState): OwnStanding {
  return { rank: player.rank, score: player.score };
}

/** LEADERBOARD_UPDATE without `you`, the one part that differs per player. */
export function leaderboardView(state: GameState): ServerPayload<"LEADERBOARD_UPDATE"> {
  return {
    players: topStandings(state),
    isLastLeaderboard: isLastQuestion(state),
    nextQuestionIn: state.settings.nextQuestionSeconds,
    questionNumber: state.questionIndex + 1,
    totalQuestions: state.questions.length,
    playerCount: state.players.size,
  };
}

/** GAME_OVER without `you`. */
export function gameOverView(state: GameState): ServerPayload<"GAME_OVER"> {
  return { players: topStandings(state), playerCount: state.players.size };
}
