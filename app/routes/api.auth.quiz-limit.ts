import type { LoaderFunctionArgs } from "@remix-run/node";
import { ApiError, handleApi } from "#app/http/api.server";
import { QUIZ_LIMIT_CHECK_FAILED } from "#app/billing/plans";
import { checkQuizLimit } from "#app/ai/quiz-limit.server";
import { getUser } from "#app/sessions/session.server";

/** GET /api/auth/quiz-limit -> {remainingQuizzes} for the signed-in user or guest. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return handleApi(context.logger, async () => {
    const user = await getUser(context, request);
    if (!user) throw new ApiError(401, "Sign in or continue as a guest to use AI quizzes.");
    const quota = await checkQuizLimit(context, user);
    if (!quota) throw new ApiError(500, QUIZ_LIMIT_CHECK_FAILED);
    return Response.json({ remainingQuizzes: quota.remaining });
  });
}
