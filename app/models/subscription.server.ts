/**
 * A user's subscriptions as Stripe reports them through webhooks. Each event is applied at most
 * once (its id is stored in the same transaction) and an event older than the last one applied to
 * a subscription is ignored, since Stripe neither promises order nor single delivery. Every
 * subscription a user has is kept (two Checkouts completed at once are two subscriptions), and the
 * user's tier follows the best one that is live; one for an account that does not exist (deleted
 * while a Checkout tab was open) is cancelled (docs/decisions/0043).
 */
import type Stripe from "stripe";
import type { DB } from "#db/connection.server";
import { lockUntilCommit } from "#db/locks.server";
import type { SubscriptionRow, UserRow } from "#db/schema";
import { BILLING_NOT_CONFIGURED, type Billing, type BillingResult } from "#app/billing/billing.server";
import { FREE_TIER, PLEASE_SIGN_IN, tierOf } from "#app/billing/plans";
import { findPlan, findPlanByTier } from "./plan.server";
import { holdsTier, NOT_STARTED, refreshTier } from "./subscription-tier.server";
import { findUserRowByEmail, type User } from "./user.server";
import type { Logger } from "#server/logger";
import { appError } from "#app/i18n/app-error";

/** `cancelled`: the event was about an account that does not exist, and its subscription was cancelled. */
export type EventOutcome = "applied" | "duplicate" | "ignored" | "cancelled";

/** Tells the tier a Stripe price sells, from the configured price ids and lookup keys. */
export type TierOfPrice = (price: { id: string; lookup_key: string | null }) => string | null;

/** Handled events are kept this long; Stripe stops retrying a delivery after 3 days. */
const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Statuses that end the paid tier when the period that was paid for ends. */
const ENDING_STATUSES = new Set(["canceled", "unpaid", "incomplete_expired", "paused"]);
/** Statuses after which Stripe charges nothing more. */
const OVER_STATUSES = new Set(["canceled", "incomplete_expired"]);

/** Whether Stripe may still charge for it. */
const mayCharge = (row: SubscriptionRow) => !OVER_STATUSES.has(row.status);

export interface BillingState {
  customerId: string | null;
  /** The subscriptions that give a tier now. */
  live: SubscriptionRow[];
  /** A live subscription's last payment failed (Stripe is retrying the card). */
  paymentFailed: boolean;
  /** When the paid tier ends (ms), for a subscription that was cancelled or went unpaid. */
  endsAt: number | null;
}

export async function findBillingState(db: DB, userId: number, now = Date.now()): Promise<BillingState> {
  const row = await db.selectFrom("users").select(["stripe_customer_id", "subscription_ends_at"]).where("id", "=", userId).executeTakeFirstOrThrow();
  const rows = await db.selectFrom("subscriptions").selectAll().where("user_id", "=", userId).execute();
  const live = rows.filter((subscription) => holdsTier(subscription, now));
  return {
    customerId: row.stripe_customer_id,
    live,
    paymentFailed: live.some((subscription) => subscription.status === "past_due"),
    endsAt: row.subscription_ends_at,
  };
}

export async function setStripeCustomer(db: DB, userId: number, customerId: string): Promise<void> {
  await db.updateTable("users").set({ stripe_customer_id: customerId }).where("id", "=", userId).execute();
}

const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === "string" ? value : (value?.id ?? null));

async function userByCustomer(db: DB, customer: string | null): Promise<UserRow | undefined> {
  if (!customer) return undefined;
  return db.selectFrom("users").selectAll().where("stripe_customer_id", "=", customer).executeTakeFirst();
}

/**
 * The user an id in Stripe metadata names (only our secret key writes it; user ids are never
 * reused). It may have another customer than the object's, when two first Checkouts raced to
 * create one: the subscription is theirs all the same.
 */
async function userById(db: DB, id: string | null | undefined): Promise<UserRow | undefined> {
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n <= 0) return undefined;
  return db.selectFrom("users").selectAll().where("id", "=", n).executeTakeFirst();
}

/** A tier that names an existing plan, or null. */
async function knownTier(db: DB, tier: string | null | undefined): Promise<string | null> {
  if (!tier) return null;
  return (await findPlanByTier(db, tier)) ? tier.toLowerCase() : null;
}

async function findSubscription(db: DB, id: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom("subscriptions").selectAll().where("id", "=", id).executeTakeFirst();
}

async function linkCustomer(db: DB, user: UserRow, customerId: string | null): Promise<void> {
  if (customerId && !user.stripe_customer_id) await setStripeCustomer(db, user.id, customerId);
}

/**
 * Whether a Checkout Session or subscription was started by Quiz Night (its Checkout puts the
 * account's id in both's metadata): one of another product on the same Stripe account is none of
 * ours to cancel.
 */
const madeHere = (object: { metadata: Stripe.Metadata | null }) => Boolean(object.metadata?.userId);

/** What an event asks: an outcome, or that a subscription of no account be cancelled. */
type Effect = EventOutcome | { cancel: string };

async function completeCheckout(db: DB, session: Stripe.Checkout.Session, created: number, now: number): Promise<Effect> {
  if (session.mode !== "subscription") return "ignored";
  const customerId = idOf(session.customer);
  const subscriptionId = idOf(session.subscription);
  const user = (await userById(db, session.client_reference_id)) ?? (await userByCustomer(db, customerId));
  if (!user) return subscriptionId && madeHere(session) ? { cancel: subscriptionId } : "ignored";
  await linkCustomer(db, user, customerId);
  if (!subscriptionId) return "ignored";
  const paid = session.payment_status === "paid" || session.payment_status === "no_payment_required";
  const tier = await knownTier(db, session.metadata?.tier);
  const existing = await findSubscription(db, subscriptionId);
  if (!existing) {
    await db
      .insertInto("subscriptions")
      .values({ id: subscriptionId, user_id: user.id, customer_id: customerId, tier, status: paid ? "active" : NOT_STARTED, ends_at: null, event_at: created })
      .execute();
  } else if (paid && existing.status === NOT_STARTED && existing.event_at <= created) {
    // Its subscription's own events came first and said it was not paid yet: now it is.
    await db
      .updateTable("subscriptions")
      .set({ status: "active", tier: existing.tier ?? tier, event_at: created })
      .where("id", "=", subscriptionId)
      .execute();
  }
  await refreshTier(db, user.id, now);
  return paid && tier ? "applied" : "ignored";
}

async function syncSubscription(
  db: DB,
  subscription: Stripe.Subscription,
  created: number,
  tierOfPrice: TierOfPrice,
  log: Logger,
  now: number,
): Promise<Effect> {
  const customerId = idOf(subscription.customer);
  const user = (await userByCustomer(db, customerId)) ?? (await userById(db, subscription.metadata?.userId));
  if (!user) return OVER_STATUSES.has(subscription.status) || !madeHere(subscription) ? "ignored" : { cancel: subscription.id };
  const existing = await findSubscription(db, subscription.id);
  if (existing && (existing.user_id !== user.id || existing.event_at > created)) return "ignored";
  await linkCustomer(db, user, customerId);

  const item = subscription.items.data[0];
  const tier = await knownTier(db, (item && tierOfPrice(item.price)) ?? subscription.metadata?.tier);
  if (!tier)
    log.warn({ event: "subscription_unknown_price", subscriptionId: subscription.id }, "a subscription sells a price no plan is set up for; it gives no tier");
  const periodEnd = item ? item.current_period_end * 1000 : null;
  let endsAt: number | null = null;
  if (ENDING_STATUSES.has(subscription.status)) endsAt = periodEnd ?? now;
  else if (subscription.cancel_at_period_end) endsAt = periodEnd;
  else if (subscription.cancel_at) endsAt = subscription.cancel_at * 1000;

  const values = { customer_id: customerId, tier, status: subscription.status, ends_at: endsAt, event_at: created };
  await db
    .insertInto("subscriptions")
    .values({ id: subscription.id, user_id: user.id, ...values })
    .onConflict((conflict) => conflict.column("id").doUpdateSet(values))
    .execute();
  await refreshTier(db, user.id, now);
  return tier && subscription.status !== NOT_STARTED ? "applied" : "ignored";
}

async function endSubscription(db: DB, subscription: Stripe.Subscription, created: number, now: number): Promise<Effect> {
  const existing = await findSubscription(db, subscription.id);
  const user = existing ? { id: existing.user_id } : await userByCustomer(db, idOf(subscription.customer));
  if (!user || (existing && existing.event_at > created)) return "ignored";
  const values = { status: "canceled", ends_at: now, event_at: created };
  await db
    .insertInto("subscriptions")
    .values({ id: subscription.id, user_id: user.id, customer_id: idOf(subscription.customer), tier: existing?.tier ?? null, ...values })
    .onConflict((conflict) => conflict.column("id").doUpdateSet(values))
    .execute();
  await refreshTier(db, user.id, now);
  return "applied";
}

/** The tier holds while Stripe retries the card; My Account asks the user to update it. */
async function markPaymentFailed(db: DB, invoice: Stripe.Invoice, now: number): Promise<Effect> {
  const user = await userByCustomer(db, idOf(invoice.customer));
  if (!user) return "ignored";
  const named = idOf(invoice.parent?.subscription_details?.subscription);
  const rows = (await db.selectFrom("subscriptions").selectAll().where("user_id", "=", user.id).execute()).filter(
    (row) => (named ? row.id === named : true) && holdsTier(row, now),
  );
  if (rows.length === 0) return "ignored";
  await db
    .updateTable("subscriptions")
    .set({ status: "past_due" })
    .where(
      "id",
      "in",
      rows.map((row) => row.id),
    )
    .execute();
  await refreshTier(db, user.id, now);
  return "applied";
}

/**
 * Applies a verified Stripe event once; replays and unrelated events change nothing. An event
 * about a subscription whose account does not exist (deleted, or never ours) cancels that
 * subscription through Stripe; the event is recorded only once that worked, so a failure answers
 * an error and Stripe delivers it again.
 */
export async function applyStripeEvent(
  db: DB,
  billing: Pick<Billing, "cancelSubscription" | "tierOfPrice">,
  event: Stripe.Event,
  log: Logger,
  now = Date.now(),
): Promise<BillingResult<EventOutcome>> {
  const tierOfPrice: TierOfPrice = (price) => billing.tierOfPrice(price);
  const effect = await db.transaction().execute(async (trx): Promise<Effect> => {
    // One event at a time on every server (a few a day): each reads what the ones before it wrote,
    // as SQLite's one writer had it, so two events of one account cannot each miss the other's change.
    await lockUntilCommit(trx, "stripe-events");
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

    let effect: Effect;
    switch (event.type) {
      case "checkout.session.completed":
        effect = await completeCheckout(trx, event.data.object, event.created, now);
        break;
      case "customer.subscription.created":
      case "customer.subscription.updated":
        effect = await syncSubscription(trx, event.data.object, event.created, tierOfPrice, log, now);
        break;
      case "customer.subscription.deleted":
        effect = await endSubscription(trx, event.data.object, event.created, now);
        break;
      case "invoice.payment_failed":
        effect = await markPaymentFailed(trx, event.data.object, now);
        break;
      default:
        effect = "ignored";
    }
    // Not handled until the cancellation below has gone through.
    if (typeof effect === "object") await trx.deleteFrom("stripe_events").where("id", "=", event.id).execute();
    return effect;
  });
  if (typeof effect === "string") return { ok: true, value: effect };

  const cancelled = await billing.cancelSubscription(effect.cancel, log);
  if (!cancelled.ok) return cancelled;
  await db
    .insertInto("stripe_events")
    .values({ id: event.id, type: event.type, received_at: now })
    .onConflict((conflict) => conflict.column("id").doNothing())
    .execute();
  log.info({ event: "subscription_of_no_account_cancelled", subscriptionId: effect.cancel, type: event.type }, "cancelled a subscription no account has");
  return { ok: true, value: "cancelled" };
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
  if (!user || user.isGuest) return { ok: false, reason: "signed-out", message: PLEASE_SIGN_IN.description, error: appError("SIGN_IN_TO_SUBSCRIBE") };
  const plan = await findPlan(db, planId);
  if (!plan) return { ok: false, reason: "not-found", message: "That plan does not exist.", error: appError("PLAN_NOT_FOUND") };
  const tier = tierOf(plan);
  if (tier === user.subscriptionTier)
    return { ok: false, reason: "conflict", message: `You are already on the ${plan.name} plan.`, error: appError("ALREADY_ON_PLAN", { plan: plan.name }) };
  if (!billing) return { ok: false, reason: "not-configured", message: BILLING_NOT_CONFIGURED, error: appError("BILLING_NOT_CONFIGURED") };

  const state = await findBillingState(db, user.id);
  const returnUrl = `${origin}/subscription`;
  if (state.customerId && state.live.length > 0 && user.subscriptionTier !== FREE_TIER) return billing.portal(state.customerId, returnUrl, log);
  if (plan.price === 0) {
    return {
      ok: false,
      reason: "conflict",
      message: "Your plan was set by this server's operator; ask them to change it.",
      error: appError("PLAN_SET_BY_OPERATOR"),
    };
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

export const CANNOT_CANCEL_WITHOUT_BILLING =
  "Your account has a subscription billed through Stripe, and billing is not configured on this server now, so it cannot be cancelled from here. Ask the server's operator to cancel it, then delete your account.";

/**
 * Before an account is deleted: expires its customer's open Checkout Sessions (a tab left open
 * cannot start a subscription afterwards) and cancels every subscription of the customer that may
 * still charge, those Stripe lists and those we were told of, so nobody pays for an account that
 * no longer exists. Refuses (and the account stays) when that cannot be done now.
 */
export async function cancelSubscriptionsOfDeletedAccount(db: DB, billing: Billing | null, userId: number, log: Logger): Promise<BillingResult<void>> {
  const user = await db.selectFrom("users").select("stripe_customer_id").where("id", "=", userId).executeTakeFirstOrThrow();
  const rows = await db.selectFrom("subscriptions").selectAll().where("user_id", "=", userId).execute();
  const known = rows.filter(mayCharge);
  // The user's customer, and any other a subscription of theirs belongs to (two first Checkouts that raced).
  const customers = [...new Set([user.stripe_customer_id, ...rows.map((row) => row.customer_id)])].filter((id): id is string => id !== null);
  if (customers.length === 0 && known.length === 0) return { ok: true, value: undefined };
  if (!billing)
    return known.length === 0
      ? { ok: true, value: undefined }
      : { ok: false, reason: "conflict", message: CANNOT_CANCEL_WITHOUT_BILLING, error: appError("CANNOT_CANCEL_WITHOUT_BILLING") };
  return billing.closeCustomers(
    customers,
    known.map((row) => row.id),
    log,
  );
}

/** The Stripe customer portal for a user who has subscribed before. */
export async function openBillingPortal(
  db: DB,
  billing: Billing | null,
  user: User | null,
  origin: string,
  log: Logger,
): Promise<BillingResult<{ url: string }>> {
  if (!user || user.isGuest)
    return { ok: false, reason: "signed-out", message: "You need to be signed in to manage billing.", error: appError("SIGN_IN_TO_MANAGE_BILLING") };
  if (!billing) return { ok: false, reason: "not-configured", message: BILLING_NOT_CONFIGURED, error: appError("BILLING_NOT_CONFIGURED") };
  const { customerId } = await findBillingState(db, user.id);
  if (!customerId)
    return { ok: false, reason: "not-found", message: "You have no billing account yet: subscribe to a plan first.", error: appError("NO_BILLING_ACCOUNT") };
  return billing.portal(customerId, `${origin}/subscription`, log);
}
