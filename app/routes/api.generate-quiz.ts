import type { ActionFunctionArgs } from "@remix-run/node";
import { GenerateQuizSchema } from "#app/ai/options";
import { generateAndHostQuiz } from "#app/models/ai-quiz.server";
import { aiQuizError, ApiError, handleApi, methodNotAllowed, readJson } from "#app/http/api.server";
import { ensureClientId } from "#app/sessions/client-id.server";
import { getUser } from "#app/sessions/session.server";
import { logGameCreated } from "#app/game-pages/game-log.server";
import { appError } from "#app/i18n/app-error";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/generate-quiz {title, description, topic, difficulty, kinds, questionCount, timeLimit, language}
 * -> 201 {quiz, questions, gameSession: {gameCode, ...}}, the caller's browser registered as host.
 * `kinds` is "mixed" (the default: a mix suited to the topic) or one question kind ("choice",
 * "trueFalse", "multiSelect", "typeAnswer", "closestNumber", "poll"); anything else is a 400.
 * `language` ("en", "de", "es" or "fr") is the one the quiz is written in; English when absent.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return handleApi(context.logger, async () => {
    const user = await getUser(context, request);
    if (!user) throw new ApiError(401, appError("AI_SIGN_IN"));
    const input = await readJson(request, GenerateQuizSchema);
    const { clientId, headers } = ensureClientId(request);
    const result = await generateAndHostQuiz(context, user, { userId: user.id, clientId }, input, request.signal);
    if (!result.ok) throw aiQuizError(result);
    const generated = result.value;
    logGameCreated(context.logger, generated.gameSession, generated.quiz.id, "ai api");
    return Response.json(generated, { status: 201, headers });
  });
}
