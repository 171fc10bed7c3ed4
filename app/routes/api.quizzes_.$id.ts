import type { LoaderFunctionArgs } from "@remix-run/node";
import { findOwnQuizWithQuestions } from "#app/models/quiz.server";
import { ApiError, handleApi, parseIdParam } from "#app/http/api.server";
import { requesterOf } from "#app/sessions/session.server";
import { appError } from "#app/i18n/app-error";

/** GET /api/quizzes/:id: a quiz with its questions and answers, for its owner only. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return handleApi(context.logger, async () => {
    const quizId = parseIdParam(params.id, appError("QUIZ_NOT_FOUND"));
    const access = await findOwnQuizWithQuestions(context.db, quizId, await requesterOf(context, request));
    if (access.status === "not-found") throw new ApiError(404, appError("QUIZ_NOT_FOUND"));
    if (access.status === "forbidden") throw new ApiError(403, "Only the quiz's creator can see its questions and answers.");
    return Response.json(access.value);
  });
}
