import { isOffensive } from "#app/utils/profanity";
import { OFFENSIVE_NICKNAME } from "#app/utils/validation";
import { HOST_NICKNAME, LEADERBOARD_SIZE, MAX_BREAK_MINUTES, MAX_PAUSES_PER_QUESTION, TEAM_NAME_MAX_LENGTH } from "../rules";
import { kindOf } from "../kinds";
import type { ReadAnswer as KindReadAnswer } from "../kinds/definition";
import { normalizeTypedAnswer, TYPED_ANSWER_MAX_LENGTH, POINTS_MULTIPLIER } from "../question-kinds";
import { closenessFraction, closenessScale, MAX_POINTS, scoreJudged } from "./scoring";
import {
  addLatePoints,
  assignTeam,
  findOrAddTeam,
  placeTeamless,
  rankedBy,
  rankTeams,
  removeTeam as dropTeam,
  resetTeamScores,
  smallestTeam,
  teamStandings,
  TeamTally,
  type TeamRefusal,
} from "./teams";
import {
  answerToCurrentQuestion,
  currentPause,
  isLastRound,
  isNight,
  teamKey,
  teamOf,
  currentQuestion,
  isLastQuestion,
  addPlayer,
  nicknameKey,
  optionCount,
  pausedMsBefore,
  removePlayer,
  resultsDelayMsOf,
  spreadOf,
  timeLimitMsOf,
  type AnswerRecord,
  type EngineQuestion,
  type GameState,
  type PlayerState,
  type RoundResult,
  type TeamState,
} from "./state";

/**
 * Who sends a command. A display (a screen that watches the game, docs/decisions/0032) is never the
 * host: every host command from one is refused with NOT_HOST, like a player's.
 */
export type Actor = { role: "host" } | { role: "player"; playerId: number } | { role: "display" } | { role: "guest" };

export type Command =
  /** `team`: in team mode, the team to play for, made if it is new (the join form's choice). */
  | { type: "join"; clientId: string; nickname: string; team?: string }
  | { type: "disconnect"; playerId: number }
  | { type: "leave"; playerId: number }
  | { type: "start"; actor: Actor }
  | {
      type: "answer";
      actor: Actor;
      playerId: number;
      /** One of these, as the question's kind needs: an option, several, a text or a number. */
      answerIndex?: number;
      answerIndexes?: number[];
      text?: string;
      number?: number;
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
  /** Host, after a typed question closed: a typed answer marked wrong counts after all. */
  | { type: "acceptTypedAnswer"; actor: Actor; questionNumber: number; text: string }
  | { type: "picturesOnPlayers"; actor: Actor; enabled: boolean }
  /** Host: stops the open question's clock (the projector cable fell out); answers wait for the resume. */
  | { type: "pause"; actor: Actor }
  | { type: "resume"; actor: Actor }
  /** Host: ends the game at once (the night runs late): the open question closes as a Skip would, then the podium. */
  | { type: "end"; actor: Actor }
  /** Host, in the lobby: players play for teams (or no longer do). */
  | { type: "teamMode"; actor: Actor; enabled: boolean }
  /** Host, in the lobby: a team players can pick ("Table 4"). */
  | { type: "addTeam"; actor: Actor; name: string }
  /** Host, in the lobby: a team goes; its members pick another (or are placed at the start). */
  | { type: "removeTeam"; actor: Actor; teamId: number }
  /** Player: plays for the team of that name, made if new; in the lobby, or later while it has none. */
  | { type: "chooseTeam"; actor: Actor; playerId: number; team: string }
  /** Host, during a night's break: "Back in N minutes" (0 takes the countdown away). */
  | { type: "breakTimer"; actor: Actor; minutes: number }
  | { type: "tick" };

export type Effect =
  | { type: "playerJoined"; player: PlayerState; rejoined: boolean }
  | { type: "playerLeft"; player: PlayerState }
  | { type: "gameStarted"; questionCount: number }
  | { type: "questionStarted" }
  | { type: "answerAccepted"; player: PlayerState; answer: AnswerRecord }
  /** `scoredAnswers`: guesses of a closest-number question, whose points are set only now. */
  | { type: "questionClosed"; changedPlayers: PlayerState[]; scoredAnswers: AnswerRecord[] }
  | { type: "leaderboardShown" }
  /** `endedEarly`: the host pressed End game. */
  | { type: "gameOver"; endedEarly?: boolean }
  | { type: "gameReset" }
  | { type: "playerKicked"; player: PlayerState }
  | { type: "lobbyLocked"; locked: boolean }
  | { type: "typedAnswerAccepted"; questionIndex: number; changedPlayers: PlayerState[]; answers: AnswerRecord[] }
  | { type: "picturesOnPlayersChanged"; enabled: boolean }
  | { type: "questionPaused" }
  | { type: "questionResumed" }
  /** Team mode, the teams or who plays for which changed; `players`: those whose team changed. */
  | { type: "teamsChanged"; players: PlayerState[] }
  /** A night's round ended with more to come: the break. */
  | { type: "roundOver" }
  /** The next round of a night begins (its first question follows). */
  | { type: "roundStarted" }
  | { type: "breakTimerSet" };

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
  | "NICKNAME_NOT_ALLOWED"
  | "NOTHING_TO_ACCEPT"
  | "PAUSED"
  | "NOTHING_TO_PAUSE"
  | "TOO_MANY_PAUSES"
  | "NOT_PAUSED"
  | "NOT_STARTED"
  | TeamRefusal
  | "NO_TEAM_MODE"
  | "TEAMS_FIXED"
  | "UNKNOWN_TEAM"
  | "NOT_IN_BREAK"
  | "BAD_BREAK"
  | "NIGHT_OVER";

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
  BAD_PICKS: "Pick one or more of the answers, each once.",
  BAD_TEXT: `Type an answer of at most ${TYPED_ANSWER_MAX_LENGTH} characters.`,
  BAD_NUMBER: "Enter a number.",
  NOT_HOST_ACCEPT: "Only the host can accept an answer.",
  NOTHING_TO_ACCEPT: "There is no typed answer like that to accept on this question.",
  NOT_HOST_PICTURES: "Only the host can choose where pictures are shown.",
  NOTHING_TO_ADVANCE: "There is no question to move on from.",
  NOT_HOST_PLAY_AGAIN: "Only the host can start another round.",
  NOT_OVER: "Play Again is available once the game is over.",
  KICKED: "You were removed from this game by the host.",
  LOBBY_LOCKED: "The host has locked this game, so no new players can join.",
  GAME_FULL: "This game is full. Ask the host to open another one.",
  NOT_HOST_KICK: "Only the host can remove players.",
  NOT_HOST_LOCK: "Only the host can lock or unlock the game.",
  PLAYER_GONE: "That player is no longer in the game.",
  NOT_HOST_PAUSE: "Only the host can pause or resume the question.",
  PAUSED: "The host has paused the question. Answer when it resumes.",
  NOTHING_TO_PAUSE: "There is no running question to pause.",
  TOO_MANY_PAUSES: "This question has been paused too often. Let it run.",
  NOT_PAUSED: "The question is not paused.",
  NOT_HOST_END: "Only the host can end the game.",
  NOT_STARTED: "The game has not started yet.",
  TEAM_NAME: `Give the team a name of 1 to ${TEAM_NAME_MAX_LENGTH} characters.`,
  TEAM_NAME_NOT_ALLOWED: "Please choose a different team name.",
  TOO_MANY_TEAMS: "This game has as many teams as it can take. Join one of them.",
  NOT_HOST_TEAMS: "Only the host can set up the teams.",
  NO_TEAM_MODE: "This game is not played in teams.",
  TEAMS_FIXED: "Teams are fixed once the game has started.",
  UNKNOWN_TEAM: "That team is no longer in the game.",
  NOT_HOST_BREAK: "Only the host can set the break's countdown.",
  NOT_IN_BREAK: "There is no break between rounds right now.",
  BAD_BREAK: `Choose a break of 0 to ${MAX_BREAK_MINUTES} minutes.`,
  NIGHT_OVER: "A night ends with its last round. Plan a new night to play again.",
} as const;

const TEAM_REFUSALS: Record<TeamRefusal, string> = {
  TEAM_NAME: MESSAGES.TEAM_NAME,
  TEAM_NAME_NOT_ALLOWED: MESSAGES.TEAM_NAME_NOT_ALLOWED,
  TOO_MANY_TEAMS: MESSAGES.TOO_MANY_TEAMS,
};

/** "Pick one of the four answers." for a question of `count` options (2 to 6), each a fixed text of the errors catalog. */
const BAD_ANSWER_BY_COUNT: Record<number, string> = {
  2: "Pick one of the two answers.",
  3: "Pick one of the three answers.",
  4: MESSAGES.BAD_ANSWER,
  5: "Pick one of the five answers.",
  6: "Pick one of the six answers.",
};

export function badAnswerMessage(count: number): string {
  return BAD_ANSWER_BY_COUNT[count] ?? MESSAGES.BAD_ANSWER;
}

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
      return join(state, command.clientId, command.nickname, now, command.team);
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
    case "acceptTypedAnswer":
      return acceptTypedAnswer(state, command);
    case "picturesOnPlayers":
      return picturesOnPlayers(state, command.actor, command.enabled);
    case "pause":
      return pause(state, command.actor, now);
    case "resume":
      return resume(state, command.actor, now);
    case "end":
      return end(state, command.actor, now);
    case "teamMode":
      return teamMode(state, command.actor, command.enabled);
    case "addTeam":
      return addTeam(state, command.actor, command.name);
    case "removeTeam":
      return removeTeam(state, command.actor, command.teamId);
    case "chooseTeam":
      return chooseTeam(state, command);
    case "breakTimer":
      return breakTimer(state, command.actor, command.minutes, now);
    case "tick":
      return tick(state, now);
  }
}

function join(state: GameState, clientId: string, rawNickname: string, now: number, teamName?: string): TransitionResult {
  if (state.kickedClientIds.has(clientId)) return reject("KICKED", MESSAGES.KICKED);
  const returning = state.playersByClientId.get(clientId);
  if (returning) {
    if (!returning.connected) {
      returning.connected = true;
      state.connectedCount++;
      if (state.phase === "question" && !answerToCurrentQuestion(state, returning)) state.pendingAnswers++;
    }
    const effects: Effect[] = [{ type: "playerJoined", player: returning, rejoined: true }];
    // A rejoin names the team chosen on the join form; it counts only while the player may still choose.
    if (teamName && state.teamMode && (state.phase === "lobby" || !teamOf(state, returning))) {
      const team = findOrAddTeam(state, teamName);
      if (typeof team !== "string" && teamOf(state, returning) !== team) {
        assignTeam(state, returning, team);
        effects.push({ type: "teamsChanged", players: [returning] });
      }
    }
    return { effects };
  }
  if (state.phase === "finished") return reject("GAME_OVER", MESSAGES.GAME_OVER);
  const nickname = rawNickname.trim();
  const key = nicknameKey(nickname);
  if (key === nicknameKey(HOST_NICKNAME)) return reject("NICKNAME_RESERVED", MESSAGES.NICKNAME_RESERVED);
  if (state.playersByNickname.has(key)) return reject("NICKNAME_TAKEN", MESSAGES.NICKNAME_TAKEN);
  if (isOffensive(nickname)) return reject("NICKNAME_NOT_ALLOWED", OFFENSIVE_NICKNAME);
  if (state.locked) return reject("LOBBY_LOCKED", MESSAGES.LOBBY_LOCKED);
  if (state.players.size >= state.settings.maxPlayers) return reject("GAME_FULL", MESSAGES.GAME_FULL);
  const team = state.teamMode ? teamForNewcomer(state, teamName) : null;
  if (typeof team === "string") return reject(team, TEAM_REFUSALS[team]);

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
    teamId: null,
    roundScore: 0,
    teamPoints: 0,
    joinedBefore: null,
    joinedAfter: null,
  };
  addPlayer(state, player);
  state.connectedCount++;
  if (state.phase === "question") state.pendingAnswers++;
  if (state.phase !== "lobby") placeInRanking(state, player);
  const effects: Effect[] = [{ type: "playerJoined", player, rejoined: false }];
  if (team) {
    assignTeam(state, player, team);
    effects.push({ type: "teamsChanged", players: [player] });
  }
  return { effects };
}

/**
 * The team a new player plays for: the one it named (made if new); in the lobby none yet if it named
 * none (it picks on the waiting screen); once the game runs, the smallest team, or one of its own.
 */
function teamForNewcomer(state: GameState, teamName: string | undefined): TeamState | TeamRefusal | null {
  if (state.phase === "lobby") return teamName ? findOrAddTeam(state, teamName) : null;
  // Once the game runs, a latecomer may join its friends' table, but makes no new team.
  const named = teamName ? state.teamsByName.get(teamKey(teamName)) : undefined;
  return named ?? smallestTeam(state) ?? findOrAddTeam(state, `Team ${state.nextTeamId}`);
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
  const team = teamOf(state, player);
  assignTeam(state, player, null);
  removePlayer(state, player);
  if (player.connected) state.connectedCount--;
  return { effects: [{ type: "playerLeft", player }, ...(team && state.teamMode ? [{ type: "teamsChanged" as const, players: [] }] : [])] };
}

function start(state: GameState, actor: Actor, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST);
  if (state.phase !== "lobby") return reject("ALREADY_STARTED", MESSAGES.ALREADY_STARTED);
  if (state.players.size === 0) return reject("NO_PLAYERS", MESSAGES.NO_PLAYERS);
  if (state.questions.length === 0) {
    // The Quiz Error of docs/product.md#game-flow: the clients are told, and the game stays in the lobby.
    return { effects: [{ type: "gameStarted", questionCount: 0 }] };
  }
  state.ranking = [...state.players.values()];
  for (const player of state.ranking) player.rank = 1;
  const placed: Effect[] = [];
  if (state.teamMode) {
    placed.push({ type: "teamsChanged", players: placeTeamless(state) });
    rankTeams(state);
  }
  return {
    effects: [...placed, { type: "gameStarted", questionCount: state.questions.length }, ...startQuestion(state, 0, now)],
  };
}

function startQuestion(state: GameState, index: number, now: number): Effect[] {
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
  return [{ type: "questionStarted" }];
}

/** A player's answer as the question's kind reads it, or why it is not one. */
type ReadAnswer = KindReadAnswer | { error: Rejection };

function readAnswer(question: EngineQuestion, command: Extract<Command, { type: "answer" }>): ReadAnswer {
  const read = kindOf(question.kind).readAnswer(question, command);
  if (!("refused" in read)) return read;
  const message = read.refused === "BAD_ANSWER" ? badAnswerMessage(question.answers.length) : MESSAGES[read.refused];
  return { error: reject("BAD_ANSWER", message) };
}

/** Polls and closest-number guesses neither build nor break a streak (each kind says). */
export function keepsStreak(question: EngineQuestion): boolean {
  return kindOf(question.kind).keepsStreak;
}

function answer(state: GameState, command: Extract<Command, { type: "answer" }>, now: number): TransitionResult {
  const { actor, playerId } = command;
  if (actor.role === "host") return reject("HOST_CANNOT_ANSWER", MESSAGES.HOST_CANNOT_ANSWER);
  if (actor.role !== "player") return reject("UNKNOWN_PLAYER", MESSAGES.UNKNOWN_PLAYER);
  if (actor.playerId !== playerId) return reject("NOT_YOUR_PLAYER", MESSAGES.NOT_YOUR_PLAYER);
  const player = state.players.get(playerId);
  if (!player) return reject("UNKNOWN_PLAYER", MESSAGES.UNKNOWN_PLAYER);
  if (state.phase !== "question") return reject("QUESTION_CLOSED", MESSAGES.QUESTION_CLOSED);
  if (currentPause(state)) return reject("PAUSED", MESSAGES.PAUSED);
  if (now >= state.questionEndsAt) return reject("QUESTION_CLOSED", MESSAGES.QUESTION_CLOSED);
  if (answerToCurrentQuestion(state, player)) return reject("ALREADY_ANSWERED", MESSAGES.ALREADY_ANSWERED);
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

function closeIfEveryoneAnswered(state: GameState, now: number): Effect[] {
  if (state.phase !== "question" || state.pendingAnswers > 0 || state.answeredCount === 0) return [];
  return closeQuestion(state, now);
}

function closeQuestion(state: GameState, now: number): Effect[] {
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

/** Scores every guess of a closest-number question against the room (docs/decisions/0018-question-kinds.md). */
function scoreGuesses(state: GameState, question: EngineQuestion): AnswerRecord[] {
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

/** Competition ranking ("1, 2, 2, 4"); ties are listed by nickname so every view agrees. */
export function rank(state: GameState): void {
  const ranking = [...state.players.values()].sort((a, b) => b.score - a.score || a.nickname.localeCompare(b.nickname) || a.id - b.id);
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
    if (isNight(state)) state.roundResults.push(roundResult(state));
    state.deadline = null;
    if (isNight(state) && !isLastRound(state)) {
      state.phase = "break";
      state.breakEndsAt = null;
      return [{ type: "roundOver" }];
    }
    state.phase = "finished";
    return [{ type: "gameOver" }];
  }
  return startQuestion(state, state.questionIndex + 1, now);
}

/** The standings of the round just played, by its own points: the top of the players, every team. */
export function roundResult(state: GameState): RoundResult {
  const byRound = rankedBy(
    [...state.players.values()].map((player) => ({ id: player.id, name: player.nickname, rank: 0, score: player.roundScore })),
    (entry) => entry.score,
  ).slice(0, LEADERBOARD_SIZE);
  return {
    title: state.rounds[state.round]?.title ?? state.title,
    players: byRound,
    teams: state.teamMode ? teamStandings(state.teams.values(), (team) => team.roundScore, Number.MAX_SAFE_INTEGER) : [],
  };
}

/** The host's Next during a break: the night's next round, its first question at once. */
function startNextRound(state: GameState, now: number): Effect[] {
  state.round++;
  const plan = state.rounds[state.round];
  state.questions = plan.questions;
  state.timeLimitMs = plan.timeLimitMs;
  state.breakEndsAt = null;
  state.questionIndex = -1;
  // Streaks and the round's points start again; the evening's total carries on.
  for (const player of state.players.values()) {
    player.roundScore = 0;
    player.streak = 0;
    player.lastAnswer = null;
  }
  for (const team of state.teams.values()) team.roundScore = 0;
  return [{ type: "roundStarted" }, ...startQuestion(state, 0, now)];
}

/** "Back in N minutes" on every screen during a break; it tells the room, it starts nothing (the host does). */
function breakTimer(state: GameState, actor: Actor, minutes: number, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST_BREAK);
  if (state.phase !== "break") return reject("NOT_IN_BREAK", MESSAGES.NOT_IN_BREAK);
  if (!Number.isInteger(minutes) || minutes < 0 || minutes > MAX_BREAK_MINUTES) return reject("BAD_BREAK", MESSAGES.BAD_BREAK);
  state.breakEndsAt = minutes === 0 ? null : now + minutes * 60_000;
  return { effects: [{ type: "breakTimerSet" }] };
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

/**
 * End game: from any phase of a started game straight to the podium. An open question is closed and
 * scored first, so the answers already given count; it is not revealed (docs/product.md#game-flow).
 */
function end(state: GameState, actor: Actor, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST_END);
  if (state.phase === "lobby") return reject("NOT_STARTED", MESSAGES.NOT_STARTED);
  if (state.phase === "finished") return reject("GAME_OVER", MESSAGES.GAME_OVER);
  const closed = state.phase === "question" ? closeQuestion(state, now) : [];
  // Ended during a round of a night: that round's standings are kept as far as it went.
  if (isNight(state) && state.phase !== "break") state.roundResults.push(roundResult(state));
  state.breakEndsAt = null;
  state.phase = "finished";
  state.deadline = null;
  return { effects: [...closed, { type: "gameOver", endedEarly: true }] };
}

/** The host's Skip / Next: each press moves one step. */
function next(state: GameState, actor: Actor, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST_NEXT);
  if (state.phase === "break") return { effects: startNextRound(state, now) };
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
  // Its team keeps what it added to the team's score; the team is one member smaller from now on.
  const team = teamOf(state, player);
  assignTeam(state, player, null);
  removePlayer(state, player);
  if (player.connected) {
    state.connectedCount--;
    if (state.phase === "question" && !answered) state.pendingAnswers--;
  }
  if (answered) {
    state.answeredCount--;
    countAnswer(state, answered, undefined, answered.correct, -1);
  }
  if (state.phase !== "lobby") closeRankGap(state, player);
  const teamsChanged: Effect[] = team && state.teamMode ? [{ type: "teamsChanged", players: [] }] : [];
  return { effects: [{ type: "playerKicked", player }, ...teamsChanged, ...closeIfEveryoneAnswered(state, now)] };
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
  if (isNight(state)) return reject("NIGHT_OVER", MESSAGES.NIGHT_OVER);
  state.round++;
  state.phase = "lobby";
  state.questionIndex = -1;
  state.questionStartedAt = 0;
  state.questionEndsAt = 0;
  state.questionPauses = [];
  state.deadline = null;
  state.answeredCount = 0;
  state.answerCounts = [];
  state.typedAnswers = new Map();
  state.pendingAnswers = 0;
  state.ranking = [];
  resetTeamScores(state);
  for (const player of state.players.values()) {
    player.score = 0;
    player.roundScore = 0;
    player.teamPoints = 0;
    player.streak = 0;
    player.correctCount = 0;
    player.rank = 0;
    player.lastAnswer = null;
  }
  return { effects: [{ type: "gameReset" }] };
}

/**
 * The host accepts a typed answer that was marked wrong, while its question is still the current
 * one (its results, the leaderboard after it, or the podium after the last question). Everyone who
 * typed it (as compared, docs/decisions/0018) gets the points of a right answer at their speed,
 * without a streak bonus, and the standings are recomputed.
 */
function acceptTypedAnswer(state: GameState, command: Extract<Command, { type: "acceptTypedAnswer" }>): TransitionResult {
  if (command.actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST_ACCEPT);
  const question = currentQuestion(state);
  const closed = state.phase === "results" || state.phase === "leaderboard" || state.phase === "finished";
  const key = normalizeTypedAnswer(command.text);
  const group = state.typedAnswers.get(key);
  if (!question || !closed || !kindOf(question.kind).typed || command.questionNumber !== state.questionIndex + 1 || !group || group.correct) {
    return reject("NOTHING_TO_ACCEPT", MESSAGES.NOTHING_TO_ACCEPT);
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
function pause(state: GameState, actor: Actor, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST_PAUSE);
  if (state.phase !== "question" || currentPause(state) || now >= state.questionEndsAt) return reject("NOTHING_TO_PAUSE", MESSAGES.NOTHING_TO_PAUSE);
  if (state.questionPauses.length >= MAX_PAUSES_PER_QUESTION) return reject("TOO_MANY_PAUSES", MESSAGES.TOO_MANY_PAUSES);
  state.questionPauses.push({ from: now, to: null, pausedBefore: pausedMsBefore(state, now) });
  state.deadline = null;
  return { effects: [{ type: "questionPaused" }] };
}

/** The question runs again with the time it had left: its end moves by the pause. */
function resume(state: GameState, actor: Actor, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST_PAUSE);
  if (!currentPause(state)) return reject("NOT_PAUSED", MESSAGES.NOT_PAUSED);
  endPause(state, now);
  state.deadline = state.questionEndsAt;
  return { effects: [{ type: "questionResumed" }] };
}

function endPause(state: GameState, now: number): void {
  const pause = currentPause(state)!;
  pause.to = Math.max(now, pause.from);
  state.questionEndsAt += pause.to - pause.from;
}

function picturesOnPlayers(state: GameState, actor: Actor, enabled: boolean): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST_PICTURES);
  if (state.picturesOnPlayers === enabled) return { effects: [] };
  state.picturesOnPlayers = enabled;
  return { effects: [{ type: "picturesOnPlayersChanged", enabled }] };
}

// ------------------------------------------------------------------ teams (docs/decisions/0033-team-scoring.md)

function teamMode(state: GameState, actor: Actor, enabled: boolean): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST_TEAMS);
  if (state.phase !== "lobby") return reject("TEAMS_FIXED", MESSAGES.TEAMS_FIXED);
  if (state.teamMode === enabled) return { effects: [] };
  state.teamMode = enabled;
  return { effects: [{ type: "teamsChanged", players: [] }] };
}

function addTeam(state: GameState, actor: Actor, name: string): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST_TEAMS);
  if (state.phase !== "lobby") return reject("TEAMS_FIXED", MESSAGES.TEAMS_FIXED);
  if (!state.teamMode) return reject("NO_TEAM_MODE", MESSAGES.NO_TEAM_MODE);
  const size = state.teams.size;
  const team = findOrAddTeam(state, name);
  if (typeof team === "string") return reject(team, TEAM_REFUSALS[team]);
  return { effects: state.teams.size === size ? [] : [{ type: "teamsChanged", players: [] }] };
}

function removeTeam(state: GameState, actor: Actor, teamId: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", MESSAGES.NOT_HOST_TEAMS);
  if (state.phase !== "lobby") return reject("TEAMS_FIXED", MESSAGES.TEAMS_FIXED);
  const team = state.teams.get(teamId);
  if (!team) return reject("UNKNOWN_TEAM", MESSAGES.UNKNOWN_TEAM);
  // A host's action in the lobby: a pass over the players is affordable here.
  const moved: PlayerState[] = [];
  for (const player of state.players.values()) {
    if (player.teamId !== teamId) continue;
    assignTeam(state, player, null);
    moved.push(player);
  }
  dropTeam(state, team);
  return { effects: [{ type: "teamsChanged", players: moved }] };
}

function chooseTeam(state: GameState, command: Extract<Command, { type: "chooseTeam" }>): TransitionResult {
  const { actor, playerId } = command;
  if (actor.role !== "player" || actor.playerId !== playerId) return reject("NOT_YOUR_PLAYER", MESSAGES.NOT_YOUR_PLAYER);
  const player = state.players.get(playerId);
  if (!player) return reject("UNKNOWN_PLAYER", MESSAGES.UNKNOWN_PLAYER);
  if (!state.teamMode) return reject("NO_TEAM_MODE", MESSAGES.NO_TEAM_MODE);
  if (state.phase !== "lobby" && teamOf(state, player)) return reject("TEAMS_FIXED", MESSAGES.TEAMS_FIXED);
  const team = findOrAddTeam(state, command.team);
  if (typeof team === "string") return reject(team, TEAM_REFUSALS[team]);
  if (teamOf(state, player) === team) return { effects: [] };
  assignTeam(state, player, team);
  return { effects: [{ type: "teamsChanged", players: [player] }] };
}
