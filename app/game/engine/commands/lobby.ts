import { isOffensive } from "#app/schemas/profanity";
import { HOST_NICKNAME } from "../../rules";
import { assignTeam, findOrAddTeam, placeTeamless, rankTeams, smallestTeam, type TeamRefusal } from "../teams";
import { answerToCurrentQuestion, teamKey, teamOf, addPlayer, nicknameKey, removePlayer, type GameState, type PlayerState, type TeamState } from "../state";
import { type Actor, type Effect, type TransitionResult, reject } from "../transition";
import { startQuestion, countAnswer, closeIfEveryoneAnswered } from "./question";

export function join(state: GameState, clientId: string, rawNickname: string, now: number, teamName?: string): TransitionResult {
  if (state.kickedClientIds.has(clientId)) return reject("KICKED");
  const returning = state.playersByClientId.get(clientId);
  if (returning) {
    if (!returning.connected) {
      returning.connected = true;
      state.connectedCount++;
      // Back after a restore: already counted in pendingAnswers as awaited (restore.ts).
      const awaited = state.awaitingReturn.delete(returning.id);
      if (!awaited && state.phase === "question" && !answerToCurrentQuestion(state, returning)) state.pendingAnswers++;
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
  if (state.phase === "finished") return reject("GAME_OVER");
  const nickname = rawNickname.trim();
  const key = nicknameKey(nickname);
  if (key === nicknameKey(HOST_NICKNAME)) return reject("NICKNAME_RESERVED");
  if (state.playersByNickname.has(key)) return reject("NICKNAME_TAKEN");
  if (isOffensive(nickname)) return reject("NICKNAME_NOT_ALLOWED");
  if (state.locked) return reject("LOBBY_LOCKED");
  if (state.players.size >= state.settings.maxPlayers) return reject("GAME_FULL");
  const team = state.teamMode ? teamForNewcomer(state, teamName) : null;
  if (typeof team === "string") return reject(team);

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

export function disconnect(state: GameState, playerId: number, now: number): TransitionResult {
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
export function leave(state: GameState, playerId: number): TransitionResult {
  const player = state.players.get(playerId);
  if (!player || state.phase !== "lobby") return { effects: [] };
  const team = teamOf(state, player);
  assignTeam(state, player, null);
  removePlayer(state, player);
  if (player.connected) state.connectedCount--;
  return { effects: [{ type: "playerLeft", player }, ...(team && state.teamMode ? [{ type: "teamsChanged" as const, players: [] }] : [])] };
}

export function start(state: GameState, actor: Actor, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST");
  if (state.phase !== "lobby") return reject("ALREADY_STARTED");
  if (state.players.size === 0) return reject("NO_PLAYERS");
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

/**
 * The host removes a player for good, in any phase: it leaves the game and the standings (its
 * answers with it), and its browser cannot join this game again.
 */
export function kick(state: GameState, actor: Actor, playerId: number, now: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", "NOT_HOST_KICK");
  const player = state.players.get(playerId);
  if (!player) return reject("UNKNOWN_PLAYER", "PLAYER_GONE");
  const answered = state.phase === "question" ? answerToCurrentQuestion(state, player) : null;
  state.kickedClientIds.add(player.clientId);
  // Its team keeps what it added to the team's score; the team is one member smaller from now on.
  const team = teamOf(state, player);
  assignTeam(state, player, null);
  removePlayer(state, player);
  if (player.connected) {
    state.connectedCount--;
    if (state.phase === "question" && !answered) state.pendingAnswers--;
  } else if (state.awaitingReturn.delete(player.id) && state.phase === "question") state.pendingAnswers--;
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
export function lock(state: GameState, actor: Actor, locked: boolean): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", "NOT_HOST_LOCK");
  if (state.locked === locked) return { effects: [] };
  state.locked = locked;
  return { effects: [{ type: "lobbyLocked", locked }] };
}

export function picturesOnPlayers(state: GameState, actor: Actor, enabled: boolean): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", "NOT_HOST_PICTURES");
  if (state.picturesOnPlayers === enabled) return { effects: [] };
  state.picturesOnPlayers = enabled;
  return { effects: [{ type: "picturesOnPlayersChanged", enabled }] };
}
