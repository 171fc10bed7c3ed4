import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createQuiz } from "#app/models/quiz.server";
import { listHostableQuizzes } from "#app/models/quiz-lists.server";
import { handleApi, methodNotAllowed, readJson, requireWithinLimit } from "#app/http/api.server";
import { requesterWithClientId, requesterOf } from "#app/sessions/session.server";
import { CreateQuizSchema } from "#app/schemas/api-schemas";

/** GET /api/quizzes: the quizzes the requester may host, with question counts. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return handleApi(context.logger, async () => {
    const quizzes = await listHostableQuizzes(context.db, await requesterOf(context, request));
    return Response.json(quizzes);
  });
}

/** POST /api/quizzes {title, description, timeLimit, isPublic, creatorId} -> 201 quiz. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  return handleApi(context.logger, async () => {
    const input = await readJson(request, CreateQuizSchema);
    await requireWithinLimit(context, "quiz");
    // A caller with no identity gets a client id minted (and its cookie), so the quiz is someone's.
    const { requester, headers } = await requesterWithClientId(context, request);
    const quiz = await createQuiz(context.db, input, requester);
    return Response.json(quiz, { status: 201, headers });
  });
}
