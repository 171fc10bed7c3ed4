import { data, redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { Trans, useTranslation } from "#app/i18n/use-translation";
import { Page } from "#app/components/layout";
import { useSayError } from "#app/i18n/error-text";
import type { AppError } from "#app/i18n/app-error";
import { metaT } from "#app/i18n/meta";
import { VisibilityHint } from "#app/components/visibility-hint";
import { IMPORT_FAILURE_STATUS, retryAfterHeaders } from "#app/http/api.server";
import { importFromRequest } from "#app/quiz-files/quiz-import.server";
import { retryAfterFromAction } from "#app/http/route-headers";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "quiz")("meta.import") }];

/** A post refused by a limit carries Retry-After. */
export const headers = retryAfterFromAction;

interface ImportReply {
  /** The first problem in English, and the code and values it was raised with, to say it in the page's language (docs/decisions/0047-errors-as-codes.md). */
  error: string;
  appError?: AppError;
  /** A spreadsheet's problems, each with its row number, its English and its code ("Row 3: ..." is `IMPORT_ROW_PROBLEM`). */
  rows?: { row: number; message: string; error: AppError }[];
}

/**
 * Imports a quiz file (.json) or a spreadsheet (.csv, .xlsx: our template or Kahoot's) for the
 * caller, the same way POST /api/quizzes/import does, and opens it in the editor to check and host.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const imported = await importFromRequest(context, request);
  if (imported.ok) return redirect(`/create?edit=${imported.quiz.id}&imported=1`, { headers: imported.headers });
  // The file's problems are listed by row; any other refusal is its one message.
  const reply: ImportReply = {
    error: imported.message,
    ...(imported.error ? { appError: imported.error } : {}),
    ...(imported.reason === "invalid-file" && imported.rows ? { rows: imported.rows } : {}),
  };
  const headers = imported.retryAfterSeconds ? retryAfterHeaders(imported.retryAfterSeconds) : undefined;
  return data<ImportReply>(reply, { status: IMPORT_FAILURE_STATUS[imported.reason], headers });
}

export default function ImportQuiz() {
  const { t } = useTranslation("quiz");
  const sayError = useSayError();
  const reply = useActionData<typeof action>();
  const importing = useNavigation().state === "submitting";
  return (
    <Page narrow>
      <div className="form-page stack">
        <h1>{t("import.heading")}</h1>
        <p>
          <Trans t={t} i18nKey="import.intro" components={{ code: <code /> }} />
        </p>
        <p className="row">
          <a href="/create/template.xlsx" download>
            {t("import.excelTemplate")}
          </a>
          <a href="/create/template.csv" download>
            {t("import.csvTemplate")}
          </a>
          <a href="/schema/quiz-v1.json">{t("import.schema")}</a>
        </p>
        {reply ? (
          <div className="form-error" role="alert">
            <p>{sayError(reply.appError, reply.error)}</p>
            {reply.rows && reply.rows.length > 1 ? (
              <ul aria-label={t("import.problemsByRow")}>
                {reply.rows.map((problem) => (
                  <li key={`${problem.row}-${problem.message}`}>{sayError(problem.error, problem.message)}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        <Form method="post" encType="multipart/form-data" className="card stack">
          <div className="field">
            <label htmlFor="file">{t("import.file")}</label>
            <input
              id="file"
              name="file"
              type="file"
              required
              accept=".json,.csv,.xlsx,application/json,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              aria-describedby="file-hint"
            />
            <p id="file-hint" className="hint">
              {t("import.fileHint")}
            </p>
          </div>
          <div className="field">
            <label htmlFor="title">{t("import.title")}</label>
            <input id="title" name="title" className="input" maxLength={200} />
          </div>
          <div className="field">
            <label htmlFor="visibility">{t("form.visibility")}</label>
            <select id="visibility" name="visibility" className="select" defaultValue="private" aria-describedby="visibility-hint">
              <option value="private">{t("visibility.private")}</option>
              <option value="public">{t("visibility.public")}</option>
            </select>
            <VisibilityHint id="visibility-hint" />
          </div>
          <div className="form-actions">
            <Link to="/create">{t("import.back")}</Link>
            <button type="submit" className="button" disabled={importing}>
              {importing ? t("import.importing") : t("import.submit")}
            </button>
          </div>
        </Form>
      </div>
    </Page>
  );
}
