import type { DB } from "#db/connection.server";
import type { PlanRow } from "#db/schema";
import { DEFAULT_PLANS, FREE_TIER, type Plan } from "#app/billing/plans";

export function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    price: row.price_cents / 100,
    currency: row.currency,
    description: row.description,
    aiQuizLimit: row.ai_quiz_limit,
    features: JSON.parse(row.features) as string[],
  };
}

export async function listPlans(db: DB): Promise<Plan[]> {
  const rows = await db.selectFrom("plans").selectAll().orderBy("sort_order").orderBy("id").execute();
  return rows.map(toPlan);
}

export async function findPlan(db: DB, id: number): Promise<Plan | null> {
  const row = await db.selectFrom("plans").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toPlan(row) : null;
}

/** The plan a tier names (its lower-case name), else null. */
export async function findPlanByTier(db: DB, tier: string): Promise<Plan | null> {
  const row = await db
    .selectFrom("plans")
    .selectAll()
    .where((eb) => eb(eb.fn("lower", ["name"]), "=", tier.toLowerCase()))
    .executeTakeFirst();
  return row ? toPlan(row) : null;
}

/** AI quizzes a day for a tier: its plan's, else the Free plan's (a tier whose plan was removed). */
export async function dailyAiQuizLimit(db: DB, tier: string): Promise<number> {
  const plan = (await findPlanByTier(db, tier)) ?? (await findPlanByTier(db, FREE_TIER));
  return plan?.aiQuizLimit ?? DEFAULT_PLANS[0].aiQuizLimit;
}
