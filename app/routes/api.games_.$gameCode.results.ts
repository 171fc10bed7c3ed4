import type { LoaderFunctionArgs } from "@remix-run/node";
import { findGameByCode } from "#app/models/game.server";
import { getGameResults } from "#app/models/game-results.server";
import { ApiError, handleApi } from "#app/http/api.server";
import { normalizeGameCode } from "#app/schemas/field-rules";
import { isHostRequest } from "#app/game-pages/game-screen.server";

/** GET /api/games/:gameCode/results: every player's final score, for the game's host only. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return handleApi(context.logger, async () => {
    const game = await findGameByCode(context.db, normalizeGameCode(params.gameCode ?? ""));
    if (!game) throw new ApiError(404, "Game not found.");
    if (!(await isHostRequest(context, request, game))) {
      throw new ApiError(403, "Only the game's host can see the full results.");
    }
    return Response.json(await getGameResults(context.db, game));
  });
}
