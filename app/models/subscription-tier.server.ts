/**
 * A user's tier from their subscriptions (docs/decisions/0043): the best one that is live gives
 * it, and the user row keeps it (with that subscription's status and end) so that reading a user
 * needs no join. Kept apart from subscription.server, which reads users, so the user model can
 * refresh a tier whose subscription has ended without importing it.
 */
import type { DB } from "#db/connection.server";
import type { SubscriptionRow } from "#db/schema";
import { FREE_TIER } from "#app/billing/plans";

/** Not paid for yet: the first payment of a Checkout is still under way. */
export const NOT_STARTED = "incomplete";

/**
 * Whether a subscription gives its tier now: one that sells a plan, has started, and has not ended
 * (a cancelled or unpaid one keeps its tier until the period paid for ends; a deleted one ended
 * when Stripe said so).
 */
export function holdsTier(row: SubscriptionRow, now: number): boolean {
  if (row.tier === null || row.status === NOT_STARTED || row.status === "incomplete_expired") return false;
  return row.ends_at === null || row.ends_at > now;
}

/**
 * Sets the user's tier from the best subscription that is live: the highest plan, then one that
 * renews over one that ends, then the one that ends last. With none live, a user whose paid tier
 * came from a subscription is on Free; one whose only subscriptions never started keeps the tier
 * it has (the operator's, say).
 */
export async function refreshTier(db: DB, userId: number, now = Date.now()): Promise<void> {
  const rows = await db.selectFrom("subscriptions").selectAll().where("user_id", "=", userId).execute();
  const live = rows.filter((row) => holdsTier(row, now));
  if (live.length === 0) {
    const user = await db.selectFrom("users").select("subscription_ends_at").where("id", "=", userId).executeTakeFirst();
    const ended = user?.subscription_ends_at !== null && user?.subscription_ends_at !== undefined && user.subscription_ends_at <= now;
    if (!ended && rows.every((row) => row.status === NOT_STARTED)) return;
    const last = rows.reduce<SubscriptionRow | null>((latest, row) => (!latest || row.event_at >= latest.event_at ? row : latest), null);
    await db
      .updateTable("users")
      .set({ subscription_tier: FREE_TIER, subscription_status: last?.status ?? null, subscription_ends_at: null })
      .where("id", "=", userId)
      .execute();
    return;
  }
  const plans = await db.selectFrom("plans").select(["name", "sort_order", "price_cents"]).execute();
  const rank = (tier: string | null) => {
    const plan = plans.find((candidate) => candidate.name.toLowerCase() === tier);
    return plan ? plan.sort_order * 1_000_000 + plan.price_cents : -1;
  };
  const endOf = (row: SubscriptionRow) => row.ends_at ?? Number.POSITIVE_INFINITY;
  const best = live.reduce((a, b) => (rank(b.tier) > rank(a.tier) || (rank(b.tier) === rank(a.tier) && endOf(b) > endOf(a)) ? b : a));
  await db
    .updateTable("users")
    .set({ subscription_tier: best.tier!, subscription_status: best.status, subscription_ends_at: best.ends_at })
    .where("id", "=", userId)
    .execute();
}
