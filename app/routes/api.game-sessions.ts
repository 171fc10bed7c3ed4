import type { LoaderFunctionArgs } from "@remix-run/node";
import { listGameSessions } from "#app/models/game.server";
import { handleApi } from "#app/http/api.server";

/** GET /api/game-sessions: public games that are waiting or running. */
export async function loader({ context }: LoaderFunctionArgs) {
  return handleApi(context.logger, async () => Response.json(await listGameSessions(context.db)));
}
