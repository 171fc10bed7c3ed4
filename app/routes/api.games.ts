import type { ActionFunctionArgs } from "@remix-run/node";
import { createGame } from "#app/models/game.server";
import { findHostableQuiz } from "#app/models/quiz.server";
import { ApiError, handleApi, methodNotAllowed, readJson, requireWithinLimit } from "#app/http/api.server";
import { requesterWithClientId } from "#app/sessions/session.server";
import { CreateGameSchema } from "#app/schemas/api-schemas";
import { logGameCreated } from "#app/game-pages/game-log.server";
import { appError } from "#app/i18n/app-error";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/games {quizId, hostId} -> 201 {id, gameCode, status: "waiting"}. The game is bound to
 * the browser (X-Client-Id, or one minted now and set as its cookie) or account that created it:
 * only that one may register as its host.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return handleApi(context.logger, async () => {
    const input = await readJson(request, CreateGameSchema);
    await requireWithinLimit(context, "game");
    const { requester, headers } = await requesterWithClientId(context, request);
    const access = await findHostableQuiz(context.db, input.quizId, requester);
    if (access.status === "not-found") throw new ApiError(404, appError("QUIZ_NOT_FOUND"), { quizId: ["Quiz not found."] });
    if (access.status === "forbidden") throw new ApiError(403, appError("QUIZ_NOT_HOSTABLE"));
    const game = await createGame(context.db, {
      quizId: input.quizId,
      hostId: requester.userId ?? null,
      creatorClientId: requester.clientId,
      hostSecret: requester.hostSecret,
    });
    logGameCreated(context.logger, game, input.quizId, "api");
    return Response.json(game, { status: 201, headers });
  });
}
