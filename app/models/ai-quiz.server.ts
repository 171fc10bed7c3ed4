import type { AppLoadContext } from "@remix-run/node";
import type { DB } from "#db/connection.server";
import { lockedForUpdate } from "#db/dialect";
import { quizLanguageOf, type GenerateQuizInput } from "#app/ai/options";
import { AI_NOT_CONFIGURED, type GenerationFailureReason } from "#app/ai/quiz-generator.server";
import { checkLimits } from "#app/limits/rate-limits.server";
import { GUEST_AI_QUIZ_LIMIT, planName } from "#app/billing/plans";
import { hostNewGame, type GameSession } from "./game.server";
import { addQuestion, createQuiz, type Question, type Quiz, type Requester } from "./quiz.server";
import { dailyAiQuizLimit } from "./plan.server";
import { aiQuizQuota, type User } from "./user.server";
import { appError, type AppError } from "#app/i18n/app-error";
import { englishErrorText } from "#app/i18n/error-english.server";

export interface GeneratedQuiz {
  quiz: Quiz;
  questions: Question[];
  gameSession: GameSession;
}

/** Why no quiz was made: the generator's reasons, and the refusals before it is asked. */
export type AiQuizFailureReason = "not-configured" | "quota-used" | "rate-limited" | GenerationFailureReason;

/**
 * Every refusal carries its code and values (`error`, docs/decisions/0047-errors-as-codes.md) and
 * its English (`message`: the catalog's words, or a rate limit's configured ones).
 */
export type AiQuizRefusal = { reason: AiQuizFailureReason; message: string; error: AppError; retryAfterSeconds?: number };

export type GenerateAndHostResult = { ok: true; value: GeneratedQuiz } | ({ ok: false } & AiQuizRefusal);

/** The refusal of an exhausted quota of `limit`, raised with its code: the limit, when it comes back, and the way to more. */
export async function quotaExhaustedError(db: DB, user: Pick<User, "isGuest" | "subscriptionTier">, limit: number): Promise<AppError> {
  if (user.isGuest) return appError("AI_QUOTA_GUEST", { limit: GUEST_AI_QUIZ_LIMIT, daily: await dailyAiQuizLimit(db, "free") });
  const plan = planName(user.subscriptionTier);
  return appError(user.subscriptionTier.toLowerCase() === "premium" ? "AI_QUOTA_USED" : "AI_QUOTA_USED_UPGRADE", { limit, plan });
}

/** What an exhausted quota of `limit` says, in English (the page's loader sends it; the catalog's words). */
export async function quotaExhaustedMessage(db: DB, user: Pick<User, "isGuest" | "subscriptionTier">, limit: number): Promise<string> {
  return englishErrorText(await quotaExhaustedError(db, user, limit));
}

async function quotaUsed(db: DB, user: User): Promise<({ ok: false } & AiQuizRefusal) | null> {
  const quota = await aiQuizQuota(db, user);
  if (quota.remaining > 0) return null;
  const error = await quotaExhaustedError(db, user, quota.limit);
  return { ok: false, reason: "quota-used", message: englishErrorText(error), error };
}

/** The one key of the server-wide daily limit (AI_DAILY_LIMIT). */
const WHOLE_SERVER = "server";

/**
 * Generates a quiz for the user, stores it (owned by the user, private) with its questions, opens a
 * game of it with this browser as host, and spends one of the user's AI quizzes: all or nothing, so
 * a failed generation costs the user nothing. The quota is checked before the (slow, paid) call and
 * again in the transaction that spends it, so concurrent requests cannot overdraw it. Every call
 * to the model costs the operator, so each also spends an attempt from the address's hourly
 * limit and the server's daily one, whatever its outcome.
 */
export async function generateAndHostQuiz(
  context: Pick<AppLoadContext, "db" | "quizGenerator" | "limits" | "clientIp" | "logger" | "metrics">,
  user: User,
  requester: Requester & { clientId: string },
  input: GenerateQuizInput,
  signal?: AbortSignal,
): Promise<GenerateAndHostResult> {
  const { db, quizGenerator: generator } = context;
  if (!generator) return { ok: false, reason: "not-configured", message: AI_NOT_CONFIGURED, error: appError("AI_NOT_CONFIGURED") };
  const exhausted = await quotaUsed(db, user);
  if (exhausted) return exhausted;
  const allowed = await checkLimits(context, [{ name: "aiAddress" }, { name: "aiServer", key: WHOLE_SERVER }]);
  if (!allowed.ok) return { ok: false, reason: "rate-limited", message: allowed.message, error: allowed.error, retryAfterSeconds: allowed.retryAfterSeconds };
  const generation = await generator.generate(
    { topic: input.topic, difficulty: input.difficulty, questionCount: input.questionCount, kinds: input.kinds, language: quizLanguageOf(input) },
    user.id,
    context.logger,
    signal,
  );
  context.metrics.aiGeneration(generation.ok);
  if (!generation.ok) return { ok: false, reason: generation.reason, message: generation.message, error: generation.error };
  return db.transaction().execute(async (trx): Promise<GenerateAndHostResult> => {
    // The user's row stays locked until this transaction ends, so another request of theirs (on
    // another connection or server, with PostgreSQL) waits here and then counts this one's spending.
    await lockedForUpdate(trx, trx.selectFrom("users").select("id").where("id", "=", user.id)).execute();
    // Nothing is written before this second look, so returning the refusal commits nothing.
    const spent = await quotaUsed(trx, user);
    if (spent) return spent;
    const quiz = await createQuiz(trx, { title: input.title, description: input.description, timeLimit: input.timeLimit, isPublic: false }, requester);
    const questions: Question[] = [];
    for (const [order, question] of generation.questions.entries()) questions.push(await addQuestion(trx, { quizId: quiz.id, ...question, order }));
    const hosted = await hostNewGame(trx, quiz.id, requester);
    if (hosted.status !== "ok") throw new Error(`A quiz just generated could not be hosted (${hosted.status}).`);
    await trx.insertInto("ai_generations").values({ user_id: user.id, quiz_id: quiz.id, created_at: Date.now() }).execute();
    const { id, gameCode, status } = hosted.value;
    return {
      ok: true,
      value: {
        quiz,
        questions,
        gameSession: { id, gameCode, status, quizId: quiz.id, title: quiz.title, description: quiz.description, timeLimit: quiz.timeLimit },
      },
    };
  });
}
