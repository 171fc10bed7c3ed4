/**
 * The join form's team field in team mode (docs/decisions/0033-team-scoring.md), read the same way
 * by the join action (through JoinFormSchema) and by the page's script, so it stays free of zod
 * (docs/decisions/0025-player-download.md). Its radios say `later` (no team yet), `new` (the team
 * typed in `newTeam`) or `team:` and the name of a team the game has.
 */
import type { TeamRef } from "#app/game/protocol-views";

/** What the join form offers of a game played in teams (the join route's loader reads it from the live game). */
export interface JoinTeams {
  gameCode: string;
  /** The game has begun: a newcomer joins a team it has, or is put in the smallest; no new team. */
  started: boolean;
  teams: TeamRef[];
}

export const TEAM_LATER = "later";
export const TEAM_NEW = "new";
const PICKED = "team:";

/** The same words as TeamNameSchema's (app/schemas/validation.ts) for a new team left without a name. */
export const TEAM_NAME_REQUIRED_MESSAGE = "Give the team a name.";

/** The radio's value for a team the game has. */
export function teamChoiceValue(name: string): string {
  return PICKED + name;
}

/**
 * The team the form names: the picked team's name, or the name typed for a new team (also when it
 * was typed without ticking "New team", as a form without JavaScript allows), or undefined for none.
 */
export function chosenTeam(choice: unknown, newTeam: unknown): string | undefined {
  if (isPickedTeam(choice)) return choice.slice(PICKED.length).trim() || undefined;
  const typed = typeof newTeam === "string" ? newTeam.trim().replace(/\s+/g, " ") : "";
  return typed || undefined;
}

/** Whether the radio names a team the game has (rather than none yet or a new one). */
export function isPickedTeam(choice: unknown): choice is string {
  return typeof choice === "string" && choice.startsWith(PICKED);
}

/** Whether the form asked for a new team but left its name empty. */
export function missingNewTeam(choice: unknown, newTeam: unknown): boolean {
  return choice === TEAM_NEW && chosenTeam(choice, newTeam) === undefined;
}
