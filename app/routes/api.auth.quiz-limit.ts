import type { LoaderFunctionArgs } from "@remix-run/node";
import { remainingAiQuizzes } from "#app/models/user.server";
import { ApiError, handleApi } from "#app/utils/api.server";
import { getUser } from "#app/utils/session.server";

/** GET /api/auth/quiz-limit -> {remainingQuizzes} for the signed-in user or guest. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return handleApi(context.logger, async () => {
    const user = await getUser(context, request);
    if (!user) throw new ApiError(401, "Sign in or continue as a guest to use AI quizzes.");
    return Response.json({ remainingQuizzes: await remainingAiQuizzes(context.db, user) });
  });
}
