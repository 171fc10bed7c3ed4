import type { ActionFunctionArgs } from "@remix-run/node";
import { addQuestion, findOwnQuiz } from "#app/models/quiz.server";
import { ApiError, handleApi, methodNotAllowed, readJson } from "#app/utils/api.server";
import { requesterOf } from "#app/utils/session.server";
import { CreateQuestionSchema } from "#app/utils/api-schemas";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/** POST /api/questions {quizId, text, answers[4], correctAnswerIndex, order} -> 201 question. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return handleApi(async () => {
    const input = await readJson(request, CreateQuestionSchema);
    const access = await findOwnQuiz(context.db, input.quizId, await requesterOf(context, request));
    if (access.status === "not-found") throw new ApiError(404, "Quiz not found.", { quizId: ["Quiz not found."] });
    if (access.status === "forbidden") throw new ApiError(403, "Only the quiz's creator can add questions to it.");
    const question = await addQuestion(context.db, input);
    return Response.json(question, { status: 201 });
  });
}
