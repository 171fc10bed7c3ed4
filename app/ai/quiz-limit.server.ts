import type { AppLoadContext } from "@remix-run/node";
import { aiQuizQuota, type AiQuizQuota, type User } from "#app/models/user.server";

/**
 * The user's AI quiz allowance, or null when it could not be read (logged). A page shows
 * QUIZ_LIMIT_CHECK_FAILED (app/billing/plans.ts) where the count would be rather than failing whole; generating a quiz
 * checks the limit again anyway.
 */
export async function checkQuizLimit(context: Pick<AppLoadContext, "db" | "logger">, user: User): Promise<AiQuizQuota | null> {
  try {
    return await aiQuizQuota(context.db, user);
  } catch (error) {
    context.logger.error({ event: "quiz_limit_failed", userId: user.id, err: error }, "could not read the AI quiz limit");
    return null;
  }
}
