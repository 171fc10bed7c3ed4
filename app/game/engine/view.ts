/**
 * What each role may see of a game. Players never see the correct answer before the reveal,
 * nor other players' picks; payloads that go to everyone are built once.
 */
import { kindOf } from "../kinds";
import { revealOf } from "../kinds/shared";
import { LEADERBOARD_SIZE } from "../rules";
import type { ServerPayload } from "../protocol";
import type { LobbyName, NamedStanding, OwnStanding, PlayerResult, RoundInfo, Standing, TeamRef, TypedAnswerSummary } from "../protocol-views";
import { shownScore, teamStandings } from "./teams";
import { answerToCurrentQuestion, currentQuestion, isLastQuestion, isNight, teamOf, recentPlayers, type GameState, type PlayerState } from "./state";
import { currentPause, remainingMsOf, timeLimitMsOf } from "./clock";

/** A player as hosts know it: its id (to remove it) and its name. */
export function playerRef(player: PlayerState) {
  return { id: player.id, nickname: player.nickname };
}

/**
 * A player on the lobby's list of newest names, as players and displays see it: the name alone.
 * A display shows only what the projector shows, no player's id (issue 17); a player highlights
 * itself by its name, which is unique in its game.
 */
export function lobbyName(player: PlayerState): LobbyName {
  return { nickname: player.nickname };
}

/** The lobby's newest names: one message for every player and display, whatever the game's size. */
export function lobbyView(state: GameState): ServerPayload<"LOBBY_UPDATE"> {
  return { playerCount: state.players.size, players: recentPlayers(state).map(lobbyName) };
}

/** Who looks at a game: its host (every player), a display (what the projector shows), or a player (itself). */
export type Viewer = { role: "host" } | { role: "display" } | { role: "player"; player: PlayerState };

export function snapshotView(state: GameState, viewer: Viewer): ServerPayload<"GAME_SNAPSHOT"> {
  // A display, like a player, gets the newest names without ids, never every player: thousands of
  // players cost it nothing. A host gets every player with its id.
  const players = viewer.role === "host" ? [...state.players.values()].map(playerRef) : recentPlayers(state).map(lobbyName);
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
    players,
    locked: state.locked,
    picturesOnPlayers: state.picturesOnPlayers,
    ...(state.teamMode ? { teamMode: true, teams: teamRefs(state) } : {}),
    ...(viewer.role === "player" && state.teamMode ? { teamId: viewer.player.teamId } : {}),
    ...roundPart(state),
  };
}

/** The teams and their sizes; at most MAX_TEAMS of them, so every screen may have them all. */
export function teamRefs(state: GameState): TeamRef[] {
  return [...state.teams.values()].map((team) => ({ id: team.id, name: team.name, members: team.members }));
}

export function teamsView(state: GameState): ServerPayload<"TEAMS_UPDATE"> {
  return { teamMode: state.teamMode, teams: teamRefs(state) };
}

/** A night's current round, for the payloads that carry it; nothing for a single game. */
export function roundInfo(state: GameState): RoundInfo | null {
  if (!isNight(state)) return null;
  return { number: state.round + 1, total: state.rounds.length, title: state.rounds[state.round]?.title ?? state.title };
}

function roundPart(state: GameState): { round?: RoundInfo } {
  const round = roundInfo(state);
  return round ? { round } : {};
}

/** The top teams by the evening's score (all of them on the podium screen). */
export function topTeams(state: GameState, size = LEADERBOARD_SIZE): NamedStanding[] {
  return teamStandings(state.teams.values(), (team) => team.score, size);
}

/** What everyone sees of a question while it is open: never what is right. */
export function publicQuestion(state: GameState): ServerPayload<"QUESTION_STARTED">["question"] {
  const question = currentQuestion(state)!;
  return {
    id: question.id,
    kind: question.kind,
    text: question.text,
    answers: kindOf(question.kind).hasOptions ? question.answers : [],
    points: question.points ?? "standard",
    image: question.imageId ?? null,
    imageOnPlayers: state.picturesOnPlayers,
  };
}

export function questionView(state: GameState, serverNow: number): ServerPayload<"QUESTION_STARTED"> {
  return {
    question: publicQuestion(state),
    questionNumber: state.questionIndex + 1,
    totalQuestions: state.questions.length,
    timeLimit: timeLimitMsOf(state, state.questionIndex) / 1000,
    endsAt: state.questionEndsAt,
    serverNow,
    ...(currentPause(state) ? { pausedRemainingMs: remainingMsOf(state, serverNow) } : {}),
    ...roundPart(state),
  };
}

export function questionPausedView(state: GameState): ServerPayload<"QUESTION_PAUSED"> {
  const pause = currentPause(state)!;
  return { questionNumber: state.questionIndex + 1, remainingMs: remainingMsOf(state, pause.from) };
}

/**
 * As of the resume itself (the last pause's end), not of the moment the message leaves after its
 * commit: the time left is exactly what the pause kept, and `endsAt - serverNow` says the same.
 */
export function questionResumedView(state: GameState): ServerPayload<"QUESTION_RESUMED"> {
  const resumedAt = state.questionPauses.at(-1)?.to ?? state.questionEndsAt;
  return { questionNumber: state.questionIndex + 1, remainingMs: remainingMsOf(state, resumedAt), endsAt: state.questionEndsAt, serverNow: resumedAt };
}

export function answerProgressView(state: GameState): ServerPayload<"ANSWER_PROGRESS"> {
  return {
    questionNumber: state.questionIndex + 1,
    answeredCount: state.answeredCount,
    playerCount: state.players.size,
    answerCounts: [...state.answerCounts],
  };
}

/**
 * A display's live count: how many answered, not what they picked. Anyone in the room can open the
 * display's link, and the picks so far would tell a player which answer the room favours.
 */
export function displayProgressView(state: GameState): ServerPayload<"ANSWER_PROGRESS"> {
  return { questionNumber: state.questionIndex + 1, answeredCount: state.answeredCount, playerCount: state.players.size, answerCounts: [] };
}

export function playerResultView(state: GameState, player: PlayerState): PlayerResult {
  const answer = answerToCurrentQuestion(state, player);
  return {
    playerId: player.id,
    nickname: player.nickname,
    answerIndex: answer && answer.answerIndex >= 0 ? answer.answerIndex : null,
    value: answer ? answer.value : null,
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
  const question = currentQuestion(state)!;
  return {
    questionNumber: state.questionIndex + 1,
    kind: question.kind,
    ...revealOf(kindOf(question.kind).rightAnswer, question),
    numberSpread: state.numberSpread,
    answeredCount: state.answeredCount,
    answerCounts: [...state.answerCounts],
  };
}

/** How many typed answers the host's reveal lists, most common first. */
export const TYPED_ANSWERS_SHOWN = 100;

/** The host's view of a typed question's answers: each distinct one with its count, most typed first. */
export function typedAnswersView(state: GameState): TypedAnswerSummary[] {
  return [...state.typedAnswers.values()]
    .sort((a, b) => b.count - a.count || a.text.localeCompare(b.text))
    .slice(0, TYPED_ANSWERS_SHOWN)
    .map(({ text, count, correct }) => ({ text, count, correct }));
}

export function topStandings(state: GameState): Standing[] {
  return state.ranking.slice(0, LEADERBOARD_SIZE).map((player) => ({ rank: player.rank, id: player.id, nickname: player.nickname, score: player.score }));
}

/** A player's own place and, in team mode, its team's place and what the player added to it. */
export function ownStanding(state: GameState, player: PlayerState): OwnStanding {
  const team = state.teamMode ? teamOf(state, player) : null;
  if (!team) return { rank: player.rank, score: player.score };
  return {
    rank: player.rank,
    score: player.score,
    team: { id: team.id, name: team.name, rank: team.rank, score: shownScore(team.score), contribution: shownScore(player.teamPoints) },
  };
}

/** LEADERBOARD_UPDATE without `you`, the one part that differs per player. */
export function leaderboardView(state: GameState): ServerPayload<"LEADERBOARD_UPDATE"> {
  return {
    // Fetched while the leaderboard is up, so the next question's picture shows at once.
    nextImage: state.questions[state.questionIndex + 1]?.imageId ?? null,
    players: topStandings(state),
    isLastLeaderboard: isLastQuestion(state),
    nextQuestionIn: state.settings.nextQuestionSeconds,
    questionNumber: state.questionIndex + 1,
    totalQuestions: state.questions.length,
    playerCount: state.players.size,
    ...(state.teamMode ? { teams: topTeams(state) } : {}),
    ...roundPart(state),
  };
}

/** GAME_OVER without `you`: for a night, the evening's totals and each round's own standings. */
export function gameOverView(state: GameState): ServerPayload<"GAME_OVER"> {
  return {
    players: topStandings(state),
    playerCount: state.players.size,
    ...(state.teamMode ? { teams: topTeams(state, Number.MAX_SAFE_INTEGER) } : {}),
    ...(isNight(state) ? { rounds: state.roundResults } : {}),
  };
}

/** ROUND_OVER without `you`: the break, with the running total. */
export function roundOverView(state: GameState, serverNow: number): ServerPayload<"ROUND_OVER"> {
  return {
    round: roundInfo(state)!,
    nextRoundTitle: state.rounds[state.round + 1]?.title ?? "",
    players: topStandings(state),
    ...(state.teamMode ? { teams: topTeams(state, Number.MAX_SAFE_INTEGER) } : {}),
    rounds: state.roundResults,
    playerCount: state.players.size,
    breakEndsAt: state.breakEndsAt,
    serverNow,
  };
}

export function breakTimerView(state: GameState, serverNow: number): ServerPayload<"BREAK_TIMER"> {
  return { breakEndsAt: state.breakEndsAt, serverNow };
}
