/** Spec section 9's default plans; the subscriptions issue moves them into the database. */
export const GUEST_AI_QUIZ_LIMIT = 5;

export const DAILY_AI_QUIZ_LIMITS: Record<string, number> = {
  free: 10,
  standard: 50,
  premium: 100,
};

export function dailyAiQuizLimit(tier: string): number {
  return DAILY_AI_QUIZ_LIMITS[tier.toLowerCase()] ?? DAILY_AI_QUIZ_LIMITS.free;
}

/** A tier as a plan's name: "free" -> "Free". */
export function planName(tier: string): string {
  const lower = tier.toLowerCase();
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}
