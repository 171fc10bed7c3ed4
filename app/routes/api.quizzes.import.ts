import type { ActionFunctionArgs } from "@remix-run/node";
import { handleApi, importRefusalResponse, methodNotAllowed } from "#app/http/api.server";
import { importFromRequest } from "#app/quiz-files/quiz-import.server";

export function loader() {
  return methodNotAllowed(["POST"]);
}

/**
 * POST /api/quizzes/import -> 201 the created quiz with its questions (as GET /api/quizzes/:id).
 * The body is a quiz file as JSON (`?visibility=public` to publish it), or multipart/form-data
 * with a `file` field (.json, .csv or .xlsx) and, for a spreadsheet, optional `title` (default:
 * the file name), `description`, `timeLimit` and `visibility`. A bad file gives 400 with every
 * problem (a spreadsheet's by row) and nothing is created; pictures past the owner's storage 409.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  return handleApi(context.logger, async () => {
    const imported = await importFromRequest(context, request);
    if (!imported.ok) return importRefusalResponse(imported);
    const headers = new Headers(imported.headers);
    headers.set("Location", `/api/quizzes/${imported.quiz.id}`);
    return Response.json(imported.quiz, { status: 201, headers });
  });
}
