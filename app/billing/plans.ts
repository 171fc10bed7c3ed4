/**
 * Subscription plans as the browser sees them (docs/product.md#plans), and the built-in
 * defaults that the page shows when the plans cannot be loaded. The plans themselves live in the
 * database (migration 2026-11-23T0000-subscriptions seeds the same defaults).
 */
export interface Plan {
  id: number;
  name: string;
  /** Per month, e.g. 4.99. */
  price: number;
  currency: string;
  description: string;
  /** AI quizzes per day. */
  aiQuizLimit: number;
  features: string[];
}

export const GUEST_AI_QUIZ_LIMIT = 5;

/** What a page or the API says when the AI quiz limit cannot be read (docs/product.md#messages). */
export const QUIZ_LIMIT_CHECK_FAILED = "Failed to check quiz limit";

/** The subscription messages of docs/product.md#messages. */
export const PLEASE_SIGN_IN = { title: "Please sign in", description: "You need to be signed in to subscribe to a plan." };
export const SUBSCRIPTION_ERROR = { title: "Error", description: "Failed to create subscription. Please try again." };

export const DEFAULT_PLANS: Plan[] = [
  {
    id: 1,
    name: "Free",
    price: 0,
    currency: "usd",
    description: "For trying Quiz Night out and the occasional quiz night.",
    aiQuizLimit: 10,
    features: ["10 AI quizzes per day", "Create and host your own quizzes", "Live games with players on any device"],
  },
  {
    id: 2,
    name: "Standard",
    price: 4.99,
    currency: "usd",
    description: "For hosts who run a quiz night every week.",
    aiQuizLimit: 50,
    features: ["50 AI quizzes per day", "Everything in Free", "Supports the project's development"],
  },
  {
    id: 3,
    name: "Premium",
    price: 9.99,
    currency: "usd",
    description: "For clubs, schools and pubs that quiz every day.",
    aiQuizLimit: 100,
    features: ["Unlimited AI quizzes (fair use: 100 per day)", "Everything in Standard", "First in line for new features"],
  },
];

export const FREE_TIER = "free";

/** A user's tier is the lower-case name of a plan. */
export function tierOf(plan: Pick<Plan, "name">): string {
  return plan.name.toLowerCase();
}

/** A tier as a plan's name: "free" -> "Free". */
export function planName(tier: string): string {
  const lower = tier.toLowerCase();
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}

/**
 * The default plans' texts, word for word as the migration seeds them, and their keys in the
 * `account` catalog: the page says them in its language. An operator's own texts have no key and
 * are shown as written; a plan's name is a product name, never translated.
 */
export const DEFAULT_PLAN_TEXT_KEYS: ReadonlyMap<string, string> = new Map([
  ["For trying Quiz Night out and the occasional quiz night.", "plans.free.description"],
  ["10 AI quizzes per day", "plans.free.aiQuizzes"],
  ["Create and host your own quizzes", "plans.free.create"],
  ["Live games with players on any device", "plans.free.live"],
  ["For hosts who run a quiz night every week.", "plans.standard.description"],
  ["50 AI quizzes per day", "plans.standard.aiQuizzes"],
  ["Everything in Free", "plans.standard.everything"],
  ["Supports the project's development", "plans.standard.support"],
  ["For clubs, schools and pubs that quiz every day.", "plans.premium.description"],
  ["Unlimited AI quizzes (fair use: 100 per day)", "plans.premium.aiQuizzes"],
  ["Everything in Standard", "plans.premium.everything"],
  ["First in line for new features", "plans.premium.first"],
]);

/** "$4.99", "4,99 $", "4,99 $US" ... in the plan's currency, written the way `locale` writes prices. */
export function formatPrice(plan: Pick<Plan, "price" | "currency">, locale: string): string {
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency: plan.currency.toUpperCase(),
    minimumFractionDigits: Number.isInteger(plan.price) ? 0 : 2,
  }).format(plan.price);
}
