import type { ActionFunctionArgs } from "@remix-run/node";
import { registerHost } from "#app/models/game-host.server";
import { ApiError, handleApi, methodNotAllowed, readJson } from "#app/http/api.server";
import { RegisterHostSchema } from "#app/schemas/api-schemas";
import { requesterOf } from "#app/sessions/session.server";
import { normalizeGameCode } from "#app/schemas/field-rules";
import { appError } from "#app/i18n/app-error";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/** POST /api/games/:gameCode/register-host {clientId}: binds a browser as host, for the game's creator only. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return handleApi(context.logger, async () => {
    const { clientId } = await readJson(request, RegisterHostSchema);
    const gameCode = normalizeGameCode(params.gameCode ?? "");
    // A game made signed out: the caller shows the host secret its creating request was given (docs/decisions/0044).
    const result = await registerHost(context.db, gameCode, clientId, await requesterOf(context, request));
    if (result === "not-found") throw new ApiError(404, "Game not found.");
    if (result === "not-creator") throw new ApiError(403, appError("GAME_NOT_YOURS"));
    if (result === "taken") throw new ApiError(403, appError("GAME_ALREADY_HOSTED"));
    return Response.json({ gameCode, registered: true });
  });
}
