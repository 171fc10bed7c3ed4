import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "#app/i18n/use-translation";
import { z } from "zod";
import { Page } from "#app/components/layout";
import { metaT } from "#app/i18n/meta";
import { GENERATION_FAILED, GenerateQuizFormSchema } from "#app/ai/options";
import { AI_NOT_CONFIGURED } from "#app/ai/quiz-generator.server";
import { generateAndHostQuiz, quotaExhaustedError } from "#app/models/ai-quiz.server";
import { appError } from "#app/i18n/app-error";
import { englishErrorText } from "#app/i18n/error-english.server";
import { dailyAiQuizLimit } from "#app/models/plan.server";
import { AI_QUIZ_FAILURE_STATUS, retryAfterHeaders, readForm } from "#app/http/api.server";
import { ensureClientId } from "#app/sessions/client-id.server";
import { parseForm } from "#app/forms/forms";
import { checkQuizLimit } from "#app/ai/quiz-limit.server";
import { getUser } from "#app/sessions/session.server";
import { logGameCreated } from "#app/game-pages/game-log.server";
import { retryAfterFromAction } from "#app/http/route-headers";
import { type AiQuizActionData, AiQuizForm } from "#app/components/ai-quiz-form";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "quiz")("meta.ai") }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getUser(context, request);
  if (!user) return { user: null };
  // null when it cannot be read: the page says so, and generating checks it again.
  const quota = await checkQuizLimit(context, user);
  // Its English and the code the page says it by (docs/decisions/0047-errors-as-codes.md).
  const quotaError = !quota || quota.remaining > 0 ? null : await quotaExhaustedError(context.db, user, quota.limit);
  return {
    user: {
      isGuest: user.isGuest,
      quota: quota && { limit: quota.limit, remaining: quota.remaining },
      freeDailyLimit: await dailyAiQuizLimit(context.db, "free"),
      quotaMessage: quotaError && englishErrorText(quotaError),
      quotaError,
      canUpgrade: !user.isGuest && user.subscriptionTier.toLowerCase() !== "premium",
    },
    notConfigured: context.quizGenerator ? null : AI_NOT_CONFIGURED,
    notConfiguredError: context.quizGenerator ? null : appError("AI_NOT_CONFIGURED"),
  };
}

/** A topic chip's button, posted without JavaScript: the topic it fills in. */
const TopicChipSchema = z.object({ chip: z.string().min(1) });

/**
 * Without JavaScript: a topic chip fills the topic; Generate makes the quiz and opens its lobby.
 * With JavaScript the page calls POST /api/generate-quiz itself (the same work; docs/product.md#ai-generation).
 */
/** A post refused by a limit carries Retry-After. */
export const headers = retryAfterFromAction;

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request, "/ai-quiz");
  const submission = parseForm(formData, GenerateQuizFormSchema);
  const { values } = submission;
  const chip = parseForm(formData, TopicChipSchema);
  if (chip.status === "success") return data<AiQuizActionData>({ values: { ...values, topic: chip.value.chip } });

  const user = await getUser(context, request);
  if (!user) throw redirect(`/auth?${new URLSearchParams({ redirectTo: "/ai-quiz" })}`);
  if (submission.status !== "success") return data<AiQuizActionData>({ values, errors: submission.errors, codes: submission.codes }, { status: 400 });

  const { clientId, headers } = ensureClientId(request);
  const result = await generateAndHostQuiz(context, user, { userId: user.id, clientId }, submission.value, request.signal);
  if (!result.ok) {
    const headers = result.retryAfterSeconds === undefined ? undefined : retryAfterHeaders(result.retryAfterSeconds);
    const status = AI_QUIZ_FAILURE_STATUS[result.reason];
    const formError = {
      title: GENERATION_FAILED.title,
      description: result.message,
      codes: { title: GENERATION_FAILED.codes.title, description: result.error },
    };
    return data<AiQuizActionData>({ values, formError }, { status, headers });
  }
  const generated = result.value;
  logGameCreated(context.logger, generated.gameSession, generated.quiz.id, "ai form");
  return redirect(`/waiting/${generated.gameSession.gameCode}`, { headers });
}

export default function AiQuiz() {
  const { user, notConfigured, notConfiguredError } = useLoaderData<typeof loader>();
  return (
    <Page>{user ? <AiQuizForm user={user} notConfigured={notConfigured ?? null} notConfiguredError={notConfiguredError ?? null} /> : <LoginRequired />}</Page>
  );
}

function LoginRequired() {
  const { t } = useTranslation("quiz");
  return (
    <div className="card stack center ai-login-required">
      <h1>{t("ai.loginRequired.heading")}</h1>
      <p>{t("ai.loginRequired.text")}</p>
      <div className="row hero-actions">
        <Link to={`/auth?${new URLSearchParams({ redirectTo: "/ai-quiz" })}`} className="button">
          {t("ai.loginRequired.signIn")}
        </Link>
        <Link to="/" className="button button-secondary">
          {t("ai.loginRequired.home")}
        </Link>
      </div>
    </div>
  );
}
