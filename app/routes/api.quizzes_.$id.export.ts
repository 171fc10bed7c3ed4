import type { LoaderFunctionArgs } from "@remix-run/node";
import { findOwnQuizWithQuestions, type Requester } from "#app/models/quiz.server";
import { exportQuiz } from "#app/models/quiz-transfer.server";
import { ApiError, attachmentResponse, handleApi, parseIdParam } from "#app/http/api.server";
import { QUIZ_SCHEMA_PATH, quizFileSlug } from "#app/quiz-files/quiz-file";
import { CSV_CONTENT_TYPE, quizToCsv, quizToXlsx, XLSX_CONTENT_TYPE } from "#app/quiz-files/quiz-spreadsheet.server";
import { requesterOf } from "#app/sessions/session.server";
import { appError } from "#app/i18n/app-error";

const FORMATS = ["json", "csv", "xlsx"] as const;
type Format = (typeof FORMATS)[number];

const FORBIDDEN = "Only the quiz's creator can export it.";

async function ownQuiz(db: LoaderFunctionArgs["context"]["db"], quizId: number, requester: Requester) {
  const access = await findOwnQuizWithQuestions(db, quizId, requester);
  if (access.status === "not-found") throw new ApiError(404, appError("QUIZ_NOT_FOUND"));
  if (access.status === "forbidden") throw new ApiError(403, FORBIDDEN);
  return access.value;
}

/**
 * GET /api/quizzes/:id/export?format=json|csv|xlsx, for the quiz's owner only: the quiz file
 * (`<slug>.quiz.json`, pictures embedded; the default), or its questions as a spreadsheet in the
 * template's layout (`<slug>.csv`, `<slug>.xlsx`; pictures only travel in the quiz file).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return handleApi(context.logger, async () => {
    const quizId = parseIdParam(params.id, appError("QUIZ_NOT_FOUND"));
    const format = (new URL(request.url).searchParams.get("format") ?? "json").toLowerCase();
    if (!FORMATS.includes(format as Format)) {
      const message = `format must be one of ${FORMATS.join(", ")}.`;
      throw new ApiError(400, message, { format: [message] });
    }
    const requester = await requesterOf(context, request);

    if (format === "json") {
      const exported = await exportQuiz(context.db, quizId, requester);
      if (exported.status === "not-found") throw new ApiError(404, appError("QUIZ_NOT_FOUND"));
      if (exported.status === "forbidden") throw new ApiError(403, FORBIDDEN);
      const file = exported.value;
      // An editor that understands $schema checks and completes the file against the published schema.
      const body = { $schema: new URL(QUIZ_SCHEMA_PATH, request.url).href, ...file };
      return attachmentResponse({
        body: JSON.stringify(body, null, 2),
        contentType: "application/json; charset=utf-8",
        fileName: `${quizFileSlug(file.title)}.quiz.json`,
      });
    }

    // The owner's answers travel in the file: no shared cache may keep it (attachmentResponse's default).
    const quiz = await ownQuiz(context.db, quizId, requester);
    const slug = quizFileSlug(quiz.title);
    if (format === "csv") return attachmentResponse({ body: quizToCsv(quiz.questions), contentType: CSV_CONTENT_TYPE, fileName: `${slug}.csv` });
    return attachmentResponse({ body: new Uint8Array(await quizToXlsx(quiz.questions)), contentType: XLSX_CONTENT_TYPE, fileName: `${slug}.xlsx` });
  });
}
