import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { flushSync } from "react-dom";
import { z } from "zod";
import { Field, FieldError, TextAreaField } from "#app/components/form-field";
import { Page } from "#app/components/layout";
import { useToast } from "#app/components/toaster";
import {
  AI_QUIZ_TITLE_MAX_LENGTH,
  AI_KINDS,
  AI_KINDS_LABELS,
  DEFAULT_AI_KINDS,
  DEFAULT_DIFFICULTY,
  DIFFICULTIES,
  GENERATION_FAILED,
  GenerateQuizFormSchema,
  POPULAR_TOPICS,
  QUESTION_COUNT,
  REDIRECT_AFTER_GENERATION_MS,
  SECONDS_PER_QUESTION,
  suggestedQuizTitle,
  TOPIC_MAX_LENGTH,
  TOPIC_REQUIRED,
  type GenerateQuizInput,
} from "#app/ai/options";
import { AI_NOT_CONFIGURED } from "#app/ai/quiz-generator.server";
import { getClientId } from "#app/game/client/storage";
import { generateAndHostQuiz, quotaExhaustedMessage } from "#app/models/ai-quiz.server";
import { dailyAiQuizLimit } from "#app/models/plan.server";
import { AI_QUIZ_FAILURE_STATUS, retryAfterHeaders } from "#app/utils/api.server";
import { ensureClientId } from "#app/utils/client-id.server";
import { type ToastMessage } from "#app/utils/form-schemas";
import { fieldError, getFormProps, parseForm, useSchemaForm, type FormReply, type FormValues } from "#app/utils/forms";
import { QUIZ_LIMIT_CHECK_FAILED } from "#app/utils/plans";
import { checkQuizLimit } from "#app/utils/quiz-limit.server";
import { getUser } from "#app/utils/session.server";
import { logGameCreated } from "#app/utils/game-log.server";
import { retryAfterFromAction } from "#app/utils/route-headers";

export const meta: MetaFunction = () => [{ title: "AI Quiz Generator | Quiz Night" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getUser(context, request);
  if (!user) return { user: null };
  // null when it cannot be read: the page says so, and generating checks it again.
  const quota = await checkQuizLimit(context, user);
  return {
    user: {
      isGuest: user.isGuest,
      quota: quota && { limit: quota.limit, remaining: quota.remaining },
      freeDailyLimit: await dailyAiQuizLimit(context.db, "free"),
      quotaMessage: !quota || quota.remaining > 0 ? null : await quotaExhaustedMessage(context.db, user, quota.limit),
      canUpgrade: !user.isGuest && user.subscriptionTier.toLowerCase() !== "premium",
    },
    notConfigured: context.quizGenerator ? null : AI_NOT_CONFIGURED,
  };
}

/** The form's fields as the page shows them: text, as typed. */
type AiQuizValues = Record<"topic" | "title" | "difficulty" | "kinds" | "questionCount" | "timeLimit", string>;

const DEFAULT_VALUES: AiQuizValues = {
  topic: "",
  title: "",
  difficulty: DEFAULT_DIFFICULTY,
  kinds: DEFAULT_AI_KINDS,
  questionCount: String(QUESTION_COUNT.default),
  timeLimit: String(SECONDS_PER_QUESTION.default),
};

/** What a refused post (without JavaScript) gave back, a field left empty showing the default it stands for. */
function valuesOf(values: FormValues | undefined): AiQuizValues {
  const shown = { ...DEFAULT_VALUES };
  for (const name of Object.keys(shown) as (keyof AiQuizValues)[]) shown[name] = values?.[name] || shown[name];
  return shown;
}

/** A topic chip's button, posted without JavaScript: the topic it fills in. */
const TopicChipSchema = z.object({ chip: z.string().min(1) });

interface AiQuizActionData extends FormReply {
  formError?: ToastMessage;
}

/**
 * Without JavaScript: a topic chip fills the topic; Generate makes the quiz and opens its lobby.
 * With JavaScript the page calls POST /api/generate-quiz itself (the same work; docs/product.md#ai-generation).
 */
/** A post refused by a limit carries Retry-After. */
export const headers = retryAfterFromAction;

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const submission = parseForm(formData, GenerateQuizFormSchema);
  const { values } = submission;
  const chip = parseForm(formData, TopicChipSchema);
  if (chip.status === "success") return data<AiQuizActionData>({ values: { ...values, topic: chip.value.chip } });

  const user = await getUser(context, request);
  if (!user) throw redirect(`/auth?${new URLSearchParams({ redirectTo: "/ai-quiz" })}`);
  if (submission.status !== "success") return data<AiQuizActionData>({ values, errors: submission.errors }, { status: 400 });

  const { clientId, headers } = ensureClientId(request);
  const result = await generateAndHostQuiz(context, user, { userId: user.id, clientId }, submission.value, request.signal);
  if (!result.ok) {
    const headers = result.retryAfterSeconds === undefined ? undefined : retryAfterHeaders(result.retryAfterSeconds);
    const status = AI_QUIZ_FAILURE_STATUS[result.reason];
    return data<AiQuizActionData>({ values, formError: { title: GENERATION_FAILED.title, description: result.message } }, { status, headers });
  }
  const generated = result.value;
  logGameCreated(context.logger, generated.gameSession, generated.quiz.id, "ai form");
  return redirect(`/waiting/${generated.gameSession.gameCode}`, { headers });
}

export default function AiQuiz() {
  const { user, notConfigured } = useLoaderData<typeof loader>();
  return <Page>{user ? <AiQuizForm user={user} notConfigured={notConfigured ?? null} /> : <LoginRequired />}</Page>;
}

function LoginRequired() {
  return (
    <div className="card stack center ai-login-required">
      <h1>Login Required</h1>
      <p>Please sign in, or continue as a guest, to generate quizzes with AI.</p>
      <div className="row hero-actions">
        <Link to={`/auth?${new URLSearchParams({ redirectTo: "/ai-quiz" })}`} className="button">
          Sign In
        </Link>
        <Link to="/" className="button button-secondary">
          Back to Home
        </Link>
      </div>
    </div>
  );
}

interface QuotaView {
  isGuest: boolean;
  /** null when it could not be read. */
  quota: { limit: number; remaining: number } | null;
  quotaMessage: string | null;
  canUpgrade: boolean;
  freeDailyLimit: number;
}

function AiQuizForm({ user, notConfigured }: { user: QuotaView; notConfigured: string | null }) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const toast = useToast();
  const [draft, setDraft] = useState<AiQuizValues>(() => valuesOf(actionData?.values));
  const [failure, setFailure] = useState<ToastMessage | null>(actionData?.formError ?? null);
  const [generating, setGenerating] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>();
  const [form, fields] = useSchemaForm(GenerateQuizFormSchema, {
    id: "ai-quiz-form",
    reply: actionData,
    onSubmit(event, { submission }) {
      // With JavaScript the page calls POST /api/generate-quiz itself.
      event.preventDefault();
      if (submission?.status === "success") void generate(submission.value);
    },
  });
  const formProps = getFormProps(form);
  const topicError = fieldError(fields.topic);
  const kindsError = fieldError(fields.kinds);

  useEffect(() => () => clearTimeout(redirectTimer.current), []);
  useEffect(() => {
    if (!actionData) return;
    setDraft(valuesOf(actionData.values));
    setFailure(actionData.formError ?? null);
  }, [actionData]);

  const busy = generating || (navigation.state === "submitting" && navigation.formData?.get("intent") === "generate");
  const outOfQuizzes = user.quota !== null && user.quota.remaining <= 0;
  const cannotGenerate = busy || outOfQuizzes || notConfigured !== null;
  const update = (change: Partial<AiQuizValues>) => setDraft((current) => ({ ...current, ...change }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // The schema's check: a refused post shows each message beside its field and focuses the first.
    formProps.onSubmit(event);
    // A Generate refused for its topic (not one of conform's own checks while typing) gets the Topic Required toast too (docs/product.md#messages).
    if (form.status === "error" && fieldError(fields.topic)) toast({ ...TOPIC_REQUIRED, variant: "destructive" });
  }

  function chooseTopic(topic: string) {
    // Render the chosen topic at once, so that a message beside the topic is checked against it.
    flushSync(() => update({ topic }));
    if (topicError) form.validate({ name: fields.topic.name });
  }

  async function generate(request: GenerateQuizInput) {
    setFailure(null);
    setGenerating(true);
    try {
      const response = await fetch("/api/generate-quiz", {
        method: "POST",
        headers: { "content-type": "application/json", "x-client-id": getClientId() },
        credentials: "same-origin",
        body: JSON.stringify(request),
      });
      const body = (await response.json().catch(() => null)) as {
        error?: string;
        quiz?: { title: string };
        questions?: unknown[];
        gameSession?: { gameCode: string };
      } | null;
      if (!response.ok || !body?.gameSession) throw new Error(body?.error || GENERATION_FAILED.description);
      toast({
        title: "Quiz Generated!",
        description: `"${body.quiz?.title}" is ready with ${body.questions?.length} questions. Opening the lobby...`,
      });
      const gameCode = body.gameSession.gameCode;
      redirectTimer.current = setTimeout(() => navigate(`/waiting/${gameCode}`), REDIRECT_AFTER_GENERATION_MS);
    } catch (error) {
      const message: ToastMessage = {
        title: GENERATION_FAILED.title,
        description: error instanceof Error && error.message !== "Failed to fetch" ? error.message : GENERATION_FAILED.description,
      };
      setFailure(message);
      toast({ ...message, variant: "destructive" });
      setGenerating(false);
      // The quota may have changed meanwhile (another tab, midnight UTC).
      revalidator.revalidate();
    }
  }

  return (
    <div className="form-page stack">
      <div className="stack ai-intro">
        <h1>AI Quiz Generator</h1>
        <p className="muted">Describe a topic and get a ready-to-play quiz in seconds. You host it straight away.</p>
      </div>

      {notConfigured ? (
        <div className="card ai-notice" role="status">
          <strong>AI generation is off.</strong> {notConfigured}
        </div>
      ) : null}

      {user.quota ? (
        <p className="ai-quota" data-testid="ai-quota">
          {user.isGuest ? "AI quizzes left: " : "AI quizzes left today: "}
          <strong>
            {user.quota.remaining} of {user.quota.limit}
          </strong>
          {user.isGuest ? (
            <>
              {" "}
              (guest). <Link to="/auth?tab=register">Register</Link> for {user.freeDailyLimit} a day.
            </>
          ) : null}
        </p>
      ) : (
        <p className="ai-quota form-error" data-testid="ai-quota" role="status">
          {QUIZ_LIMIT_CHECK_FAILED}. You can still generate a quiz: the limit is checked again when you do.
        </p>
      )}
      {user.quotaMessage ? (
        <div className="card ai-notice" role="status">
          {user.quotaMessage}{" "}
          {user.isGuest ? <Link to="/auth?tab=register">Register</Link> : user.canUpgrade ? <Link to="/subscription">Upgrade Plan</Link> : null}
        </div>
      ) : null}

      {failure ? (
        <div className="form-error" role="alert">
          {failure.title}: {failure.description}
        </div>
      ) : null}

      <Form method="post" {...formProps} onSubmit={onSubmit} className="card stack" aria-label="Generate a quiz">
        {/* The first submit button answers the Enter key: it must generate, not pick a topic chip. */}
        <button type="submit" name="intent" value="generate" className="visually-hidden" tabIndex={-1} aria-hidden="true" disabled={cannotGenerate}>
          Generate Quiz
        </button>
        <TextAreaField
          id="topic"
          label="Topic"
          name={fields.topic.name}
          rows={3}
          maxLength={TOPIC_MAX_LENGTH}
          placeholder="e.g. The Roman Empire, 90s pop music, the solar system"
          value={draft.topic}
          error={topicError}
          onChange={(event) => update({ topic: event.target.value })}
        />

        <fieldset className="topic-chips">
          <legend className="label">Popular topics</legend>
          <div className="chip-list">
            {POPULAR_TOPICS.map((topic) => (
              <button
                key={topic}
                type="submit"
                name="chip"
                value={topic}
                formNoValidate
                className={`chip${draft.topic === topic ? " chip-active" : ""}`}
                aria-pressed={draft.topic === topic}
                onClick={(event) => {
                  event.preventDefault();
                  chooseTopic(topic);
                }}
              >
                {topic}
              </button>
            ))}
          </div>
        </fieldset>

        <Field
          id="title"
          label="Quiz name (optional)"
          name={fields.title.name}
          maxLength={AI_QUIZ_TITLE_MAX_LENGTH}
          placeholder={suggestedQuizTitle(draft.topic, draft.difficulty)}
          value={draft.title}
          error={fieldError(fields.title)}
          onChange={(event) => update({ title: event.target.value })}
        />

        <div className="form-columns">
          <div className="field">
            <label htmlFor="difficulty">Difficulty</label>
            <select
              id="difficulty"
              name={fields.difficulty.name}
              className="select"
              value={draft.difficulty}
              onChange={(event) => update({ difficulty: event.target.value })}
            >
              {DIFFICULTIES.map((difficulty) => (
                <option key={difficulty} value={difficulty}>
                  {difficulty[0].toUpperCase() + difficulty.slice(1)}
                </option>
              ))}
            </select>
            <FieldError id="difficulty-error" message={fieldError(fields.difficulty)} />
          </div>
          <div className="field">
            <label htmlFor="kinds">Question kinds</label>
            <select
              id="kinds"
              name={fields.kinds.name}
              className="select"
              value={draft.kinds}
              aria-invalid={kindsError ? true : undefined}
              aria-describedby={kindsError ? "kinds-error" : undefined}
              onChange={(event) => update({ kinds: event.target.value })}
            >
              {AI_KINDS.map((kinds) => (
                <option key={kinds} value={kinds}>
                  {AI_KINDS_LABELS[kinds]}
                </option>
              ))}
            </select>
            <FieldError id="kinds-error" message={kindsError} />
          </div>
          <Slider
            id="questionCount"
            name={fields.questionCount.name}
            label="Number of questions"
            range={QUESTION_COUNT}
            value={draft.questionCount}
            shown={draft.questionCount}
            error={fieldError(fields.questionCount)}
            onChange={(questionCount) => update({ questionCount })}
          />
          <Slider
            id="timeLimit"
            name={fields.timeLimit.name}
            label="Time per question"
            range={SECONDS_PER_QUESTION}
            value={draft.timeLimit}
            shown={`${draft.timeLimit} seconds`}
            error={fieldError(fields.timeLimit)}
            onChange={(timeLimit) => update({ timeLimit })}
          />
        </div>

        <div className="row">
          <button type="submit" name="intent" value="generate" className="button button-large" disabled={cannotGenerate}>
            {busy ? "Creating Your Quiz..." : "Generate Quiz"}
          </button>
          {busy ? <span className="hint">This usually takes 5 to 30 seconds.</span> : null}
        </div>
      </Form>
    </div>
  );
}

function Slider({
  id,
  name,
  label,
  range,
  value,
  shown,
  error,
  onChange,
}: {
  id: string;
  name: string;
  label: string;
  range: { min: number; max: number; step: number };
  value: string;
  shown: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}: <output htmlFor={id}>{shown}</output>
      </label>
      <input
        id={id}
        name={name}
        type="range"
        className="slider"
        min={range.min}
        max={range.max}
        step={range.step}
        value={value}
        aria-valuetext={shown}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
