/**
 * What the join form offers of a game played in teams (docs/decisions/0033-team-scoring.md): its
 * teams with their sizes. Nothing for a game not in team mode, an unknown code, or a game that is
 * over. It never loads a game's room (issue 26): a game in memory answers from its state, any
 * other from its row. In a cluster that row is also what a node without the game's room answers
 * from: the owner's group commits keep the teams and each player's team there, one commit interval
 * behind its memory, which a list offered while a code is typed can afford; asking the owner would
 * need a reply, which the nodes' signals do not carry (docs/decisions/0056-forwarding-and-signals.md).
 * An unknown code counts against the address's failed lookups (server/code-lookups.ts), and past
 * them nothing is looked up.
 */
import type { AppLoadContext } from "@remix-run/node";
import { GAME_CODE_LENGTH } from "#app/game/rules";
import { teamRefs } from "#app/game/engine/view";
import { findLiveGame } from "#app/models/game.server";
import { readEvening } from "#app/models/game-play.server";
import type { JoinTeams } from "./team-choice";

type JoinTeamsContext = Pick<AppLoadContext, "hub" | "logger"> & Partial<Pick<AppLoadContext, "db" | "codeLookups" | "clientIp">>;

export async function joinTeamsOf(context: JoinTeamsContext, gameCode: string): Promise<JoinTeams | null> {
  // The form tests call the route without a hub; the join form then works as without teams.
  if (!context.hub || gameCode.length !== GAME_CODE_LENGTH) return null;
  const address = context.clientIp || "unknown";
  if (context.codeLookups?.refusal(address)) return null;
  try {
    const room = context.hub.liveRoom(gameCode);
    if (room) {
      const state = room.state;
      if (!state.teamMode || state.phase === "finished") return null;
      return { gameCode, started: state.phase !== "lobby", teams: teamRefs(state) };
    }
    if (!context.db) return null;
    const game = await findLiveGame(context.db, gameCode);
    if (!game) {
      context.codeLookups?.failed(address);
      return null;
    }
    const evening = readEvening(game.evening);
    if (!evening?.teamMode) return null;
    const sizes = await context.db
      .selectFrom("players")
      .select((eb) => ["team_id", eb.fn.countAll<number>().as("members")])
      .where("game_id", "=", game.id)
      .where("team_id", "is not", null)
      .groupBy("team_id")
      .execute();
    const members = new Map(sizes.map((row) => [row.team_id, Number(row.members)]));
    return {
      gameCode,
      started: game.status !== "waiting",
      teams: evening.teams.map((team) => ({ id: team.id, name: team.name, members: members.get(team.id) ?? 0 })),
    };
  } catch (error) {
    // The form still joins without the list: the waiting screen offers the teams.
    context.logger.error({ event: "join_teams_failed", gameCode, err: error }, "could not read the game's teams");
    return null;
  }
}
