import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, type ClientActionFunctionArgs, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Trans, useTranslation } from "#app/i18n/use-translation";
import { FieldError, FormError } from "#app/components/form-field";
import { Page } from "#app/components/layout";
import { useToast } from "#app/components/toaster";
import { HOST_NAME_MAX_LENGTH } from "#app/game/rules";
import { useSayError } from "#app/i18n/error-text";
import { appError, type AppError } from "#app/i18n/app-error";
import { englishErrorText } from "#app/i18n/error-english.server";
import { metaT } from "#app/i18n/meta";
import { hostNewGame } from "#app/models/game.server";
import { registerHost } from "#app/models/game-host.server";
import { listHostableQuizzes } from "#app/models/quiz-lists.server";
import { requesterWithClientId, requesterOf } from "#app/sessions/session.server";
import { HostFormSchema, QUIZZES_LOAD_FAILED } from "#app/schemas/form-schemas";
import { HOST_CONNECTION_FAILED } from "#app/game-pages/game-messages";
import { fieldError, fieldErrorCode, getFormProps, parseForm, useSchemaForm, type FieldCodes, type FieldErrors } from "#app/forms/forms";
import { normalizeGameCode } from "#app/schemas/field-rules";
import { retryAfterHeaders, readForm } from "#app/http/api.server";
import { checkLimits } from "#app/limits/rate-limits.server";
import { logGameCreated } from "#app/game-pages/game-log.server";
import { retryAfterFromAction } from "#app/http/route-headers";
import { afterFailedPost } from "#app/http/revalidation";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches)("host.metaTitle") }];

interface QuizOption {
  id: number;
  title: string;
  description: string;
  questionCount: number;
  isPublic: boolean;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  try {
    const quizzes = await listHostableQuizzes(context.db, await requesterOf(context, request));
    const options: QuizOption[] = quizzes.map(({ id, title, description, questionCount, isPublic }) => ({
      id,
      title,
      description,
      questionCount,
      isPublic,
    }));
    return { quizzes: options, loadFailed: false };
  } catch (error) {
    // Hosting by code still works without the list.
    context.logger.error({ event: "quiz_list_failed", err: error }, "could not list quizzes to host");
    return { quizzes: [] as QuizOption[], loadFailed: true };
  }
}

type HostValues = {
  quizCode: string;
  quizId: string;
  hostName: string;
};

interface HostActionData {
  values?: HostValues;
  errors?: FieldErrors;
  /** Each message's code and values, which the page says it by (docs/decisions/0047-errors-as-codes.md). */
  codes?: FieldCodes;
  formError?: string;
  formErrorCode?: AppError;
}

const CONNECTION_FAILED = appError("HOST_CONNECTION_FAILED");
const LOAD_FAILED = appError("QUIZZES_LOAD_FAILED");

function reply(body: HostActionData, status: number, headers?: HeadersInit) {
  return data(body, { status, headers });
}

/** A refusal beside one field, raised with its code; `english`, its own words when it has them (a limit's configured ones). */
function refuseField(values: HostValues, field: keyof HostValues, code: AppError, status: number, headers?: HeadersInit, english = englishErrorText(code)) {
  return reply({ values, errors: { [field]: english }, codes: { [field]: code } }, status, headers);
}

/** A chosen quiz gets a new game hosted by this browser; a code takes the host seat of a game this browser or account created. */
/** A post refused by a limit carries Retry-After. */
export const headers = retryAfterFromAction;

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseForm(await readForm(request, "/host"), HostFormSchema);
  const { quizCode, quizId, hostName } = submission.values;
  const values: HostValues = { quizCode, quizId, hostName };
  if (submission.status !== "success") return reply({ values, errors: submission.errors, codes: submission.codes }, 400);

  const { requester, headers } = await requesterWithClientId(context, request);
  const choice = submission.value;
  let gameCode: string;
  if (choice.quizId !== undefined) {
    const allowed = await checkLimits(context, [{ name: "game" }]);
    if (!allowed.ok) return refuseField(values, "quizId", allowed.error, 429, retryAfterHeaders(allowed.retryAfterSeconds), allowed.message);
    const hosted = await hostNewGame(context.db, choice.quizId, requester);
    if (hosted.status === "not-found") return refuseField(values, "quizId", appError("QUIZ_NOT_FOUND"), 404);
    if (hosted.status === "forbidden") return refuseField(values, "quizId", appError("QUIZ_NOT_HOSTABLE"), 403);
    gameCode = hosted.value.gameCode;
    logGameCreated(context.logger, hosted.value, choice.quizId, "host form");
  } else {
    const result = await registerHost(context.db, choice.gameCode, requester.clientId, requester);
    if (result === "not-found") return refuseField(values, "quizCode", appError("GAME_NOT_FOUND"), 404);
    if (result === "not-creator") return refuseField(values, "quizCode", appError("GAME_NOT_YOURS"), 403);
    if (result === "taken") return refuseField(values, "quizCode", appError("GAME_ALREADY_HOSTED"), 403);
    gameCode = choice.gameCode;
  }
  return redirect(`/waiting/${gameCode}?${new URLSearchParams({ hosted: "1", hostName: choice.hostName })}`, { headers });
}

/** docs/product.md#messages: a host request that never reached the server. */
export async function clientAction({ serverAction }: ClientActionFunctionArgs): Promise<HostActionData> {
  try {
    return await serverAction<typeof action>();
  } catch (error) {
    if (error instanceof Response) throw error;
    return { formError: HOST_CONNECTION_FAILED, formErrorCode: CONNECTION_FAILED };
  }
}

/** A refused post changed nothing the quiz list shows; after an unreachable server, reloading would only fail too and replace the form with an error page. */
export const shouldRevalidate: ShouldRevalidateFunction = (args) => (afterFailedPost(args) ? false : args.defaultShouldRevalidate);

export default function HostQuiz() {
  const { quizzes, loadFailed } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const sayError = useSayError();
  const actionData = useActionData<typeof clientAction>();
  const toast = useToast();
  const navigation = useNavigation();
  const [values, setValues] = useState<HostValues>(() => actionData?.values ?? { quizCode: "", quizId: "", hostName: "" });
  const hosting = navigation.state !== "idle" && navigation.formData?.has("hostName") === true;
  const [form, fields] = useSchemaForm(HostFormSchema, { id: "host-form", reply: actionData?.values ? actionData : undefined });
  const quizCodeError = fieldError(fields.quizCode);
  const quizIdError = fieldError(fields.quizId);
  const hostNameError = fieldError(fields.hostName);

  useEffect(() => {
    if (loadFailed) toast({ title: t("host.loadFailedTitle"), description: sayError(LOAD_FAILED, QUIZZES_LOAD_FAILED.description), variant: "destructive" });
  }, [loadFailed, toast, t, sayError]);

  useEffect(() => {
    if (actionData?.formError)
      toast({ title: t("host.connectionError"), description: sayError(actionData.formErrorCode, actionData.formError), variant: "destructive" });
  }, [actionData, toast, t, sayError]);

  // Choosing a quiz and typing a code are two ways to pick the game: each clears the other.
  const typeCode = (raw: string) => setValues((current) => ({ ...current, quizCode: normalizeGameCode(raw), quizId: "" }));
  const chooseQuiz = (quizId: number) => setValues((current) => ({ ...current, quizId: String(quizId), quizCode: "" }));

  return (
    <Page narrow>
      <div className="stack">
        <h1>{t("host.title")}</h1>
        <p className="hint">
          <Trans i18nKey="night.hostPageHint" values={{ ns: "quiz" }} components={{ plan: <Link to="/night/new" /> }} />
        </p>
        <Form method="post" {...getFormProps(form)} className="card stack">
          <FormError message={actionData?.formError} error={actionData?.formErrorCode} />
          <div className="field">
            <label htmlFor="quizCode">{t("host.quizCode")}</label>
            <input
              id="quizCode"
              name={fields.quizCode.name}
              className="input code-input"
              value={values.quizCode}
              placeholder="ABC123"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              aria-invalid={quizCodeError ? true : undefined}
              aria-describedby={quizCodeError ? "quizCode-error quizCode-hint" : "quizCode-hint"}
              onChange={(event) => typeCode(event.target.value)}
            />
            <p id="quizCode-hint" className="hint">
              {t("host.quizCodeHint")}
            </p>
            <FieldError id="quizCode-error" message={quizCodeError} error={fieldErrorCode(fields.quizCode)} />
          </div>

          {/* A radio group carries the choice's error state (ARIA has aria-invalid on the group, not on each radio); each radio still reads out the message. */}
          <fieldset
            className="quiz-choices stack"
            role="radiogroup"
            aria-invalid={quizIdError ? true : undefined}
            aria-describedby={quizIdError ? "quizId-error" : undefined}
          >
            <legend className="label">{t("host.quizzes")}</legend>
            {loadFailed ? (
              <FormError message={QUIZZES_LOAD_FAILED.description} error={LOAD_FAILED} />
            ) : quizzes.length === 0 ? (
              <p className="muted">
                <Trans i18nKey="host.noQuizzes" components={{ create: <Link to="/create" /> }} />
              </p>
            ) : (
              <ul className="quiz-options">
                {quizzes.map((quiz) => (
                  <li key={quiz.id} className="quiz-option">
                    <label className="quiz-option-label">
                      <input
                        type="radio"
                        id={`quiz-${quiz.id}`}
                        name={fields.quizId.name}
                        value={quiz.id}
                        checked={values.quizId === String(quiz.id)}
                        aria-describedby={quizIdError ? `quiz-${quiz.id}-details quizId-error` : `quiz-${quiz.id}-details`}
                        onChange={() => chooseQuiz(quiz.id)}
                      />
                      {quiz.title}
                    </label>
                    <p id={`quiz-${quiz.id}-details`} className="hint">
                      {t(quiz.isPublic ? "host.quizDetailsPublic" : "host.quizDetailsPrivate", { count: quiz.questionCount })}
                    </p>
                  </li>
                ))}
              </ul>
            )}
            <FieldError id="quizId-error" message={quizIdError} error={fieldErrorCode(fields.quizId)} />
          </fieldset>

          <div className="field">
            <label htmlFor="hostName">{t("host.hostName")}</label>
            <input
              id="hostName"
              name={fields.hostName.name}
              className="input"
              value={values.hostName}
              maxLength={HOST_NAME_MAX_LENGTH}
              autoComplete="nickname"
              aria-invalid={hostNameError ? true : undefined}
              aria-describedby={hostNameError ? "hostName-error" : undefined}
              onChange={(event) => setValues((current) => ({ ...current, hostName: event.target.value }))}
            />
            <FieldError id="hostName-error" message={hostNameError} error={fieldErrorCode(fields.hostName)} />
          </div>

          <button type="submit" className="button" disabled={hosting}>
            {hosting ? t("host.hosting") : t("host.hostGame")}
          </button>
        </Form>
      </div>
    </Page>
  );
}
