import type { ActionFunctionArgs } from "@remix-run/node";
import { addOwnQuestion } from "#app/models/quiz.server";
import { ApiError, handleApi, methodNotAllowed, readJson, requireWithinLimit } from "#app/http/api.server";
import { requesterOf } from "#app/sessions/session.server";
import { CreateQuestionSchema } from "#app/schemas/api-schemas";
import { MAX_QUESTIONS } from "#app/schemas/form-schemas";
import { appError } from "#app/i18n/app-error";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/questions {quizId, order, kind?, text, ...the kind's fields} -> 201 question; at most
 * MAX_QUESTIONS a quiz. Without `kind`, the original shape {answers, correctAnswerIndex} is a choice question.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return handleApi(context.logger, async () => {
    const input = await readJson(request, CreateQuestionSchema);
    await requireWithinLimit(context, "question");
    const added = await addOwnQuestion(context.db, input, await requesterOf(context, request), MAX_QUESTIONS);
    if (added.status === "not-found") throw new ApiError(404, appError("QUIZ_NOT_FOUND"), { quizId: ["Quiz not found."] });
    if (added.status === "forbidden") throw new ApiError(403, "Only the quiz's creator can add questions to it.");
    if (added.status === "full") throw new ApiError(409, appError("QUIZ_TOO_MANY_QUESTIONS", { max: added.max }));
    if (added.status === "missing-images")
      throw new ApiError(400, "That picture is not stored. Upload it first.", { imageId: ["That picture is not stored. Upload it first."] });
    return Response.json(added.value, { status: 201 });
  });
}
