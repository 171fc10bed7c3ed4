import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { Translate } from "#app/i18n/translator";
import { useTranslation } from "#app/i18n/use-translation";
import { z } from "zod";
import { Page } from "#app/components/layout";
import { useSayError } from "#app/i18n/error-text";
import { appError, type AppError } from "#app/i18n/app-error";
import { englishErrorText } from "#app/i18n/error-english.server";
import { metaT } from "#app/i18n/meta";
import { hostNewGame } from "#app/models/game.server";
import { duplicateQuiz, findOwnQuizWithQuestions } from "#app/models/quiz.server";
import { deleteQuiz } from "#app/models/quiz-delete.server";
import { listOwnQuizzes } from "#app/models/quiz-lists.server";
import { FormIdSchema } from "#app/schemas/form-schemas";
import { parseForm, parseIntent } from "#app/forms/forms";
import { requesterWithClientId, requesterOf } from "#app/sessions/session.server";
import { retryAfterHeaders, requireUser, readForm } from "#app/http/api.server";
import { checkLimits } from "#app/limits/rate-limits.server";
import { logGameCreated } from "#app/game-pages/game-log.server";
import { retryAfterFromAction } from "#app/http/route-headers";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "quiz")("meta.myQuizzes") }];

const NOT_FOUND = appError("QUIZ_NOT_FOUND");

/** Each quiz's Host, Duplicate and Delete buttons post its id; the button is the intent. */
const QuizActionSchema = z.object({ quizId: FormIdSchema });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request, { allowGuest: true });
  const quizzes = await listOwnQuizzes(context.db, user.id);
  return {
    quizzes: quizzes.map(({ id, title, description, questionCount, timeLimit, isPublic }) => ({
      id,
      title,
      description,
      questionCount,
      timeLimit,
      isPublic,
    })),
  };
}

interface MyQuizzesActionData {
  quizId?: number;
  /** Why the post was refused, in English, and the code and values the page says it by (docs/decisions/0047-errors-as-codes.md). */
  error: string;
  code: AppError;
}

/** A refusal raised with its code; `english`, its own words when it has them (a limit's configured ones). */
function refuse(code: AppError, status: number, quizId?: number, headers?: HeadersInit, english = englishErrorText(code)) {
  return data<MyQuizzesActionData>({ error: english, code, quizId }, { status, headers });
}

/** A post refused by a limit carries Retry-After. */
export const headers = retryAfterFromAction;

/**
 * Host (a new game of the quiz, hosted by this browser), duplicate (a private copy for the owner)
 * or delete (the owner only).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request, { allowGuest: true });
  const formData = await readForm(request, "/my-quizzes");
  const submission = parseForm(formData, QuizActionSchema);
  if (submission.status !== "success") return refuse(NOT_FOUND, 400);
  const { quizId } = submission.value;
  const intent = parseIntent(formData, ["host", "duplicate", "delete"]);

  if (intent === "host") {
    const allowed = await checkLimits(context, [{ name: "game" }]);
    if (!allowed.ok) return refuse(allowed.error, 429, quizId, retryAfterHeaders(allowed.retryAfterSeconds), allowed.message);
    const { requester, headers } = await requesterWithClientId(context, request);
    const hosted = await hostNewGame(context.db, quizId, requester);
    if (hosted.status === "not-found") return refuse(NOT_FOUND, 404, quizId);
    if (hosted.status === "forbidden") return refuse(appError("QUIZ_NOT_HOSTABLE"), 403, quizId);
    logGameCreated(context.logger, hosted.value, quizId, "my quizzes");
    return redirect(`/waiting/${hosted.value.gameCode}?hosted=1`, { headers });
  }

  if (intent === "duplicate") {
    // The signed-in account's own quizzes only (those this page lists); anyone else's is not found.
    const owner = { userId: user.id };
    const original = await findOwnQuizWithQuestions(context.db, quizId, owner);
    if (original.status !== "ok") return refuse(NOT_FOUND, 404, quizId);
    const questions = original.value.questions.length;
    const allowed = await checkLimits(context, [{ name: "quiz" }, ...(questions > 0 ? [{ name: "question" as const, points: questions }] : [])]);
    if (!allowed.ok) return refuse(allowed.error, 429, quizId, retryAfterHeaders(allowed.retryAfterSeconds), allowed.message);
    const copied = await duplicateQuiz(context.db, quizId, owner);
    if (copied.status !== "ok") return refuse(NOT_FOUND, 404, quizId);
    return redirect(`/my-quizzes?duplicated=1&copy=${copied.value.id}`);
  }

  if (intent === "delete") {
    const deleted = await deleteQuiz(context.db, quizId, await requesterOf(context, request));
    if (deleted.status === "not-found") return refuse(NOT_FOUND, 404, quizId);
    if (deleted.status === "forbidden") return refuse(appError("QUIZ_NOT_DELETABLE"), 403, quizId);
    const { unfinishedGames } = deleted.value;
    return redirect(unfinishedGames > 0 ? `/my-quizzes?deleted=1&playing=${unfinishedGames}` : "/my-quizzes?deleted=1");
  }

  return refuse(appError("UNKNOWN_ACTION"), 400, quizId);
}

/** `open`: games of the quiz that were waiting or running when it was deleted. */
function deletedNotice(t: Translate, open: number): string {
  if (open === 0) return t("myQuizzes.deleted");
  // Two or more is a plural in every language we speak, so no plural forms are needed.
  return open === 1 ? t("myQuizzes.deletedWithOpenGame") : t("myQuizzes.deletedWithOpenGames", { open });
}

/** `copyTitle`: the title of the copy the redirect names, when it is still listed. */
function duplicatedNotice(t: Translate, copyTitle: string | undefined): string {
  return copyTitle === undefined ? t("myQuizzes.duplicated") : t("myQuizzes.duplicatedReady", { title: copyTitle });
}

function exportHref(quizId: number, format: "json" | "csv" | "xlsx"): string {
  return `/api/quizzes/${quizId}/export?format=${format}`;
}

export default function MyQuizzes() {
  const { t } = useTranslation("quiz");
  const sayError = useSayError();
  const { quizzes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const confirmingId = Number(searchParams.get("delete")) || null;
  const copyId = Number(searchParams.get("copy")) || null;
  const notice = searchParams.has("saved")
    ? t("myQuizzes.saved")
    : searchParams.has("deleted")
      ? deletedNotice(t, Number(searchParams.get("playing")) || 0)
      : searchParams.has("duplicated")
        ? duplicatedNotice(t, quizzes.find((quiz) => quiz.id === copyId)?.title)
        : null;
  const spreadsheetHint = t("myQuizzes.spreadsheetHint");
  const busyId = navigation.state !== "idle" ? Number(navigation.formData?.get("quizId")) : null;
  const busyIntent = navigation.formData?.get("intent");
  const confirmHeading = useRef<HTMLHeadingElement>(null);

  // Asking to delete moves focus to the question, so a keyboard or screen reader user meets it next.
  useEffect(() => {
    if (confirmingId) confirmHeading.current?.focus();
  }, [confirmingId]);

  return (
    <Page>
      <div className="stack">
        <div className="row section-heading">
          <h1>{t("myQuizzes.heading")}</h1>
          <div className="row">
            <Link to="/night/new" className="button button-secondary">
              {t("night.planLink")}
            </Link>
            <Link to="/create" className="button">
              {t("myQuizzes.create")}
            </Link>
          </div>
        </div>
        {notice ? (
          <p className="status-notice" role="status">
            {notice}
          </p>
        ) : null}
        {actionData?.error ? (
          <p className="form-error" role="alert">
            {sayError(actionData.code, actionData.error)}
          </p>
        ) : null}

        {quizzes.length === 0 ? (
          <div className="card stack my-quizzes-empty">
            <p>{t("myQuizzes.empty")}</p>
            <p>
              <Link to="/create" className="button">
                {t("myQuizzes.createFirst")}
              </Link>
            </p>
          </div>
        ) : (
          <ul className="my-quiz-list">
            {quizzes.map((quiz) => {
              const confirming = confirmingId === quiz.id;
              const busy = busyId === quiz.id;
              return (
                <li key={quiz.id} className="card stack my-quiz" aria-labelledby={`quiz-${quiz.id}-title`}>
                  <div className="my-quiz-header">
                    <h2 id={`quiz-${quiz.id}-title`}>{quiz.title}</h2>
                    <span className={`badge${quiz.isPublic ? " badge-success" : ""}`}>{quiz.isPublic ? t("visibility.public") : t("visibility.private")}</span>
                  </div>
                  {quiz.description ? <p className="muted">{quiz.description}</p> : null}
                  <p className="hint">{t("myQuizzes.summary", { count: quiz.questionCount, seconds: quiz.timeLimit })}</p>
                  {confirming ? (
                    <div className="my-quiz-confirm stack" role="group" aria-labelledby={`quiz-${quiz.id}-confirm`}>
                      <h3 id={`quiz-${quiz.id}-confirm`} tabIndex={-1} ref={confirmHeading}>
                        {t("myQuizzes.confirmDelete", { title: quiz.title })}
                      </h3>
                      <p>{t("myQuizzes.confirmDeleteText")}</p>
                      <div className="row">
                        <Form method="post" action="/my-quizzes">
                          <input type="hidden" name="quizId" value={quiz.id} />
                          <button type="submit" name="intent" value="delete" className="button button-danger" disabled={busy}>
                            {busy && busyIntent === "delete" ? t("myQuizzes.deleting") : t("myQuizzes.confirmDeleteButton")}
                          </button>
                        </Form>
                        <Link to="/my-quizzes" className="button button-secondary" preventScrollReset>
                          {t("myQuizzes.cancel")}
                        </Link>
                      </div>
                    </div>
                  ) : (
                    <>
                      <div className="row my-quiz-actions">
                        <Form method="post" action="/my-quizzes">
                          <input type="hidden" name="quizId" value={quiz.id} />
                          <button
                            type="submit"
                            name="intent"
                            value="host"
                            className="button"
                            disabled={busy}
                            aria-label={t("myQuizzes.hostLabel", { title: quiz.title })}
                          >
                            {busy && busyIntent === "host" ? t("myQuizzes.hosting") : t("myQuizzes.host")}
                          </button>
                        </Form>
                        <Link to={`/create?edit=${quiz.id}`} className="button button-secondary" aria-label={t("myQuizzes.editLabel", { title: quiz.title })}>
                          {t("myQuizzes.edit")}
                        </Link>
                        <Form method="post" action="/my-quizzes">
                          <input type="hidden" name="quizId" value={quiz.id} />
                          <button
                            type="submit"
                            name="intent"
                            value="duplicate"
                            className="button button-secondary"
                            disabled={busy}
                            aria-label={t("myQuizzes.duplicateLabel", { title: quiz.title })}
                          >
                            {busy && busyIntent === "duplicate" ? t("myQuizzes.duplicating") : t("myQuizzes.duplicate")}
                          </button>
                        </Form>
                        <Link
                          to={`/my-quizzes?delete=${quiz.id}`}
                          className="button button-secondary"
                          aria-label={t("myQuizzes.deleteLabel", { title: quiz.title })}
                          preventScrollReset
                        >
                          {t("myQuizzes.delete")}
                        </Link>
                      </div>
                      <div className="row my-quiz-export">
                        <a
                          href={exportHref(quiz.id, "json")}
                          download
                          className="button button-secondary"
                          aria-label={t("myQuizzes.exportJsonLabel", { title: quiz.title })}
                          title={t("myQuizzes.exportJsonTitle")}
                        >
                          {t("myQuizzes.exportJson")}
                        </a>
                        <a
                          href={exportHref(quiz.id, "csv")}
                          download
                          className="button button-secondary button-small"
                          aria-label={t("myQuizzes.exportCsvLabel", { title: quiz.title })}
                          aria-describedby={`quiz-${quiz.id}-export-hint`}
                          title={spreadsheetHint}
                        >
                          CSV
                        </a>
                        <a
                          href={exportHref(quiz.id, "xlsx")}
                          download
                          className="button button-secondary button-small"
                          aria-label={t("myQuizzes.exportExcelLabel", { title: quiz.title })}
                          aria-describedby={`quiz-${quiz.id}-export-hint`}
                          title={spreadsheetHint}
                        >
                          Excel
                        </a>
                        <span className="hint" id={`quiz-${quiz.id}-export-hint`}>
                          {t("myQuizzes.exportHint")}
                        </span>
                      </div>
                    </>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </Page>
  );
}
