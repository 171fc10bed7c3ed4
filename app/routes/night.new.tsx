/**
 * Plan a night (docs/decisions/0034-a-night-of-rounds.md): a title and 2 to MAX_ROUNDS rounds, each a
 * quiz this browser or account may host (its own and the public ones, as the host page lists them)
 * with a title that defaults to the quiz's. Rounds are added, removed and moved by buttons that post
 * their intent without JavaScript and apply at once with it, as the quiz editor's do. Hosting the
 * night opens one game of every round, with this browser as its host, and goes to its lobby.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, type ClientActionFunctionArgs, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState, type FormEvent, type MouseEvent } from "react";
import { FormError } from "#app/components/form-field";
import { Page } from "#app/components/layout";
import { MAX_ROUNDS } from "#app/game/rules";
import { useSayError } from "#app/i18n/error-text";
import { appError, type AppError } from "#app/i18n/app-error";
import { issueError } from "#app/i18n/coded";
import { metaT } from "#app/i18n/meta";
import { Trans, useTranslation } from "#app/i18n/use-translation";
import { hostNewNight } from "#app/models/game-night.server";
import { listHostableQuizzes } from "#app/models/quiz-lists.server";
import { retryAfterHeaders, readForm } from "#app/http/api.server";
import { NightDraftSchema, NightFormSchema, QUIZZES_LOAD_FAILED } from "#app/schemas/form-schemas";
import { parseForm, type FieldCodes, type FieldErrors } from "#app/forms/forms";
import { logGameCreated } from "#app/game-pages/game-log.server";
import { HOST_CONNECTION_FAILED } from "#app/game-pages/game-messages";
import {
  applyNightIntent,
  emptyNightDraft,
  fieldIdOf,
  fieldNameOf,
  MIN_ROUNDS,
  nightRefusalError,
  nightRefusalMessage,
  NIGHT_TITLE_MAX_LENGTH,
  type NightDraft,
  type NightRoundDraft,
} from "#app/nights/night-plan";
import { checkLimits } from "#app/limits/rate-limits.server";
import { retryAfterFromAction } from "#app/http/route-headers";
import { requesterOf, requesterWithClientId } from "#app/sessions/session.server";
import "#app/styles/night.css";
import { type QuizOption, RoundFields } from "#app/components/night-round-fields";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "quiz")("night.metaTitle") }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  try {
    const quizzes = await listHostableQuizzes(context.db, await requesterOf(context, request));
    const options: QuizOption[] = quizzes.map(({ id, title, questionCount, isPublic }) => ({ id, title, questionCount, isPublic }));
    return { quizzes: options, loadFailed: false };
  } catch (error) {
    context.logger.error({ event: "quiz_list_failed", err: error }, "could not list quizzes to plan a night");
    return { quizzes: [] as QuizOption[], loadFailed: true };
  }
}

export interface NightFormReply {
  draft?: NightDraft;
  /** Field name (`title`, `rounds`, `rounds[1].quizId`) to its message, in English. */
  errors?: FieldErrors;
  /** Each message's code and values, which the page says it by (docs/decisions/0047-errors-as-codes.md). */
  codes?: FieldCodes;
  /** A message about the whole form (a limit, a lost connection), and its code. */
  formError?: string;
  formErrorCode?: AppError;
}

const CONNECTION_FAILED = appError("HOST_CONNECTION_FAILED");
const LOAD_FAILED = appError("QUIZZES_LOAD_FAILED");

function reply(body: NightFormReply, status = 200, headers?: HeadersInit) {
  return data(body, { status, headers });
}

/** A post refused by a limit carries Retry-After. */
export const headers = retryAfterFromAction;

/**
 * Hosting the night, or (without JavaScript) one of the plan's buttons: add, remove or move a
 * round; the edited plan goes back to the page. Opening a night counts as opening a game.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request, "/night/new");
  const posted = parseForm(formData, NightDraftSchema);
  if (posted.status !== "success") return reply({ draft: emptyNightDraft(), formError: HOST_CONNECTION_FAILED, formErrorCode: CONNECTION_FAILED }, 400);
  const { intent, draft } = posted.value;
  const edited = applyNightIntent(draft, intent);
  if (edited)
    return "error" in edited ? reply({ draft, errors: { rounds: edited.error }, codes: { rounds: edited.code } }, 400) : reply({ draft: edited.draft });

  const submission = parseForm(formData, NightFormSchema);
  if (submission.status !== "success") return reply({ draft, errors: submission.errors, codes: submission.codes }, 400);
  const plan = submission.value;

  const allowed = await checkLimits(context, [{ name: "game" }]);
  if (!allowed.ok) return reply({ draft, formError: allowed.message, formErrorCode: allowed.error }, 429, retryAfterHeaders(allowed.retryAfterSeconds));
  const { requester, headers } = await requesterWithClientId(context, request);
  const hosted = await hostNewNight(context.db, plan, requester);
  if (hosted.status !== "ok") {
    const status = hosted.status === "not-found" ? 404 : hosted.status === "forbidden" ? 403 : 409;
    const field = fieldNameOf(["rounds", hosted.round, "quizId"]);
    return reply(
      { draft, errors: { [field]: nightRefusalMessage(hosted.status, hosted.round) }, codes: { [field]: nightRefusalError(hosted.status, hosted.round) } },
      status,
    );
  }
  logGameCreated(context.logger, hosted.value, plan.rounds[0].quizId, "night form");
  return redirect(`/waiting/${hosted.value.gameCode}?hosted=1`, { headers });
}

/** A post that never reached the server says so beside the form. */
export async function clientAction({ serverAction }: ClientActionFunctionArgs): Promise<NightFormReply> {
  try {
    return await serverAction<typeof action>();
  } catch (error) {
    if (error instanceof Response) throw error;
    return { formError: HOST_CONNECTION_FAILED, formErrorCode: CONNECTION_FAILED };
  }
}

/** The quiz list does not change with a post that stays on the page: reloading it could only replace the form with an error page. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod && formMethod.toUpperCase() !== "GET" ? false : defaultShouldRevalidate;

/** The plan's messages by field name and their codes, as the action's reply has them: the same schema, here before posting. */
function checkDraft(draft: NightDraft): { errors: FieldErrors; codes: FieldCodes } {
  const result = NightFormSchema.safeParse(draft);
  const errors: FieldErrors = {};
  const codes: FieldCodes = {};
  if (!result.success)
    for (const issue of result.error.issues) {
      const name = fieldNameOf(issue.path);
      if (errors[name] !== undefined) continue;
      errors[name] = issue.message;
      codes[name] = issueError(issue);
    }
  return { errors, codes };
}

export default function PlanNight() {
  const { quizzes, loadFailed } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof clientAction>();
  const { t } = useTranslation("quiz");
  const sayError = useSayError();
  const navigation = useNavigation();
  const [draft, setDraft] = useState<NightDraft>(() => reply?.draft ?? emptyNightDraft());
  // Stable keys, so removing or moving a round does not hand its fields to another one.
  const nextKey = useRef(draft.rounds.length);
  const [keys, setKeys] = useState(() => draft.rounds.map((_, i) => i));
  const [validateLive, setValidateLive] = useState(false);
  const [focusId, setFocusId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  /** A step the plan does not allow (an 11th round, a night of one), and its code. */
  const [stepError, setStepError] = useState<{ error: string; code: AppError } | null>(null);
  const quizById = useMemo(() => new Map(quizzes.map((quiz) => [String(quiz.id), quiz])), [quizzes]);

  useEffect(() => {
    if (!reply) return;
    if (reply.draft) {
      setDraft(reply.draft);
      setKeys(reply.draft.rounds.map(() => nextKey.current++));
    }
    const first = Object.keys(reply.errors ?? {})[0];
    if (first) setFocusId(fieldIdOf(first === "rounds" ? "rounds[0].quizId" : first));
  }, [reply]);

  useEffect(() => {
    if (!focusId) return;
    document.getElementById(focusId)?.focus();
    setFocusId(null);
  }, [focusId]);

  const liveErrors = useMemo(() => (validateLive ? checkDraft(draft) : null), [draft, validateLive]);
  const { errors, codes }: { errors: FieldErrors; codes: FieldCodes } = liveErrors ?? { errors: reply?.errors ?? {}, codes: reply?.codes ?? {} };
  const message = (name: string) => {
    const english = errors[name];
    return english ? sayError(codes[name], english) : undefined;
  };
  const hosting = navigation.state !== "idle" && navigation.formData?.get("intent") === "host";

  const updateRound = (index: number, change: Partial<NightRoundDraft>) =>
    setDraft((current) => ({ ...current, rounds: current.rounds.map((round, i) => (i === index ? { ...round, ...change } : round)) }));

  /** A quiz chosen for a round names the round after it, unless a title of its own was typed. */
  function chooseQuiz(index: number, quizId: string) {
    const round = draft.rounds[index];
    const previousTitle = quizById.get(round.quizId)?.title ?? "";
    const keepTitle = round.title.trim() !== "" && round.title !== previousTitle;
    updateRound(index, { quizId, ...(keepTitle ? {} : { title: quizById.get(quizId)?.title ?? "" }) });
  }

  /** A plan button's step, here and now; the post it would have made is not sent. */
  function onIntent(event: MouseEvent<HTMLButtonElement>, intent: string) {
    const result = applyNightIntent(draft, intent);
    if (!result) return;
    event.preventDefault();
    if ("error" in result) {
      setStepError(result);
      return;
    }
    setStepError(null);
    const match = /^(remove|move)-round-(\d+)(?:-(up|down))?$/.exec(intent);
    setKeys((current) => {
      if (intent === "add-round") return [...current, nextKey.current++];
      if (!match) return current;
      const index = Number(match[2]);
      if (match[1] === "remove") return current.filter((_, i) => i !== index);
      const copy = current.slice();
      const [moved] = copy.splice(index, 1);
      copy.splice(result.focus, 0, moved);
      return copy;
    });
    setDraft(result.draft);
    const total = result.draft.rounds.length;
    if (match?.[1] === "move") {
      setAnnouncement(t("night.moved", { n: Number(match[2]) + 1, position: result.focus + 1, total }));
      // The same button on the round's new place, while it still goes that way; else its quiz.
      const direction = match[3];
      const canGoOn = direction === "up" ? result.focus > 0 : result.focus < total - 1;
      setFocusId(canGoOn ? `round-${result.focus}-move-${direction}` : fieldIdOf(`rounds[${result.focus}].quizId`));
    } else {
      if (match?.[1] === "remove") setAnnouncement(t("night.removed", { n: Number(match[2]) + 1 }));
      setFocusId(fieldIdOf(`rounds[${result.focus}].quizId`));
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.value && submitter.value !== "host") return;
    const found = checkDraft(draft).errors;
    const first = Object.keys(found)[0];
    if (!first) return;
    event.preventDefault();
    setValidateLive(true);
    setFocusId(fieldIdOf(first === "rounds" ? "rounds[0].quizId" : first));
  }

  const titleError = message("title");
  const roundsError = message("rounds") ?? (stepError ? sayError(stepError.code, stepError.error) : undefined);

  return (
    <Page narrow>
      <div className="stack night-plan">
        <h1>{t("night.heading")}</h1>
        <p className="hint">{t("night.intro")}</p>
        <FormError message={reply?.formError} error={reply?.formErrorCode} />
        {loadFailed ? <FormError message={QUIZZES_LOAD_FAILED.description} error={LOAD_FAILED} /> : null}
        <p className="visually-hidden" aria-live="polite">
          {announcement}
        </p>
        <Form method="post" noValidate onSubmit={onSubmit} className="stack">
          {/* The first submit button answers the Enter key: it must host the night, not move round 1. */}
          <button type="submit" name="intent" value="host" className="visually-hidden" tabIndex={-1} aria-hidden="true" disabled={hosting}>
            {t("night.host")}
          </button>
          <div className="card stack">
            <div className="field">
              <label htmlFor="title">{t("night.title")}</label>
              <input
                id="title"
                name="title"
                className="input"
                value={draft.title}
                maxLength={NIGHT_TITLE_MAX_LENGTH}
                autoComplete="off"
                aria-invalid={titleError ? true : undefined}
                aria-describedby={titleError ? "title-error" : undefined}
                onChange={(event) => setDraft((current) => ({ ...current, title: event.target.value }))}
              />
              {titleError ? (
                <p id="title-error" className="field-error">
                  {titleError}
                </p>
              ) : null}
            </div>
          </div>

          <h2 id="rounds-heading">{t("night.rounds")}</h2>
          <p className="hint" id="rounds-hint">
            {t("night.roundsHint", { min: MIN_ROUNDS, max: MAX_ROUNDS })}
          </p>
          {roundsError ? (
            <p id="rounds-error" className="field-error" role="alert">
              {roundsError}
            </p>
          ) : null}
          {quizzes.length === 0 && !loadFailed ? (
            <p className="muted">
              <Trans t={t} i18nKey="night.noQuizzes" components={{ create: <Link to="/create" /> }} />
            </p>
          ) : null}
          <ol className="night-rounds" aria-labelledby="rounds-heading">
            {draft.rounds.map((round, index) => (
              <li key={keys[index] ?? `extra-${index}`}>
                <RoundFields
                  index={index}
                  count={draft.rounds.length}
                  round={round}
                  quizzes={quizzes}
                  quizError={message(`rounds[${index}].quizId`)}
                  titleError={message(`rounds[${index}].title`)}
                  onQuiz={(quizId) => chooseQuiz(index, quizId)}
                  onTitle={(title) => updateRound(index, { title })}
                  onIntent={onIntent}
                />
              </li>
            ))}
          </ol>

          <div className="form-actions">
            <button
              type="submit"
              name="intent"
              value="add-round"
              className="button button-secondary"
              disabled={draft.rounds.length >= MAX_ROUNDS}
              onClick={(event) => onIntent(event, "add-round")}
            >
              {t("night.add")}
            </button>
            <button type="submit" name="intent" value="host" className="button" disabled={hosting}>
              {hosting ? t("night.hosting") : t("night.host")}
            </button>
          </div>
        </Form>
      </div>
    </Page>
  );
}
