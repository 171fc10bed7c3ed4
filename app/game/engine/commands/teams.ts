import { assignTeam, findOrAddTeam, removeTeam as dropTeam } from "../teams";
import { teamOf, type GameState, type PlayerState } from "../state";
import { type Actor, type Command, type TransitionResult, reject } from "../transition";

export function teamMode(state: GameState, actor: Actor, enabled: boolean): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", "NOT_HOST_TEAMS");
  if (state.phase !== "lobby") return reject("TEAMS_FIXED");
  if (state.teamMode === enabled) return { effects: [] };
  state.teamMode = enabled;
  return { effects: [{ type: "teamsChanged", players: [] }] };
}

export function addTeam(state: GameState, actor: Actor, name: string): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", "NOT_HOST_TEAMS");
  if (state.phase !== "lobby") return reject("TEAMS_FIXED");
  if (!state.teamMode) return reject("NO_TEAM_MODE");
  const size = state.teams.size;
  const team = findOrAddTeam(state, name);
  if (typeof team === "string") return reject(team);
  return { effects: state.teams.size === size ? [] : [{ type: "teamsChanged", players: [] }] };
}

export function removeTeam(state: GameState, actor: Actor, teamId: number): TransitionResult {
  if (actor.role !== "host") return reject("NOT_HOST", "NOT_HOST_TEAMS");
  if (state.phase !== "lobby") return reject("TEAMS_FIXED");
  const team = state.teams.get(teamId);
  if (!team) return reject("UNKNOWN_TEAM");
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

export function chooseTeam(state: GameState, command: Extract<Command, { type: "chooseTeam" }>): TransitionResult {
  const { actor, playerId } = command;
  if (actor.role !== "player" || actor.playerId !== playerId) return reject("NOT_YOUR_PLAYER");
  const player = state.players.get(playerId);
  if (!player) return reject("UNKNOWN_PLAYER");
  if (!state.teamMode) return reject("NO_TEAM_MODE");
  if (state.phase !== "lobby" && teamOf(state, player)) return reject("TEAMS_FIXED");
  const team = findOrAddTeam(state, command.team);
  if (typeof team === "string") return reject(team);
  if (teamOf(state, player) === team) return { effects: [] };
  assignTeam(state, player, team);
  return { effects: [{ type: "teamsChanged", players: [player] }] };
}
