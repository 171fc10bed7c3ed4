import { data, redirect, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { Page } from "#app/components/layout";
import { VisibilityHint } from "#app/components/visibility-hint";
import { IMPORT_FAILURE_STATUS, retryAfterHeaders } from "#app/utils/api.server";
import { importFromRequest } from "#app/utils/quiz-import.server";
import { retryAfterFromAction } from "#app/utils/route-headers";

export const meta: MetaFunction = () => [{ title: "Import a Quiz - Quiz Night" }];

/** A post refused by a limit carries Retry-After. */
export const headers = retryAfterFromAction;

interface ImportReply {
  error: string;
  /** A spreadsheet's problems, each with its row number. */
  rows?: { row: number; message: string }[];
}

/**
 * Imports a quiz file (.json) or a spreadsheet (.csv, .xlsx: our template or Kahoot's) for the
 * caller, the same way POST /api/quizzes/import does, and opens it in the editor to check and host.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const imported = await importFromRequest(context, request);
  if (imported.ok) return redirect(`/create?edit=${imported.quiz.id}&imported=1`, { headers: imported.headers });
  // The file's problems are listed by row; any other refusal is its one message.
  const reply: ImportReply = imported.reason === "invalid-file" ? { error: imported.message, rows: imported.rows } : { error: imported.message };
  const headers = imported.retryAfterSeconds ? retryAfterHeaders(imported.retryAfterSeconds) : undefined;
  return data<ImportReply>(reply, { status: IMPORT_FAILURE_STATUS[imported.reason], headers });
}

export default function ImportQuiz() {
  const reply = useActionData<typeof action>();
  const importing = useNavigation().state === "submitting";
  return (
    <Page narrow>
      <div className="form-page stack">
        <h1>Import a Quiz</h1>
        <p>
          Bring a quiz you already have: a Quiz Night file (<code>.json</code>, pictures included), or a spreadsheet (<code>.csv</code> or <code>.xlsx</code>)
          in our template or Kahoot&apos;s quiz spreadsheet template. Every row is checked, and nothing is saved unless the whole file is right.
        </p>
        <p className="row">
          <a href="/create/template.xlsx" download>
            Download the Excel template
          </a>
          <a href="/create/template.csv" download>
            Download the CSV template
          </a>
          <a href="/schema/quiz-v1.json">The quiz file&apos;s JSON Schema</a>
        </p>
        {reply ? (
          <div className="form-error" role="alert">
            <p>{reply.error}</p>
            {reply.rows && reply.rows.length > 1 ? (
              <ul aria-label="Problems by row">
                {reply.rows.map((problem) => (
                  <li key={`${problem.row}-${problem.message}`}>
                    {problem.row > 0 && !problem.message.startsWith("Row") ? `Row ${problem.row}: ${problem.message}` : problem.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        <Form method="post" encType="multipart/form-data" className="card stack">
          <div className="field">
            <label htmlFor="file">Quiz file or spreadsheet</label>
            <input
              id="file"
              name="file"
              type="file"
              required
              accept=".json,.csv,.xlsx,application/json,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              aria-describedby="file-hint"
            />
            <p id="file-hint" className="hint">
              JSON up to 40 MB; spreadsheets up to 2 MB and 100 questions.
            </p>
          </div>
          <div className="field">
            <label htmlFor="title">Title (for a spreadsheet; the file name if empty)</label>
            <input id="title" name="title" className="input" maxLength={200} />
          </div>
          <div className="field">
            <label htmlFor="visibility">Visibility</label>
            <select id="visibility" name="visibility" className="select" defaultValue="private" aria-describedby="visibility-hint">
              <option value="private">Private</option>
              <option value="public">Public</option>
            </select>
            <VisibilityHint id="visibility-hint" />
          </div>
          <div className="form-actions">
            <Link to="/create">Back to the editor</Link>
            <button type="submit" className="button" disabled={importing}>
              {importing ? "Importing..." : "Import Quiz"}
            </button>
          </div>
        </Form>
      </div>
    </Page>
  );
}
