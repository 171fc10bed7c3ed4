import type { LoaderFunctionArgs } from "@remix-run/node";
import { normalizeGameCode } from "#app/utils/field-rules";
import { joinTeamsOf } from "#app/utils/join-teams.server";

/**
 * GET /api/games/:gameCode/teams: what the join form offers of a game played in teams, its teams
 * and their sizes (`null` for any other game or code), asked as a player types the code.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  return Response.json(await joinTeamsOf(context, normalizeGameCode(params.gameCode ?? "")), { headers: { "Cache-Control": "no-store" } });
}
