/**
 * Stripe through its SDK: Checkout Sessions for subscriptions, the customer portal, and webhook
 * signatures. `STRIPE_API_BASE` points the SDK at another host (a local Stripe mock or a test fake).
 *
 * Like the quiz generator, it is built in server.ts from the source tree and called from routes in
 * the app build, so it reports failures as data, never as an error class of its own.
 */
import Stripe from "stripe";
import { SUBSCRIPTION_ERROR } from "#app/billing/plans";
import type { Logger } from "#server/logger";
import { appError, type AppError } from "#app/i18n/app-error";

export interface BillingConfig {
  secretKey?: string;
  webhookSecret?: string;
  /** Stripe price ids by tier (STRIPE_PRICE_STANDARD, STRIPE_PRICE_PREMIUM). */
  prices: Record<string, string | undefined>;
  /** e.g. http://127.0.0.1:12111; unset for api.stripe.com. */
  apiBase?: string;
}

/**
 * Why billing refused, for the route to answer with (api.server's BILLING_FAILURE_STATUS); the
 * message is for the user.
 */
export type BillingFailure =
  | "signed-out"
  | "not-found"
  /** Already so, or not something this server can change (a plan the operator set). */
  | "conflict"
  /** Billing, a price or webhooks are not set up on this server. */
  | "not-configured"
  | "bad-signature"
  /** Stripe failed or answered something unusable. */
  | "stripe-failed";

/** A refusal the interface shows carries its code (`error`, docs/decisions/0047-errors-as-codes.md); the webhook's, for Stripe alone, only English. */
export type BillingResult<T> = { ok: true; value: T } | { ok: false; reason: BillingFailure; message: string; error?: AppError };

export const BILLING_NOT_CONFIGURED =
  "Billing is not configured on this server, so plans cannot be bought here. The operator can set STRIPE_SECRET_KEY to turn it on, or set your plan with `npm run user -- set-tier`.";
const SUBSCRIPTION_FAILED = SUBSCRIPTION_ERROR.description;
export const SUBSCRIPTION_NOT_CANCELLED =
  "Your subscription could not be cancelled with Stripe just now, so your account was not deleted (and you are not charged twice). Please try again in a moment, or cancel it under Manage billing first.";

/** Statuses after which Stripe charges nothing more. */
const ENDED_STATUSES = new Set(["canceled", "incomplete_expired"]);

/** Lookup key of a tier's price when no price id is configured: quiz_night_standard, ... */
export function priceLookupKey(tier: string): string {
  return `quiz_night_${tier.toLowerCase()}`;
}

export function isBillingConfigured(config: BillingConfig | null | undefined): config is BillingConfig & { secretKey: string } {
  return Boolean(config?.secretKey);
}

export function describeBillingConfig(config: BillingConfig | null | undefined): string {
  if (!isBillingConfigured(config)) return "Billing is off: set STRIPE_SECRET_KEY to sell plans (or set tiers with `npm run user -- set-tier`).";
  const webhooks = config.webhookSecret
    ? "webhooks verified with STRIPE_WEBHOOK_SECRET"
    : "STRIPE_WEBHOOK_SECRET is unset, so plan changes from Stripe are refused";
  return `Billing is on through ${config.apiBase ?? "api.stripe.com"}; ${webhooks}.`;
}

/**
 * Where a form post may be redirected for billing (CSP form-action): Stripe's Checkout and portal
 * pages, or the stand-in at STRIPE_API_BASE, which serves both.
 */
export function billingPageOrigins(config: BillingConfig | null | undefined): string[] {
  if (!isBillingConfigured(config)) return [];
  return config.apiBase ? [new URL(config.apiBase).origin] : ["https://checkout.stripe.com", "https://billing.stripe.com"];
}

function connectionOptions(apiBase: string | undefined): Stripe.StripeConfig {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port || (protocol === "http" ? 80 : 443), protocol };
}

export interface CheckoutRequest {
  tier: string;
  planName: string;
  userId: number;
  email: string | null;
  name: string;
  /** The user's Stripe customer, when there is one already. */
  customerId: string | null;
  successUrl: string;
  cancelUrl: string;
}

export class Billing {
  private readonly stripe: Stripe;

  constructor(private readonly config: BillingConfig & { secretKey: string }) {
    this.stripe = new Stripe(config.secretKey, { ...connectionOptions(config.apiBase), maxNetworkRetries: 1, timeout: 20_000 });
  }

  /** The price of a tier: its configured id, else the active price with the tier's lookup key. */
  private async priceOf(tier: string, planName: string, log: Logger): Promise<BillingResult<string>> {
    const configured = this.config.prices[tier];
    if (configured) return { ok: true, value: configured };
    const found = await this.stripe.prices.list({ lookup_keys: [priceLookupKey(tier)], active: true, limit: 1 });
    if (found.data[0]) return { ok: true, value: found.data[0].id };
    log.warn(
      { event: "billing_no_price", tier },
      `no Stripe price for ${tier}: set STRIPE_PRICE_${tier.toUpperCase()} or the lookup key ${priceLookupKey(tier)}`,
    );
    return {
      ok: false,
      reason: "not-configured",
      message: `The ${planName} plan has no price in Stripe yet. The operator sets STRIPE_PRICE_${tier.toUpperCase()} or gives a price the lookup key ${priceLookupKey(tier)}.`,
      error: appError("PLAN_HAS_NO_PRICE", { plan: planName, variable: `STRIPE_PRICE_${tier.toUpperCase()}`, lookupKey: priceLookupKey(tier) }),
    };
  }

  /**
   * A Checkout Session in subscription mode for the tier's price, for the user's Stripe customer
   * (created on first use). Returns its url and the customer id to keep.
   */
  async checkout(request: CheckoutRequest, log: Logger): Promise<BillingResult<{ url: string; customerId: string }>> {
    try {
      const price = await this.priceOf(request.tier, request.planName, log);
      if (!price.ok) return price;
      const metadata = { userId: String(request.userId), tier: request.tier };
      const customerId =
        request.customerId ??
        (await this.stripe.customers.create({ email: request.email ?? undefined, name: request.name, metadata: { userId: metadata.userId } })).id;
      const session = await this.stripe.checkout.sessions.create({
        mode: "subscription",
        customer: customerId,
        client_reference_id: metadata.userId,
        line_items: [{ price: price.value, quantity: 1 }],
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        metadata,
        subscription_data: { metadata },
      });
      if (!session.url) return { ok: false, reason: "stripe-failed", message: SUBSCRIPTION_FAILED, error: appError("SUBSCRIPTION_FAILED") };
      return { ok: true, value: { url: session.url, customerId } };
    } catch (error) {
      return this.failed(log, "create a checkout session", error);
    }
  }

  /** The customer portal, where a subscriber changes plan, updates the card or cancels. */
  async portal(customerId: string, returnUrl: string, log: Logger): Promise<BillingResult<{ url: string }>> {
    try {
      const session = await this.stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
      return { ok: true, value: { url: session.url } };
    } catch (error) {
      return this.failed(log, "open the customer portal", error, "Could not open billing. Please try again.", appError("BILLING_PORTAL_FAILED"));
    }
  }

  /**
   * Cancels a subscription at once (no further charge), for an account being deleted; one Stripe
   * no longer has counts as cancelled.
   */
  async cancelSubscription(subscriptionId: string, log: Logger): Promise<BillingResult<void>> {
    try {
      await this.stripe.subscriptions.cancel(subscriptionId);
      return { ok: true, value: undefined };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return { ok: true, value: undefined };
      return this.failed(log, "cancel a subscription", error, SUBSCRIPTION_NOT_CANCELLED, appError("SUBSCRIPTION_NOT_CANCELLED"));
    }
  }

  /**
   * Ends what customers can still be charged for, for an account being deleted: expires their open
   * Checkout Sessions first (a tab left open cannot start a subscription afterwards; one that
   * completed meanwhile has a subscription, listed next), then cancels every subscription Stripe
   * lists for them and every one in `subscriptionIds` (those the webhooks told of).
   */
  async closeCustomers(customerIds: string[], subscriptionIds: string[], log: Logger): Promise<BillingResult<void>> {
    const ids = new Set(subscriptionIds);
    try {
      for (const customerId of customerIds) {
        // Read whole before acting: expiring a session while paging through open ones would move the pages.
        const open = await this.stripe.checkout.sessions.list({ customer: customerId, status: "open", limit: 100 }).autoPagingToArray({ limit: 10_000 });
        for (const session of open) {
          try {
            await this.stripe.checkout.sessions.expire(session.id);
          } catch (error) {
            // Completed or expired meanwhile: nothing to expire (a subscription it started is listed below).
            if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
          }
        }
        const listed = await this.stripe.subscriptions.list({ customer: customerId, limit: 100 }).autoPagingToArray({ limit: 10_000 });
        for (const subscription of listed) if (!ENDED_STATUSES.has(subscription.status)) ids.add(subscription.id);
      }
    } catch (error) {
      return this.failed(
        log,
        "expire Checkouts and list subscriptions of an account being deleted",
        error,
        SUBSCRIPTION_NOT_CANCELLED,
        appError("SUBSCRIPTION_NOT_CANCELLED"),
      );
    }
    for (const id of ids) {
      const cancelled = await this.cancelSubscription(id, log);
      if (!cancelled.ok) return cancelled;
    }
    return { ok: true, value: undefined };
  }

  /** The tier a Stripe price sells: a configured price id, else a quiz_night_<tier> lookup key. */
  tierOfPrice(price: { id: string; lookup_key: string | null }): string | null {
    for (const [tier, id] of Object.entries(this.config.prices)) if (id && id === price.id) return tier;
    return /^quiz_night_([a-z0-9_-]+)$/.exec(price.lookup_key ?? "")?.[1] ?? null;
  }

  /** The event, if the signature over the raw body is Stripe's (signed with STRIPE_WEBHOOK_SECRET). */
  verifyWebhook(rawBody: Buffer, signature: string | null): BillingResult<Stripe.Event> {
    if (!this.config.webhookSecret)
      return { ok: false, reason: "not-configured", message: "Stripe webhooks are not configured on this server (STRIPE_WEBHOOK_SECRET)." };
    if (!signature) return { ok: false, reason: "bad-signature", message: "Missing Stripe-Signature header." };
    try {
      return { ok: true, value: this.stripe.webhooks.constructEvent(rawBody, signature, this.config.webhookSecret) };
    } catch {
      return { ok: false, reason: "bad-signature", message: "Webhook signature verification failed." };
    }
  }

  private failed(log: Logger, what: string, error: unknown, message = SUBSCRIPTION_FAILED, refusal = appError("SUBSCRIPTION_FAILED")): BillingResult<never> {
    const detail = error instanceof Stripe.errors.StripeError ? `${error.type} ${error.statusCode ?? ""}: ${error.message}` : String(error);
    log.warn({ event: "billing_failed", detail }, `could not ${what}`);
    return { ok: false, reason: "stripe-failed", message, error: refusal };
  }
}
