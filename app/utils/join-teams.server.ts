/**
 * What the join form offers of a game played in teams (docs/decisions/0033-team-scoring.md): its
 * teams with their sizes, read from the live room. Nothing for a game not in team mode, an unknown
 * code, or a game that is over.
 */
import type { AppLoadContext } from "@remix-run/node";
import { GAME_CODE_LENGTH } from "#app/game/rules";
import { teamRefs } from "#app/game/engine/view";
import type { JoinTeams } from "./team-choice";

export async function joinTeamsOf(context: Pick<AppLoadContext, "hub" | "logger">, gameCode: string): Promise<JoinTeams | null> {
  // The form tests call the route without a hub; the join form then works as without teams.
  if (!context.hub || gameCode.length !== GAME_CODE_LENGTH) return null;
  try {
    const state = (await context.hub.getRoom(gameCode))?.state;
    if (!state?.teamMode || state.phase === "finished") return null;
    return { gameCode, started: state.phase !== "lobby", teams: teamRefs(state) };
  } catch (error) {
    // The form still joins without the list: the waiting screen offers the teams.
    context.logger.error({ event: "join_teams_failed", gameCode, err: error }, "could not read the game's teams");
    return null;
  }
}
