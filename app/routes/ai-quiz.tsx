import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Field, FieldError, TextAreaField } from "#app/components/form-field";
import { Page } from "#app/components/layout";
import { useToast } from "#app/components/toaster";
import {
  AI_QUIZ_TITLE_MAX_LENGTH,
  AI_KINDS,
  AI_KINDS_LABELS,
  aiQuizDescription,
  DEFAULT_AI_KINDS,
  DEFAULT_DIFFICULTY,
  DIFFICULTIES,
  GENERATION_FAILED,
  GenerateQuizSchema,
  POPULAR_TOPICS,
  QUESTION_COUNT,
  REDIRECT_AFTER_GENERATION_MS,
  SECONDS_PER_QUESTION,
  suggestedQuizTitle,
  TOPIC_MAX_LENGTH,
  TOPIC_REQUIRED,
} from "#app/ai/options";
import { AI_NOT_CONFIGURED } from "#app/ai/quiz-generator.server";
import { getClientId } from "#app/game/client/storage";
import { generateAndHostQuiz, quotaExhaustedMessage } from "#app/models/ai-quiz.server";
import { dailyAiQuizLimit } from "#app/models/plan.server";
import { aiQuizQuota } from "#app/models/user.server";
import { ApiError, retryAfterHeaders } from "#app/utils/api.server";
import { ensureClientId } from "#app/utils/client-id.server";
import { firstErrors, type ToastMessage } from "#app/utils/form-schemas";
import { getUser } from "#app/utils/session.server";
import { logGameCreated } from "#app/utils/game-log.server";
import { retryAfterFromAction } from "#app/utils/route-headers";

export const meta: MetaFunction = () => [{ title: "AI Quiz Generator | Quiz Night" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getUser(context, request);
  if (!user) return { user: null };
  const quota = await aiQuizQuota(context.db, user);
  return {
    user: {
      isGuest: user.isGuest,
      quotaLimit: quota.limit,
      remainingQuizzes: quota.remaining,
      freeDailyLimit: await dailyAiQuizLimit(context.db, "free"),
      quotaMessage: quota.remaining > 0 ? null : await quotaExhaustedMessage(context.db, user, quota.limit),
      canUpgrade: !user.isGuest && user.subscriptionTier.toLowerCase() !== "premium",
    },
    notConfigured: context.quizGenerator ? null : AI_NOT_CONFIGURED,
  };
}

/** The form as typed: what the page edits and what a refused post (without JavaScript) gives back. */
interface AiQuizDraft {
  topic: string;
  title: string;
  difficulty: string;
  kinds: string;
  questionCount: number;
  timeLimit: number;
}

const emptyDraft = (): AiQuizDraft => ({
  topic: "",
  title: "",
  difficulty: DEFAULT_DIFFICULTY,
  kinds: DEFAULT_AI_KINDS,
  questionCount: QUESTION_COUNT.default,
  timeLimit: SECONDS_PER_QUESTION.default,
});

function draftOf(formData: FormData): AiQuizDraft {
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : "";
  };
  const number = (name: string, fallback: number) => (text(name) === "" ? fallback : Number(text(name)));
  return {
    topic: text("topic"),
    title: text("title"),
    difficulty: text("difficulty") || DEFAULT_DIFFICULTY,
    kinds: text("kinds") || DEFAULT_AI_KINDS,
    questionCount: number("questionCount", QUESTION_COUNT.default),
    timeLimit: number("timeLimit", SECONDS_PER_QUESTION.default),
  };
}

/** The request body of POST /api/generate-quiz for a draft. */
function requestOf(draft: AiQuizDraft) {
  return { ...draft, description: aiQuizDescription(draft.topic) };
}

interface AiQuizActionData {
  draft: AiQuizDraft;
  errors?: Record<string, string>;
  formError?: ToastMessage;
}

/**
 * Without JavaScript: a topic chip fills the topic; Generate makes the quiz and opens its lobby.
 * With JavaScript the page calls POST /api/generate-quiz itself (the same work, the spec's call).
 */
/** A post refused by a limit carries Retry-After. */
export const headers = retryAfterFromAction;

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const draft = draftOf(formData);
  const chip = formData.get("chip");
  if (typeof chip === "string" && chip) return data<AiQuizActionData>({ draft: { ...draft, topic: chip } });

  const user = await getUser(context, request);
  if (!user) throw redirect(`/auth?${new URLSearchParams({ redirectTo: "/ai-quiz" })}`);
  const parsed = GenerateQuizSchema.safeParse(requestOf(draft));
  if (!parsed.success) return data<AiQuizActionData>({ draft, errors: firstErrors(parsed.error) }, { status: 400 });

  const { clientId, headers } = ensureClientId(request);
  try {
    const generated = await generateAndHostQuiz(context, user, { userId: user.id, clientId }, parsed.data, request.signal);
    logGameCreated(context.logger, generated.gameSession, generated.quiz.id, "ai form");
    return redirect(`/waiting/${generated.gameSession.gameCode}`, { headers });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const headers = error.retryAfterSeconds === undefined ? undefined : retryAfterHeaders(error.retryAfterSeconds);
    return data<AiQuizActionData>({ draft, formError: { title: GENERATION_FAILED.title, description: error.message } }, { status: error.status, headers });
  }
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
  quotaLimit: number;
  remainingQuizzes: number;
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
  const [draft, setDraft] = useState<AiQuizDraft>(() => actionData?.draft ?? emptyDraft());
  const [errors, setErrors] = useState<Record<string, string>>(() => actionData?.errors ?? {});
  const [failure, setFailure] = useState<ToastMessage | null>(actionData?.formError ?? null);
  const [generating, setGenerating] = useState(false);
  const topicRef = useRef<HTMLTextAreaElement>(null);
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>();

  useEffect(() => () => clearTimeout(redirectTimer.current), []);
  useEffect(() => {
    if (!actionData) return;
    setDraft(actionData.draft);
    setErrors(actionData.errors ?? {});
    setFailure(actionData.formError ?? null);
  }, [actionData]);

  const busy = generating || (navigation.state === "submitting" && navigation.formData?.get("intent") === "generate");
  const outOfQuizzes = user.remainingQuizzes <= 0;
  const cannotGenerate = busy || outOfQuizzes || notConfigured !== null;
  const update = (change: Partial<AiQuizDraft>) => setDraft((current) => ({ ...current, ...change }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = GenerateQuizSchema.safeParse(requestOf(draft));
    if (!parsed.success) {
      const found = firstErrors(parsed.error);
      setErrors(found);
      if (found.topic) {
        toast({ ...TOPIC_REQUIRED, variant: "destructive" });
        topicRef.current?.focus();
      }
      return;
    }
    setErrors({});
    setFailure(null);
    setGenerating(true);
    try {
      const response = await fetch("/api/generate-quiz", {
        method: "POST",
        headers: { "content-type": "application/json", "x-client-id": getClientId() },
        credentials: "same-origin",
        body: JSON.stringify(requestOf(draft)),
      });
      const body = (await response.json().catch(() => null)) as
        | { error?: string; quiz?: { title: string }; questions?: unknown[]; gameSession?: { gameCode: string } }
        | null;
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

      <p className="ai-quota" data-testid="ai-quota">
        {user.isGuest ? "AI quizzes left: " : "AI quizzes left today: "}
        <strong>
          {user.remainingQuizzes} of {user.quotaLimit}
        </strong>
        {user.isGuest ? (
          <>
            {" "}
            (guest). <Link to="/auth?tab=register">Register</Link> for {user.freeDailyLimit} a day.
          </>
        ) : null}
      </p>
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

      <Form method="post" noValidate onSubmit={onSubmit} className="card stack" aria-label="Generate a quiz">
        {/* The first submit button answers the Enter key: it must generate, not pick a topic chip. */}
        <button type="submit" name="intent" value="generate" className="visually-hidden" tabIndex={-1} aria-hidden="true" disabled={cannotGenerate}>
          Generate Quiz
        </button>
        <TextAreaField
          id="topic"
          label="Topic"
          name="topic"
          ref={topicRef}
          rows={3}
          maxLength={TOPIC_MAX_LENGTH}
          placeholder="e.g. The Roman Empire, 90s pop music, the solar system"
          value={draft.topic}
          error={errors.topic}
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
                  update({ topic });
                  setErrors((current) => ({ ...current, topic: "" }));
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
          name="title"
          maxLength={AI_QUIZ_TITLE_MAX_LENGTH}
          placeholder={suggestedQuizTitle(draft.topic, draft.difficulty)}
          value={draft.title}
          error={errors.title}
          onChange={(event) => update({ title: event.target.value })}
        />

        <div className="form-columns">
          <div className="field">
            <label htmlFor="difficulty">Difficulty</label>
            <select
              id="difficulty"
              name="difficulty"
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
            <FieldError id="difficulty-error" message={errors.difficulty} />
          </div>
          <div className="field">
            <label htmlFor="kinds">Question kinds</label>
            <select
              id="kinds"
              name="kinds"
              className="select"
              value={draft.kinds}
              aria-invalid={errors.kinds ? true : undefined}
              aria-describedby={errors.kinds ? "kinds-error" : undefined}
              onChange={(event) => update({ kinds: event.target.value })}
            >
              {AI_KINDS.map((kinds) => (
                <option key={kinds} value={kinds}>
                  {AI_KINDS_LABELS[kinds]}
                </option>
              ))}
            </select>
            <FieldError id="kinds-error" message={errors.kinds} />
          </div>
          <Slider
            id="questionCount"
            label="Number of questions"
            range={QUESTION_COUNT}
            value={draft.questionCount}
            shown={String(draft.questionCount)}
            error={errors.questionCount}
            onChange={(questionCount) => update({ questionCount })}
          />
          <Slider
            id="timeLimit"
            label="Time per question"
            range={SECONDS_PER_QUESTION}
            value={draft.timeLimit}
            shown={`${draft.timeLimit} seconds`}
            error={errors.timeLimit}
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
  label,
  range,
  value,
  shown,
  error,
  onChange,
}: {
  id: string;
  label: string;
  range: { min: number; max: number; step: number };
  value: number;
  shown: string;
  error?: string;
  onChange: (value: number) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}: <output htmlFor={id}>{shown}</output>
      </label>
      <input
        id={id}
        name={id}
        type="range"
        className="slider"
        min={range.min}
        max={range.max}
        step={range.step}
        value={value}
        aria-valuetext={shown}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(Number(event.target.value))}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
