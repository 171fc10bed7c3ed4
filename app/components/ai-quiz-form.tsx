import { Form, Link, useActionData, useNavigate, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { flushSync } from "react-dom";
import { Trans, useTranslation } from "#app/i18n/use-translation";
import { Field, FieldError, TextAreaField } from "./form-field";
import { useToast } from "./toaster";
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from "#app/i18n/languages";
import {
  AI_QUIZ_TITLE_MAX_LENGTH,
  AI_KINDS,
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
import { getClientId } from "#app/game/client/storage";
import type { ToastMessage } from "#app/schemas/form-schemas";
import { fieldError, fieldErrorCode, getFormProps, useSchemaForm, type FormReply, type FormValues } from "#app/forms/forms";
import { Slider } from "./slider";
import { appErrorOf, type AppError } from "#app/i18n/app-error";
import { useSayError, useSayToast } from "#app/i18n/error-text";

/** The form's fields as the page shows them: text, as typed. */
type AiQuizValues = Record<"topic" | "title" | "difficulty" | "kinds" | "questionCount" | "timeLimit" | "language", string>;

/**
 * What a refused post (without JavaScript) gave back, a field left empty showing the default it
 * stands for. The quiz's language starts as the page's.
 */
function valuesOf(values: FormValues | undefined, pageLanguage: Language): AiQuizValues {
  const shown: AiQuizValues = {
    topic: "",
    title: "",
    difficulty: DEFAULT_DIFFICULTY,
    kinds: DEFAULT_AI_KINDS,
    questionCount: String(QUESTION_COUNT.default),
    timeLimit: String(SECONDS_PER_QUESTION.default),
    language: pageLanguage,
  };
  for (const name of Object.keys(shown) as (keyof AiQuizValues)[]) shown[name] = values?.[name] || shown[name];
  return shown;
}

/** Each popular topic's key in the `quiz` catalog: a chip shows, and fills in, the topic in the page's language. */
const TOPIC_KEYS: Record<(typeof POPULAR_TOPICS)[number], string> = {
  "History & Civilizations": "history",
  "Science & Technology": "science",
  "Space & Astronomy": "space",
  "Pop Culture & Entertainment": "popCulture",
  "Animals & Nature": "animals",
  "Sports & Athletics": "sports",
  "Literature & Arts": "literature",
  "Geography & Travel": "geography",
  "Food & Cooking": "food",
  "Music & Movies": "music",
  "Business & Economics": "business",
  "Health & Medicine": "health",
};

/** The API's refusal of a generation: its English and the code it is said by (null: sent without one). */
class GenerationRefusal extends Error {
  constructor(readonly refusal: { english: string; error: AppError | null } | null) {
    super(refusal?.english ?? "generation failed");
  }
}

export interface AiQuizActionData extends FormReply {
  formError?: ToastMessage;
}

interface QuotaView {
  isGuest: boolean;
  /** null when it could not be read. */
  quota: { limit: number; remaining: number } | null;
  /** An exhausted quota's English, and the code the page says it by. */
  quotaMessage: string | null;
  quotaError: AppError | null;
  canUpgrade: boolean;
  freeDailyLimit: number;
}

export function AiQuizForm({
  user,
  notConfigured,
  notConfiguredError,
}: {
  user: QuotaView;
  notConfigured: string | null;
  notConfiguredError: AppError | null;
}) {
  const { t, language } = useTranslation("quiz");
  const pageLanguage = isLanguage(language) ? language : "en";
  const sayError = useSayError();
  const toastText = useSayToast();
  const actionData = useActionData<AiQuizActionData>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const toast = useToast();
  const [draft, setDraft] = useState<AiQuizValues>(() => valuesOf(actionData?.values, pageLanguage));
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
  // Each message is said in the page's language from the code it was raised with.
  const fieldText = (field: Parameters<typeof fieldError>[0]) => sayError(fieldErrorCode(field), fieldError(field)) || undefined;
  const topicError = fieldText(fields.topic);
  const kindsError = fieldText(fields.kinds);
  const languageError = fieldText(fields.language);

  useEffect(() => () => clearTimeout(redirectTimer.current), []);
  useEffect(() => {
    if (!actionData) return;
    setDraft(valuesOf(actionData.values, pageLanguage));
    setFailure(actionData.formError ?? null);
  }, [actionData, pageLanguage]);

  const busy = generating || (navigation.state === "submitting" && navigation.formData?.get("intent") === "generate");
  const outOfQuizzes = user.quota !== null && user.quota.remaining <= 0;
  const cannotGenerate = busy || outOfQuizzes || notConfigured !== null;
  const update = (change: Partial<AiQuizValues>) => setDraft((current) => ({ ...current, ...change }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // The schema's check: a refused post shows each message beside its field and focuses the first.
    formProps.onSubmit(event);
    // A Generate refused for its topic (not one of conform's own checks while typing) gets the Topic Required toast too (docs/product.md#messages).
    if (form.status === "error" && fieldError(fields.topic)) toast({ ...toastText(TOPIC_REQUIRED), variant: "destructive" });
  }

  function chooseTopic(topic: string) {
    // Render the chosen topic at once, so that a message beside the topic is checked against it.
    flushSync(() => update({ topic }));
    if (topicError) form.validate({ name: fields.topic.name as string });
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
        code?: string;
        values?: unknown;
        valueErrors?: unknown;
        quiz?: { title: string };
        questions?: unknown[];
        gameSession?: { gameCode: string };
      } | null;
      // Said from its code and values (docs/decisions/0047-errors-as-codes.md): an unusable reply's reason is a message of its own.
      if (!response.ok || !body?.gameSession) throw new GenerationRefusal(body?.error ? { english: body.error, error: appErrorOf(body) } : null);
      toast({
        title: t("ai.generated.title"),
        description: t("ai.generated.description", { title: body.quiz?.title, count: body.questions?.length ?? 0 }),
      });
      const gameCode = body.gameSession.gameCode;
      redirectTimer.current = setTimeout(() => navigate(`/waiting/${gameCode}`), REDIRECT_AFTER_GENERATION_MS);
    } catch (error) {
      // The API's refusal by its code; a request that never got an answer, or one with no words, as a failed generation.
      const refusal = error instanceof GenerationRefusal ? error.refusal : null;
      const message: ToastMessage = refusal
        ? {
            title: GENERATION_FAILED.title,
            description: refusal.english,
            codes: { title: GENERATION_FAILED.codes.title, description: refusal.error ?? undefined },
          }
        : GENERATION_FAILED;
      setFailure(message);
      toast({ ...toastText(message), variant: "destructive" });
      setGenerating(false);
      // The quota may have changed meanwhile (another tab, midnight UTC).
      revalidator.revalidate();
    }
  }

  return (
    <div className="form-page stack">
      <div className="stack ai-intro">
        <h1>{t("ai.heading")}</h1>
        <p className="muted">{t("ai.intro")}</p>
      </div>

      {notConfigured ? (
        <div className="card ai-notice" role="status">
          <strong>{t("ai.off")}</strong> {sayError(notConfiguredError, notConfigured)}
        </div>
      ) : null}

      {user.quota ? (
        <p className="ai-quota" data-testid="ai-quota">
          <Trans
            t={t}
            i18nKey={user.isGuest ? "ai.quotaGuest" : "ai.quota"}
            values={{ remaining: user.quota.remaining, limit: user.quota.limit, daily: user.freeDailyLimit }}
            components={{ strong: <strong />, register: <Link to="/auth?tab=register" /> }}
          />
        </p>
      ) : (
        <p className="ai-quota form-error" data-testid="ai-quota" role="status">
          {t("ai.quotaCheckFailed")}
        </p>
      )}
      {user.quotaMessage ? (
        <div className="card ai-notice" role="status">
          {sayError(user.quotaError, user.quotaMessage)}{" "}
          {user.isGuest ? (
            <Link to="/auth?tab=register">{t("ai.register")}</Link>
          ) : user.canUpgrade ? (
            <Link to="/subscription">{t("common:account.upgradePlan")}</Link>
          ) : null}
        </div>
      ) : null}

      {failure ? (
        <div className="form-error" role="alert">
          {t("form.formError", { ...toastText(failure) })}
        </div>
      ) : null}

      <Form method="post" {...formProps} onSubmit={onSubmit} className="card stack" aria-label={t("ai.formLabel")}>
        {/* The first submit button answers the Enter key: it must generate, not pick a topic chip. */}
        <button type="submit" name="intent" value="generate" className="visually-hidden" tabIndex={-1} aria-hidden="true" disabled={cannotGenerate}>
          {t("ai.generate")}
        </button>
        <TextAreaField
          id="topic"
          label={t("ai.topic")}
          name={fields.topic.name}
          rows={3}
          maxLength={TOPIC_MAX_LENGTH}
          placeholder={t("ai.topicPlaceholder")}
          value={draft.topic}
          error={topicError}
          onChange={(event) => update({ topic: event.target.value })}
        />

        <fieldset className="topic-chips">
          <legend className="label">{t("ai.popularTopics")}</legend>
          <div className="chip-list">
            {POPULAR_TOPICS.map((english) => t(`ai.topics.${TOPIC_KEYS[english]}`)).map((topic) => (
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
          label={t("ai.title")}
          name={fields.title.name}
          maxLength={AI_QUIZ_TITLE_MAX_LENGTH}
          placeholder={suggestedQuizTitle(draft.topic, draft.difficulty, isLanguage(draft.language) ? draft.language : pageLanguage)}
          value={draft.title}
          error={fieldText(fields.title)}
          onChange={(event) => update({ title: event.target.value })}
        />

        <div className="form-columns">
          <div className="field">
            <label htmlFor="difficulty">{t("ai.difficulty")}</label>
            <select
              id="difficulty"
              name={fields.difficulty.name}
              className="select"
              value={draft.difficulty}
              onChange={(event) => update({ difficulty: event.target.value })}
            >
              {DIFFICULTIES.map((difficulty) => (
                <option key={difficulty} value={difficulty}>
                  {t(`ai.difficulties.${difficulty}`)}
                </option>
              ))}
            </select>
            <FieldError id="difficulty-error" message={fieldText(fields.difficulty)} />
          </div>
          <div className="field">
            <label htmlFor="kinds">{t("ai.kinds")}</label>
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
                  {kinds === "mixed" ? t("ai.mixedKinds") : t(`kinds.${kinds}`)}
                </option>
              ))}
            </select>
            <FieldError id="kinds-error" message={kindsError} />
          </div>
          <div className="field">
            <label htmlFor="language">{t("ai.language")}</label>
            <select
              id="language"
              name={fields.language.name}
              className="select"
              value={draft.language}
              aria-invalid={languageError ? true : undefined}
              aria-describedby={languageError ? "language-error" : "language-hint"}
              onChange={(event) => update({ language: event.target.value })}
            >
              {/* Each language in its own words, as the footer's switcher names them. */}
              {LANGUAGES.map((language) => (
                <option key={language} value={language} lang={language}>
                  {LANGUAGE_NAMES[language]}
                </option>
              ))}
            </select>
            <p id="language-hint" className="hint">
              {t("ai.languageHint")}
            </p>
            <FieldError id="language-error" message={languageError} />
          </div>
          <Slider
            id="questionCount"
            name={fields.questionCount.name}
            label={t("ai.questionCount")}
            range={QUESTION_COUNT}
            value={draft.questionCount}
            shown={draft.questionCount}
            error={fieldText(fields.questionCount)}
            onChange={(questionCount) => update({ questionCount })}
          />
          <Slider
            id="timeLimit"
            name={fields.timeLimit.name}
            label={t("ai.timePerQuestion")}
            range={SECONDS_PER_QUESTION}
            value={draft.timeLimit}
            shown={t("form.seconds", { count: Number(draft.timeLimit) })}
            error={fieldText(fields.timeLimit)}
            onChange={(timeLimit) => update({ timeLimit })}
          />
        </div>

        <div className="row">
          <button type="submit" name="intent" value="generate" className="button button-large" disabled={cannotGenerate}>
            {busy ? t("ai.generating") : t("ai.generate")}
          </button>
          {busy ? <span className="hint">{t("ai.generatingHint")}</span> : null}
        </div>
      </Form>
    </div>
  );
}
