import type { ActionFunctionArgs } from "@remix-run/node";
import { registerHost } from "#app/models/game.server";
import { ApiError, handleApi, methodNotAllowed, readJson } from "#app/utils/api.server";
import { RegisterHostSchema } from "#app/utils/api-schemas";
import { normalizeGameCode } from "#app/utils/validation";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/** POST /api/games/:gameCode/register-host {clientId}: binds the creating browser as host. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return handleApi(async () => {
    const { clientId } = await readJson(request, RegisterHostSchema);
    const gameCode = normalizeGameCode(params.gameCode ?? "");
    const result = await registerHost(context.db, gameCode, clientId);
    if (result === "not-found") throw new ApiError(404, "Game not found.");
    if (result === "taken") throw new ApiError(403, "This game already has a host.");
    return Response.json({ gameCode, registered: true });
  });
}
