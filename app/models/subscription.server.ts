/**
 * A user's subscription as Stripe reports it through webhooks. Each event is applied at most once
 * (its id is stored in the same transaction) and an event older than the last one applied to a
 * user is ignored, since Stripe neither promises order nor single delivery.
 */
import type Stripe from "stripe";
import type { DB } from "#db/connection.server";
import type { UserRow } from "#db/schema";
import { BILLING_NOT_CONFIGURED, type Billing, type BillingResult } from "#app/billing/billing.server";
import { FREE_TIER, PLEASE_SIGN_IN, tierOf } from "#app/utils/plans";
import { findPlan, findPlanByTier } from "./plan.server";
import { findUserRowByEmail, type User } from "./user.server";
import type { Logger } from "#server/logger";

export type EventOutcome = "applied" | "duplicate" | "ignored";

/** Tells the tier a Stripe price sells, from the configured price ids and lookup keys. */
export type TierOfPrice = (price: { id: string; lookup_key: string | null }) => string | null;

/** Handled events are kept this long; Stripe stops retrying a delivery after 3 days. */
const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Statuses under which the paid tier holds (past_due: Stripe is still retrying the card). */
const PAID_STATUSES = new Set(["active", "trialing", "past_due"]);
/** Statuses that end the paid tier when the period that was paid for ends. */
const ENDING_STATUSES = new Set(["canceled", "unpaid", "incomplete_expired", "paused"]);

export interface BillingState {
  customerId: string | null;
  subscriptionId: string | null;
  status: string | null;
  /** When the paid tier ends (ms), for a subscription that was cancelled or went unpaid. */
  endsAt: number | null;
}

export async function findBillingState(db: DB, userId: number): Promise<BillingState> {
  const row = await db
    .selectFrom("users")
    .select(["stripe_customer_id", "stripe_subscription_id", "subscription_status", "subscription_ends_at"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return { customerId: row.stripe_customer_id, subscriptionId: row.stripe_subscription_id, status: row.subscription_status, endsAt: row.subscription_ends_at };
}

export async function setStripeCustomer(db: DB, userId: number, customerId: string): Promise<void> {
  await db.updateTable("users").set({ stripe_customer_id: customerId }).where("id", "=", userId).execute();
}

const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === "string" ? value : (value?.id ?? null));

async function userByCustomer(db: DB, customer: string | null): Promise<UserRow | undefined> {
  if (!customer) return undefined;
  return db.selectFrom("users").selectAll().where("stripe_customer_id", "=", customer).executeTakeFirst();
}

async function userById(db: DB, id: string | null | undefined): Promise<UserRow | undefined> {
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n <= 0) return undefined;
  return db.selectFrom("users").selectAll().where("id", "=", n).executeTakeFirst();
}

const isNewer = (user: UserRow, created: number) => user.subscription_event_at === null || created >= user.subscription_event_at;

/** A tier that names an existing plan, or null. */
async function knownTier(db: DB, tier: string | null | undefined): Promise<string | null> {
  if (!tier) return null;
  return (await findPlanByTier(db, tier)) ? tier.toLowerCase() : null;
}

async function completeCheckout(db: DB, session: Stripe.Checkout.Session, created: number): Promise<EventOutcome> {
  if (session.mode !== "subscription") return "ignored";
  const customerId = idOf(session.customer);
  const user = (await userById(db, session.client_reference_id)) ?? (await userByCustomer(db, customerId));
  if (!user) return "ignored";
  const link = { stripe_customer_id: customerId ?? user.stripe_customer_id, stripe_subscription_id: idOf(session.subscription) };
  const paid = session.payment_status === "paid" || session.payment_status === "no_payment_required";
  const tier = await knownTier(db, session.metadata?.tier);
  if (!paid || !tier || !isNewer(user, created)) {
    await db.updateTable("users").set(link).where("id", "=", user.id).execute();
    return "ignored";
  }
  await db
    .updateTable("users")
    .set({ ...link, subscription_tier: tier, subscription_status: "active", subscription_ends_at: null, subscription_event_at: created })
    .where("id", "=", user.id)
    .execute();
  return "applied";
}

async function syncSubscription(db: DB, subscription: Stripe.Subscription, created: number, tierOfPrice: TierOfPrice, log: Logger): Promise<EventOutcome> {
  const customerId = idOf(subscription.customer);
  const user = (await userByCustomer(db, customerId)) ?? (await userById(db, subscription.metadata?.userId));
  if (!user || !isNewer(user, created)) return "ignored";
  const current = user.stripe_subscription_id;
  // News of an older subscription the user has since replaced changes nothing.
  if (current && current !== subscription.id && !PAID_STATUSES.has(subscription.status)) return "ignored";
  if (subscription.status === "incomplete") return "ignored";

  const item = subscription.items.data[0];
  const tier = await knownTier(db, (item && tierOfPrice(item.price)) ?? subscription.metadata?.tier);
  if (!tier) {
    log.warn({ event: "subscription_unknown_price", subscriptionId: subscription.id }, "a subscription sells a price no plan is set up for; ignored");
    return "ignored";
  }
  const periodEnd = item ? item.current_period_end * 1000 : null;
  let endsAt: number | null = null;
  if (ENDING_STATUSES.has(subscription.status)) endsAt = periodEnd ?? Date.now();
  else if (subscription.cancel_at_period_end) endsAt = periodEnd;
  else if (subscription.cancel_at) endsAt = subscription.cancel_at * 1000;

  await db
    .updateTable("users")
    .set({
      stripe_customer_id: customerId ?? user.stripe_customer_id,
      stripe_subscription_id: subscription.id,
      subscription_tier: tier,
      subscription_status: subscription.status,
      subscription_ends_at: endsAt,
      subscription_event_at: created,
    })
    .where("id", "=", user.id)
    .execute();
  return "applied";
}

async function endSubscription(db: DB, subscription: Stripe.Subscription, created: number): Promise<EventOutcome> {
  const user = await userByCustomer(db, idOf(subscription.customer));
  if (!user || !isNewer(user, created)) return "ignored";
  if (user.stripe_subscription_id && user.stripe_subscription_id !== subscription.id) return "ignored";
  await db
    .updateTable("users")
    .set({
      subscription_tier: FREE_TIER,
      subscription_status: "canceled",
      stripe_subscription_id: null,
      subscription_ends_at: null,
      subscription_event_at: created,
    })
    .where("id", "=", user.id)
    .execute();
  return "applied";
}

/** The tier holds while Stripe retries the card; My Account asks the user to update it. */
async function markPaymentFailed(db: DB, invoice: Stripe.Invoice): Promise<EventOutcome> {
  const user = await userByCustomer(db, idOf(invoice.customer));
  if (!user?.stripe_subscription_id) return "ignored";
  await db.updateTable("users").set({ subscription_status: "past_due" }).where("id", "=", user.id).execute();
  return "applied";
}

/** Applies a verified Stripe event once; replays and unrelated events change nothing. */
export async function applyStripeEvent(db: DB, event: Stripe.Event, tierOfPrice: TierOfPrice, log: Logger, now = Date.now()): Promise<EventOutcome> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("stripe_events")
      .values({ id: event.id, type: event.type, received_at: now })
      .onConflict((conflict) => conflict.column("id").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return "duplicate";
    await trx
      .deleteFrom("stripe_events")
      .where("received_at", "<", now - EVENT_RETENTION_MS)
      .execute();

    switch (event.type) {
      case "checkout.session.completed":
        return completeCheckout(trx, event.data.object, event.created);
      case "customer.subscription.created":
      case "customer.subscription.updated":
        return syncSubscription(trx, event.data.object, event.created, tierOfPrice, log);
      case "customer.subscription.deleted":
        return endSubscription(trx, event.data.object, event.created);
      case "invoice.payment_failed":
        return markPaymentFailed(trx, event.data.object);
      default:
        return "ignored";
    }
  });
}

export type SetTierResult = { ok: true; tier: string; aiQuizLimit: number } | { ok: false; message: string };

/** For operators who do not bill: puts an account on a plan by hand, with no end date. */
export async function setTierByEmail(db: DB, email: string, tier: string): Promise<SetTierResult> {
  const plan = await findPlanByTier(db, tier);
  if (!plan) {
    const names = (await db.selectFrom("plans").select("name").orderBy("sort_order").execute()).map((row) => row.name.toLowerCase());
    return { ok: false, message: `There is no plan "${tier}". Plans: ${names.join(", ")}.` };
  }
  const user = await findUserRowByEmail(db, email);
  if (!user) return { ok: false, message: `No account has the email ${email}.` };
  await db.updateTable("users").set({ subscription_tier: plan.name.toLowerCase(), subscription_ends_at: null }).where("id", "=", user.id).execute();
  return { ok: true, tier: plan.name.toLowerCase(), aiQuizLimit: plan.aiQuizLimit };
}

/**
 * Where the browser goes to subscribe to a plan: a Stripe Checkout page, or for a subscriber the
 * customer portal, where the plan is changed or cancelled without starting a second subscription.
 */
export async function startSubscription(
  db: DB,
  billing: Billing | null,
  user: User | null,
  planId: number,
  origin: string,
  log: Logger,
): Promise<BillingResult<{ url: string }>> {
  if (!user || user.isGuest) return { ok: false, reason: "signed-out", message: PLEASE_SIGN_IN.description };
  const plan = await findPlan(db, planId);
  if (!plan) return { ok: false, reason: "not-found", message: "That plan does not exist." };
  const tier = tierOf(plan);
  if (tier === user.subscriptionTier) return { ok: false, reason: "conflict", message: `You are already on the ${plan.name} plan.` };
  if (!billing) return { ok: false, reason: "not-configured", message: BILLING_NOT_CONFIGURED };

  const state = await findBillingState(db, user.id);
  const returnUrl = `${origin}/subscription`;
  if (state.customerId && state.subscriptionId && user.subscriptionTier !== FREE_TIER) return billing.portal(state.customerId, returnUrl, log);
  if (plan.price === 0) {
    return { ok: false, reason: "conflict", message: "Your plan was set by this server's operator; ask them to change it." };
  }
  const checkout = await billing.checkout(
    {
      tier,
      planName: plan.name,
      userId: user.id,
      email: user.email,
      name: user.displayName || user.username,
      customerId: state.customerId,
      successUrl: `${returnUrl}?checkout=success`,
      cancelUrl: `${returnUrl}?checkout=cancelled`,
    },
    log,
  );
  if (!checkout.ok) return checkout;
  if (!state.customerId) await setStripeCustomer(db, user.id, checkout.value.customerId);
  return { ok: true, value: { url: checkout.value.url } };
}

/** Statuses after which Stripe charges nothing more. */
const OVER_STATUSES = new Set(["canceled", "incomplete_expired"]);

export const CANNOT_CANCEL_WITHOUT_BILLING =
  "Your account has a subscription billed through Stripe, and billing is not configured on this server now, so it cannot be cancelled from here. Ask the server's operator to cancel it, then delete your account.";

/**
 * Before an account is deleted: cancels its Stripe subscription, if one may still charge, so
 * nobody pays for an account that no longer exists. Refuses (and the account stays) when that
 * cannot be done now.
 */
export async function cancelSubscriptionOfDeletedAccount(db: DB, billing: Billing | null, userId: number, log: Logger): Promise<BillingResult<void>> {
  const state = await findBillingState(db, userId);
  if (!state.subscriptionId || (state.status !== null && OVER_STATUSES.has(state.status))) return { ok: true, value: undefined };
  if (!billing) return { ok: false, reason: "conflict", message: CANNOT_CANCEL_WITHOUT_BILLING };
  return billing.cancelSubscription(state.subscriptionId, log);
}

/** The Stripe customer portal for a user who has subscribed before. */
export async function openBillingPortal(
  db: DB,
  billing: Billing | null,
  user: User | null,
  origin: string,
  log: Logger,
): Promise<BillingResult<{ url: string }>> {
  if (!user || user.isGuest) return { ok: false, reason: "signed-out", message: "You need to be signed in to manage billing." };
  if (!billing) return { ok: false, reason: "not-configured", message: BILLING_NOT_CONFIGURED };
  const { customerId } = await findBillingState(db, user.id);
  if (!customerId) return { ok: false, reason: "not-found", message: "You have no billing account yet: subscribe to a plan first." };
  return billing.portal(customerId, `${origin}/subscription`, log);
}
