import type { LoaderFunctionArgs } from "@remix-run/node";
import { jsonError } from "#app/http/api.server";
import { normalizeGameCode } from "#app/schemas/field-rules";
import { joinTeamsOf } from "#app/teams/join-teams.server";
import { appError } from "#app/i18n/app-error";

/**
 * GET /api/games/:gameCode/teams: what the join form offers of a game played in teams, its teams
 * and their sizes (`null` for any other game or code), asked as a player types the code. Throttled
 * per address (TEAMS_LIMIT_PER_IP: 429, and the form joins without the list); it never loads a
 * game's room (app/teams/join-teams.server.ts).
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  if (context.codeLookups && !context.codeLookups.takeTeamList(context.clientIp || "unknown")) {
    const response = jsonError(429, appError("LIMIT_TEAM_LISTS"), undefined, 60);
    response.headers.set("Cache-Control", "no-store");
    return response;
  }
  return Response.json(await joinTeamsOf(context, normalizeGameCode(params.gameCode ?? "")), { headers: { "Cache-Control": "no-store" } });
}
