/**
 * Teams (docs/decisions/0033-team-scoring.md): who plays for which team, and a team's score, which
 * is per question the average of the points of its members who played that question.
 */
import { isOffensive } from "#app/schemas/profanity";
import { LEADERBOARD_SIZE, MAX_TEAMS, TEAM_NAME_MAX_LENGTH } from "../rules";
import { answerToCurrentQuestion, teamKey, teamOf, type GameState, type PlayerState, type StandingEntry, type TeamState } from "./state";

export type TeamRefusal = "TEAM_NAME" | "TEAM_NAME_NOT_ALLOWED" | "TOO_MANY_TEAMS";

/** A team name as typed, tidied: spaces squeezed, at most TEAM_NAME_MAX_LENGTH characters. */
export function cleanTeamName(name: string): string {
  return name.trim().replace(/\s+/g, " ");
}

/** The team of that name (any case), made now if there is none yet. */
export function findOrAddTeam(state: GameState, rawName: string): TeamState | TeamRefusal {
  const name = cleanTeamName(rawName);
  if (name.length === 0 || name.length > TEAM_NAME_MAX_LENGTH) return "TEAM_NAME";
  const existing = state.teamsByName.get(teamKey(name));
  if (existing) return existing;
  if (isOffensive(name)) return "TEAM_NAME_NOT_ALLOWED";
  if (state.teams.size >= MAX_TEAMS) return "TOO_MANY_TEAMS";
  const team: TeamState = { id: state.nextTeamId++, name, members: 0, score: 0, roundScore: 0, rank: 0, questionPoints: 0, questionMembers: 0 };
  addTeam(state, team);
  return team;
}

export function addTeam(state: GameState, team: TeamState): void {
  state.teams.set(team.id, team);
  state.teamsByName.set(teamKey(team.name), team);
  state.nextTeamId = Math.max(state.nextTeamId, team.id + 1);
}

export function removeTeam(state: GameState, team: TeamState): void {
  state.teams.delete(team.id);
  state.teamsByName.delete(teamKey(team.name));
  state.teamRanking = state.teamRanking.filter((ranked) => ranked !== team);
}

/** Moves a player into `team` (or out of any, with null), keeping the member counts. */
export function assignTeam(state: GameState, player: PlayerState, team: TeamState | null): void {
  const previous = teamOf(state, player);
  if (previous === team) return;
  if (previous) previous.members--;
  player.teamId = team ? team.id : null;
  if (team) team.members++;
}

/**
 * At the start of a team game, everyone without a team is given one: the smallest team (the first
 * made, on a tie), or, when the host made none and nobody picked one, a team of their own under
 * their nickname (one phone per table). Returns the players it placed.
 */
export function placeTeamless(state: GameState): PlayerState[] {
  const placed: PlayerState[] = [];
  const ownTeams = state.teams.size === 0;
  for (const player of state.players.values()) {
    if (teamOf(state, player)) continue;
    // Past MAX_TEAMS tables, the rest share the smallest teams.
    const own = ownTeams ? findOrAddTeam(state, player.nickname) : null;
    const team = own && typeof own !== "string" ? own : smallestTeam(state);
    if (!team) continue;
    if (typeof team === "string") continue;
    assignTeam(state, player, team);
    placed.push(player);
  }
  return placed;
}

/** The team with the fewest members; teams are few (MAX_TEAMS), so a scan is cheap. */
export function smallestTeam(state: GameState): TeamState | null {
  let smallest: TeamState | null = null;
  for (const team of state.teams.values()) if (!smallest || team.members < smallest.members) smallest = team;
  return smallest;
}

/**
 * A question closed: each team gains the average of the points of its members who played it (those
 * who answered, or were there to answer); each such member's share of that average is its
 * contribution. Called from the close's own pass over the players, so it adds no scan of its own.
 */
export class TeamTally {
  private readonly touched = new Set<TeamState>();
  private readonly players: PlayerState[] = [];

  constructor(private readonly state: GameState) {}

  add(player: PlayerState): void {
    const team = teamOf(this.state, player);
    if (!team) return;
    const answer = answerToCurrentQuestion(this.state, player);
    if (!answer && !player.connected) return;
    if (!this.touched.has(team)) {
      this.touched.add(team);
      team.questionPoints = 0;
      team.questionMembers = 0;
    }
    team.questionPoints += answer?.points ?? 0;
    team.questionMembers++;
    if (answer) this.players.push(player);
  }

  /** Adds each team's average to its score and each member's share to its contribution; ranks the teams. */
  close(): void {
    for (const team of this.state.teams.values()) {
      if (this.touched.has(team)) continue;
      team.questionPoints = 0;
      team.questionMembers = 0;
    }
    for (const team of this.touched) {
      const average = team.questionPoints / team.questionMembers;
      team.score += average;
      team.roundScore += average;
    }
    for (const player of this.players) {
      const team = teamOf(this.state, player)!;
      player.teamPoints += (answerToCurrentQuestion(this.state, player)?.points ?? 0) / team.questionMembers;
    }
    rankTeams(this.state);
  }
}

/** An answer of the last closed question gained `extra` points afterwards (the host accepted a typed answer). */
export function addLatePoints(state: GameState, player: PlayerState, extra: number): void {
  const team = teamOf(state, player);
  if (!team || team.questionMembers === 0) return;
  const share = extra / team.questionMembers;
  team.questionPoints += extra;
  team.score += share;
  team.roundScore += share;
  player.teamPoints += share;
}

/** A team's score as shown: whole points. */
export function shownScore(score: number): number {
  return Math.round(score);
}

/** Competition ranking of the teams by their shown score; ties listed by name. */
export function rankTeams(state: GameState): void {
  state.teamRanking = rankedBy([...state.teams.values()], (team) => shownScore(team.score));
}

/** Sorts by a whole-number score, best first, and numbers them "1, 2, 2, 4"; ties by name. */
export function rankedBy<T extends { name: string; id: number; rank: number }>(entries: T[], scoreOf: (entry: T) => number): T[] {
  entries.sort((a, b) => scoreOf(b) - scoreOf(a) || a.name.localeCompare(b.name) || a.id - b.id);
  entries.forEach((entry, index) => {
    const previous = entries[index - 1];
    entry.rank = previous && scoreOf(previous) === scoreOf(entry) ? previous.rank : index + 1;
  });
  return entries;
}

/** The top teams by a score (the evening's or a round's), as the screens list them. */
export function teamStandings(teams: Iterable<TeamState>, scoreOf: (team: TeamState) => number, size = LEADERBOARD_SIZE): StandingEntry[] {
  const ranked = rankedBy(
    [...teams].map((team) => ({ id: team.id, name: team.name, rank: 0, score: shownScore(scoreOf(team)) })),
    (entry) => entry.score,
  );
  return ranked.slice(0, size);
}

/** Resets every team's points for Play Again. */
export function resetTeamScores(state: GameState): void {
  for (const team of state.teams.values()) {
    team.score = 0;
    team.roundScore = 0;
    team.rank = 0;
    team.questionPoints = 0;
    team.questionMembers = 0;
  }
  state.teamRanking = [];
}
