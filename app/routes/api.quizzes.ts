import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createQuiz, listHostableQuizzes } from "#app/models/quiz.server";
import { handleApi, methodNotAllowed, readJson } from "#app/utils/api.server";
import { requesterOf } from "#app/utils/session.server";
import { CreateQuizSchema } from "#app/utils/api-schemas";

/** GET /api/quizzes: the quizzes the requester may host, with question counts. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return handleApi(async () => {
    const quizzes = await listHostableQuizzes(context.db, await requesterOf(context, request));
    return Response.json(quizzes);
  });
}

/** POST /api/quizzes {title, description, timeLimit, isPublic, creatorId} -> 201 quiz. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  return handleApi(async () => {
    const input = await readJson(request, CreateQuizSchema);
    const quiz = await createQuiz(context.db, input, await requesterOf(context, request));
    return Response.json(quiz, { status: 201 });
  });
}
