import { isOffensive } from "#app/utils/profanity";
import { OFFENSIVE_NICKNAME } from "#app/utils/validation";
import { HOST_NICKNAME } from "../rules";
import { scoreAnswer } from "./scoring";
import {
  answerToCurrentQuestion,
  currentQuestion,
  isLastQuestion,
  addPlayer,
  nicknameKey,
  removePlayer,
  type AnswerRecord,
  type GameState,
  type PlayerState,
} from "./state";

export type Actor = { role: "host" } | { role: "player"; playerId: number } | { role: "guest" };

export type Command =
  | { type: "join"; clientId: string; nickname: string }
  | { type: "disconnect"; playerId: number }
  | { type: "leave"; playerId: number }
  | { type: "start"; actor: Actor }
  | {
      type: "answer";
      actor: Actor;
      playerId: number;
      answerIndex: number;
      /**
       * When the question was written to this player's socket, if known. A broadcast to thousands of
       * sockets takes a while; the player it reached last is timed from then, not from its start.
       */
      questionDeliveredAt?: number;
    }
  | { type: "next"; actor: Actor }
  | { type: "playAgain"; actor: Actor }
  | { type: "kick"; actor: Actor; playerId: number }
  | { type: "lock"; actor: Actor; locked: boolean }
  | { type: "tick" };

export type Effect =
  | { type: "playerJoined"; player: PlayerState; rejoined: boolean }
  | { type: "playerLeft"; player: PlayerState }
  | { type: "gameStarted"; questionCount: number }
  | { type: "questionStarted" }
  | { type: "answerAccepted"; player: PlayerState; answer: AnswerRecord }
  | { type: "questionClosed"; changedPlayers: PlayerState[] }
  | { type: "leaderboardShown" }
  | { type: "gameOver" }
  | { type: "gameReset" }
  | { type: "playerKicked"; player: PlayerState }
  | { type: "lobbyLocked"; locked: boolean };

export type ErrorCode =
  | "NICKNAME_TAKEN"
  | "NICKNAME_RESERVED"
  | "GAME_OVER"
  | "NOT_HOST"
  | "NO_PLAYERS"
  | "ALREADY_STARTED"
  | "NO_QUESTIONS"
  | "NOT_YOUR_PLAYER"
  | "UNKNOWN_PLAYER"
  | "HOST_CANNOT_ANSWER"
  | "QUESTION_CLOSED"
  | "ALREADY_ANSWERED"
  | "BAD_ANSWER"
  | "NOTHING_TO_ADVANCE"
  | "NOT_OVER"
  | "KICKED"
  | "LOBBY_LOCKED"
  | "GAME_FULL"
  | "NICKNAME_NOT_ALLOWED";

export interface Rejection {
  error: { code: ErrorCode; message: string };
}
export interface Accepted {
  effects: Effect[];
}
export type TransitionResult = Accepted | Rejection;

export const MESSAGES = {
  NICKNAME_TAKEN: "Nickname already taken",
  NICKNAME_RESERVED: "Only the host of this game can join as host.",
  GAME_OVER: "This game has already ended.",
  NOT_HOST: "Only the host can start the game.",
  NOT_HOST_NEXT: "Only the host can move to the next question.",
  NO_PLAYERS: "Wait for players to join before starting the game.",
  ALREADY_STARTED: "The game has already started.",
  NOT_YOUR_PLAYER: "You can only answer for your own player.",
  UNKNOWN_PLAYER: "Player ID is missing!",
  HOST_CANNOT_ANSWER: "The host cannot answer questions.",
  QUESTION_CLOSED: "This question is closed.",
  ALREADY_ANSWERED: "Answer already submitted",
  BAD_ANSWER: "Pick one of the four answers.",
  NOTHING_TO_ADVANCE: "There is no question to move on from.",
  NOT_HOST_PLAY_AGAIN: "Only the host can start another round.",
  NOT_OVER: "Play Again is available once the game is over.",
  KICKED: "You were removed from this game by the host.",
  LOBBY_LOCKED: "The host has locked this game, so no new players can join.",
  GAME_FULL: "This game is full. Ask the host to open another one.",
  NOT_HOST_KICK: "Only the host can remove players.",
  NOT_HOST_LOCK: "Only the host can lock or unlock the game.",
  PLAYER_GONE: "That player is no longer in the game.",
} as const;

function reject(code: ErrorCode, message: string): Rejection {
  return { error: { code, message } };
}

export function isRejection(result: TransitionResult): result is Rejection {
  return "error" in result;
}

/**
 * Applies one command at time `now`. Deterministic and free of I/O: the caller owns clocks,
 * sockets and storage. A rejected command changes nothing.
 */
export function transition(state: GameState, command: Command, now: number): TransitionResult {
  switch (command.type) {
    case "join":
      return join(state, command.clientId, command.nickname, now);
    case "disconnect":
      return disconnect(state, command.playerId, now);
    case "leave":
      return leave(state, command.playerId);
    case "start":
      return start(state, command.actor, now);
    case "answer":
      return answer(state, command, now);
    case "next":
      return next(state, command.actor, now);
    case "playAgain":
      return playAgain(state, command.actor);
    case "kick":
      return kick(state, command.actor, command.playerId, now);
    case "lock":
      return lock(state, command.actor, command.locked);
    case "tick":
      return tick(state, now);
  }
}

function join(state: GameState, clientId: string, rawNickname: string, now: number): TransitionResult {
  if (state.kickedClientIds.has(clientId)) return reject("KICKED", MESSAGES.KICKED);
  const returning = state.playersByClientId.get(clientId);
  if (returning) {
    if (!returning.connected) {
      returning.connected = true;
      state.connectedCount++;
      if (state.phase === "question" && !answerToCurrentQuestion(state, returning)) state.pendingAnswers++;
    }
    return { effects: [{ type: "playerJoined", player: returning, rejoined: true }] };
  }
  if (state.phase === "finished") return reject("GAME_OVER", MESSAGES.GAME_OVER);
  const nickname = rawNickname.trim();
  const key = nicknameKey(nickname);
  if (key === nicknameKey(HOST_NICKNAME)) return reject("NICKNAME_RESERVED", MESSAGES.NICKNAME_RESERVED);
  if (state.playersByNickname.has(key)) return reject("NICKNAME_TAKEN", MESSAGES.NICKNAME_TAKEN);
  if (isOffensive(nickname)) return reject("NICKNAME_NOT_ALLOWED", OFFENSIVE_NICKNAME);
  if (state.locked) return reject("LOBBY_LOCKED", MESSAGES.LOBBY_LOCKED);
  if (state.players.size >= state.settings.maxPlayers) return reject("GAME_FULL", MESSAGES.GAME_FULL);

  const player: PlayerState = {
    id: state.nextPlayerId,
    nickname,
    clientId,
    score: 0,
    streak: 0,
    correctCount: 0,
    connected: true,
    joinedAt: now,
    rank: 0,
    lastAnswer: null,
    joinedBefore: null,
    joinedAfter: null,
  };
  addPlayer(state, player);
  state.connectedCount++;
  if (state.phase === "question") state.pendingAnswers++;
  if (state.phase !== "lobby") placeInRanking(state, player);
  return { effects: [{ type: "playerJoined", player, rejoined: false }] };
}

/** A late joiner enters the standings at the bottom with 0 points. */
function placeInRanking(state: GameState, player: PlayerState): void {
  const last = state.ranking[state.ranking.length - 1];
  player.rank = last && last.score === 0 ? last.rank : state.ranking.length + 1;
  state.ranking.push(player);
}

function disconnect(state: GameState, playerId: number, now: number): TransitionResult {
  const player = state.players.get(playerId);
  if (!player || !player.connected) return { effects: [] };
  player.connected = false;
  state.connectedCount--;
  if (state.phase === "question" && !answerToCurrentQuestion(state, player)) {
    state.pendingAnswers--;
    return { effects: closeIfEveryoneAnswered(state, now) };
  }
  return { effects: [] };
}

/** Removes a player for good; only in the lobby; during a game a player keeps its place and score. */
function leave(state: GameState, playerId: number): TransitionResult {
  const player = state.players.get(playerId);
  if (!player || state.phase !== "lobby") return { effects: [] };
  removePlayer(state, player);
  if (player.connected) state.connectedCount--;
  return { effects: [{ type: "playerLeft", player }] };
}

function start(state: GameState, actor: Actor, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST);
  if (state.phase !== "lobby") return reject("ALREADY_STARTED", MESSAGES.ALREADY_STARTED);
  if (state.players.size === 0) return reject("NO_PLAYERS", MESSAGES.NO_PLAYERS);
  if (state.questions.length === 0) {
    // The spec's Quiz Error: the clients are told, and the game stays in the lobby.
    return { effects: [{ type: "gameStarted", questionCount: 0 }] };
  }
  state.ranking = [...state.players.values()];
  for (const player of state.ranking) player.rank = 1;
  return {
    effects: [{ type: "gameStarted", questionCount: state.questions.length }, ...startQuestion(state, 0, now)],
  };
}

function startQuestion(state: GameState, index: number, now: number): Effect[] {
  state.phase = "question";
  state.questionIndex = index;
  state.questionStartedAt = now;
  state.questionEndsAt = now + state.timeLimitMs;
  state.deadline = state.questionEndsAt;
  state.answeredCount = 0;
  state.answerCounts = [0, 0, 0, 0];
  state.pendingAnswers = state.connectedCount;
  return [{ type: "questionStarted" }];
}

function answer(state: GameState, command: Extract<Command, { type: "answer" }>, now: number): TransitionResult {
  const { actor, playerId, answerIndex } = command;
  if (actor.role === "host") return reject("HOST_CANNOT_ANSWER", MESSAGES.HOST_CANNOT_ANSWER);
  if (actor.role !== "player") return reject("UNKNOWN_PLAYER", MESSAGES.UNKNOWN_PLAYER);
  if (actor.playerId !== playerId) return reject("NOT_YOUR_PLAYER", MESSAGES.NOT_YOUR_PLAYER);
  const player = state.players.get(playerId);
  if (!player) return reject("UNKNOWN_PLAYER", MESSAGES.UNKNOWN_PLAYER);
  if (state.phase !== "question" || now >= state.questionEndsAt) {
    return reject("QUESTION_CLOSED", MESSAGES.QUESTION_CLOSED);
  }
  if (answerToCurrentQuestion(state, player)) return reject("ALREADY_ANSWERED", MESSAGES.ALREADY_ANSWERED);
  const question = currentQuestion(state)!;
  if (!Number.isInteger(answerIndex) || answerIndex < 0 || answerIndex >= question.answers.length) {
    return reject("BAD_ANSWER", MESSAGES.BAD_ANSWER);
  }

  // A player who joined after the question went out, or whom the broadcast reached late, is timed from then.
  const sentAt = Math.max(state.questionStartedAt, player.joinedAt, Math.min(command.questionDeliveredAt ?? 0, now));
  const responseTimeMs = Math.min(Math.max(now - sentAt, 0), state.timeLimitMs);
  const correct = answerIndex === question.correctAnswerIndex;
  const streak = correct ? player.streak + 1 : 0;
  const points = scoreAnswer({ correct, responseTimeMs, timeLimitMs: state.timeLimitMs, streak });
  const record: AnswerRecord = {
    playerId,
    questionId: question.id,
    questionIndex: state.questionIndex,
    answerIndex,
    responseTimeMs,
    correct,
    points,
    answeredAt: now,
  };
  player.lastAnswer = record;
  player.streak = streak;
  player.score += points;
  if (correct) player.correctCount++;
  state.answeredCount++;
  state.answerCounts[answerIndex]++;
  if (player.connected) state.pendingAnswers--;
  return { effects: [{ type: "answerAccepted", player, answer: record }, ...closeIfEveryoneAnswered(state, now)] };
}

function closeIfEveryoneAnswered(state: GameState, now: number): Effect[] {
  if (state.phase !== "question" || state.pendingAnswers > 0 || state.answeredCount === 0) return [];
  return closeQuestion(state, now);
}

function closeQuestion(state: GameState, now: number): Effect[] {
  const changedPlayers: PlayerState[] = [];
  for (const player of state.players.values()) {
    const answered = answerToCurrentQuestion(state, player);
    if (answered) {
      changedPlayers.push(player);
    } else if (player.streak !== 0) {
      player.streak = 0;
      changedPlayers.push(player);
    }
  }
  rank(state);
  state.phase = "results";
  state.deadline = now + state.settings.resultsDelayMs;
  return [{ type: "questionClosed", changedPlayers }];
}

/** Competition ranking ("1, 2, 2, 4"); ties are listed by nickname so every view agrees. */
export function rank(state: GameState): void {
  const ranking = [...state.players.values()].sort(
    (a, b) => b.score - a.score || a.nickname.localeCompare(b.nickname) || a.id - b.id,
  );
  ranking.forEach((player, index) => {
    const previous = ranking[index - 1];
    player.rank = previous && previous.score === player.score ? previous.rank : index + 1;
  });
  state.ranking = ranking;
}

function showLeaderboard(state: GameState, now: number): Effect[] {
  state.phase = "leaderboard";
  state.deadline = now + state.settings.nextQuestionSeconds * 1000;
  return [{ type: "leaderboardShown" }];
}

function advance(state: GameState, now: number): Effect[] {
  if (isLastQuestion(state)) {
    state.phase = "finished";
    state.deadline = null;
    return [{ type: "gameOver" }];
  }
  return startQuestion(state, state.questionIndex + 1, now);
}

/** Ends the current phase early or on time: question -> results -> leaderboard -> next question. */
function step(state: GameState, now: number): Effect[] | null {
  switch (state.phase) {
    case "question":
      return closeQuestion(state, now);
    case "results":
      return showLeaderboard(state, now);
    case "leaderboard":
      return advance(state, now);
    default:
      return null;
  }
}

/** The host's Skip / Next: each press moves one step. */
function next(state: GameState, actor: Actor, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST_NEXT);
  const effects = step(state, now);
  return effects ? { effects } : reject("NOTHING_TO_ADVANCE", MESSAGES.NOTHING_TO_ADVANCE);
}

function tick(state: GameState, now: number): TransitionResult {
  if (state.deadline === null || now < state.deadline) return { effects: [] };
  return { effects: step(state, now) ?? [] };
}

/**
 * The host removes a player for good, in any phase: it leaves the game and the standings (its
 * answers with it), and its browser cannot join this game again.
 */
function kick(state: GameState, actor: Actor, playerId: number, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST_KICK);
  const player = state.players.get(playerId);
  if (!player) return reject("UNKNOWN_PLAYER", MESSAGES.PLAYER_GONE);
  const answered = state.phase === "question" ? answerToCurrentQuestion(state, player) : null;
  state.kickedClientIds.add(player.clientId);
  removePlayer(state, player);
  if (player.connected) {
    state.connectedCount--;
    if (state.phase === "question" && !answered) state.pendingAnswers--;
  }
  if (answered) {
    state.answeredCount--;
    state.answerCounts[answered.answerIndex]--;
  }
  if (state.phase !== "lobby") closeRankGap(state, player);
  return { effects: [{ type: "playerKicked", player }, ...closeIfEveryoneAnswered(state, now)] };
}

/**
 * Takes a removed player out of the standings and renumbers the rest in the same order, ties kept
 * ("1, 1, 3, 4" without its third becomes "1, 1, 3"), without counting points of a question still open.
 */
function closeRankGap(state: GameState, removed: PlayerState): void {
  const ranking = state.ranking.filter((ranked) => ranked !== removed);
  let previousOldRank = 0;
  ranking.forEach((player, index) => {
    const oldRank = player.rank;
    player.rank = index > 0 && oldRank === previousOldRank ? ranking[index - 1].rank : index + 1;
    previousOldRank = oldRank;
  });
  state.ranking = ranking;
}

/** The host closes (or reopens) the game to new players; players already in may still rejoin. */
function lock(state: GameState, actor: Actor, locked: boolean): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST_LOCK);
  if (state.locked === locked) return { effects: [] };
  state.locked = locked;
  return { effects: [{ type: "lobbyLocked", locked }] };
}

/** Play Again: back to the lobby with the same players and fresh scores, for another round. */
function playAgain(state: GameState, actor: Actor): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST_PLAY_AGAIN);
  if (state.phase !== "finished") return reject("NOT_OVER", MESSAGES.NOT_OVER);
  state.round++;
  state.phase = "lobby";
  state.questionIndex = -1;
  state.questionStartedAt = 0;
  state.questionEndsAt = 0;
  state.deadline = null;
  state.answeredCount = 0;
  state.answerCounts = [0, 0, 0, 0];
  state.pendingAnswers = 0;
  state.ranking = [];
  for (const player of state.players.values()) {
    player.score = 0;
    player.streak = 0;
    player.correctCount = 0;
    player.rank = 0;
    player.lastAnswer = null;
  }
  return { effects: [{ type: "gameReset" }] };
}
