/**
 * Plans, Stripe Checkout, the customer portal and webhooks against the real server, a real SQLite
 * file and the real `stripe` SDK, pointed (STRIPE_API_BASE) at a local stand-in for Stripe's API.
 * Webhooks are signed with the SDK's own test-header helper.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeStripe, type FakeStripe } from "#tests/fakes/stripe";
import { signInAs, startTestServer, type SignedIn, type TestServer } from "./harness";

const WEBHOOK_SECRET = "whsec_integration_test_secret";
const STANDARD_PRICE = "price_standard_configured";
const BILLING_NOT_CONFIGURED =
  "Billing is not configured on this server, so plans cannot be bought here. The operator can set STRIPE_SECRET_KEY to turn it on, or set your plan with `npm run user -- set-tier`.";

const signer = new Stripe("sk_test_signer_only");
let stripe: FakeStripe;
let server: TestServer;

beforeAll(async () => {
  stripe = await startFakeStripe();
  // Standard has a configured price id; Premium is found by its lookup key.
  server = await startTestServer({
    billing: { secretKey: "sk_test_integration", webhookSecret: WEBHOOK_SECRET, prices: { standard: STANDARD_PRICE }, apiBase: stripe.apiBase },
  });
});

afterAll(async () => {
  await server?.stop();
  await stripe?.close();
});

type Caller = SignedIn;
const signIn = (target: TestServer = server, kind: "user" | "guest" = "user") => signInAs(target, kind);

const PLAN_IDS = { free: 1, standard: 2, premium: 3 };

function createSession(caller: Caller | null, planId: unknown, target: TestServer = server) {
  return target.api("/api/subscription/create-session", { body: { planId }, headers: caller ? { cookie: caller.cookie } : {} });
}

async function quota(caller: Caller): Promise<number> {
  return (await server.api("/api/auth/quiz-limit", { headers: { cookie: caller.cookie } })).body.remainingQuizzes;
}

async function userRow(caller: Caller) {
  return server.db.selectFrom("users").selectAll().where("id", "=", caller.user.id).executeTakeFirstOrThrow();
}

async function pageText(response: Response): Promise<string> {
  return (await response.text()).replaceAll("<!-- -->", "");
}

// ------------------------------------------------------------------------- Stripe-shaped events

let eventCount = 0;
const nowSeconds = () => Math.floor(Date.now() / 1000);

function stripeEvent(type: string, object: object, created = nowSeconds()) {
  return {
    id: `evt_test_${++eventCount}_${randomUUID().slice(0, 8)}`,
    object: "event",
    api_version: "2026-10-28.endive",
    created,
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

function subscription(options: {
  id: string;
  customer: string;
  price: { id: string; lookup_key?: string | null };
  status?: string;
  cancelAtPeriodEnd?: boolean;
  periodEnd?: number;
}) {
  const periodEnd = options.periodEnd ?? nowSeconds() + 30 * 86_400;
  return {
    id: options.id,
    object: "subscription",
    customer: options.customer,
    status: options.status ?? "active",
    cancel_at_period_end: options.cancelAtPeriodEnd ?? false,
    cancel_at: null,
    metadata: {},
    items: {
      object: "list",
      data: [
        {
          id: `si_${options.id}`,
          object: "subscription_item",
          current_period_start: periodEnd - 30 * 86_400,
          current_period_end: periodEnd,
          price: { object: "price", lookup_key: null, ...options.price },
        },
      ],
    },
  };
}

async function deliver(event: object, signature?: string): Promise<{ status: number; body: any }> {
  const payload = JSON.stringify(event);
  const header = signature ?? signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  return server.api("/api/stripe/webhook", { body: payload, headers: { "stripe-signature": header } });
}

/** The Checkout Session a create-session answer sends the browser to. */
function checkoutIdOf(response: { body: { url: string } }): string {
  return new URL(response.body.url).pathname.split("/").pop()!;
}

/** What Stripe sends when a Checkout it made for us completes. */
function checkoutCompleted(session: object) {
  return stripeEvent("checkout.session.completed", session);
}

/** A caller who has gone through Checkout for Standard; also returns the event, for replays. */
async function subscribedToStandard(caller?: Caller) {
  const subscriber = caller ?? (await signIn());
  const opened = await createSession(subscriber, PLAN_IDS.standard);
  expect(opened.status).toBe(200);
  const customer = (await userRow(subscriber)).stripe_customer_id!;
  const paid = stripe.completeCheckout(checkoutIdOf(opened));
  const completedEvent = checkoutCompleted(paid.session);
  expect((await deliver(completedEvent)).body).toEqual({ received: true, outcome: "applied" });
  return { ...subscriber, customer, subscriptionId: paid.subscription.id, completedEvent };
}

describe("plans", () => {
  it("GET /api/subscription/plans lists the default plans (docs/product.md#plans)", async () => {
    const response = await server.api("/api/subscription/plans");
    expect(response.status).toBe(200);
    expect(response.body.map((plan: any) => [plan.name, plan.price, plan.aiQuizLimit])).toEqual([
      ["Free", 0, 10],
      ["Standard", 4.99, 50],
      ["Premium", 9.99, 100],
    ]);
    for (const plan of response.body) {
      expect(plan).toMatchObject({ id: expect.any(Number), description: expect.any(String), features: expect.any(Array) });
    }
    expect(response.body[2].features.join(" ")).toMatch(/unlimited/i);
  });

  it("the page shows the plans, the Current badge on the user's plan and Subscribe on the others", async () => {
    const caller = await signIn();
    const html = await pageText(await fetch(`${server.url}/subscription`, { headers: { cookie: caller.cookie } }));
    expect(html).toMatch(/<h2 id="plan-1">Free<\/h2><span class="badge badge-success">Current<\/span>/);
    expect(html).toMatch(/disabled="">Current Plan<\/button>/);
    expect(html).toContain(">Subscribe to Standard</button>");
    expect(html).toContain(">Subscribe to Premium</button>");
    expect(html).toContain("$4.99");
    expect(html).toContain("Plans are billed monthly and can be cancelled at any time.");
  });
});

describe("POST /api/subscription/create-session", () => {
  it("refuses a signed-out visitor and a guest with the Please sign in message (docs/product.md#messages)", async () => {
    for (const caller of [null, await signIn(server, "guest")]) {
      const response = await createSession(caller, PLAN_IDS.standard);
      expect(response.status).toBe(401);
      expect(response.body.error).toBe("You need to be signed in to subscribe to a plan.");
    }
  });

  it("opens Checkout in subscription mode for the plan's price, for a Stripe customer created once", async () => {
    const caller = await signIn();
    const before = stripe.requests.length;
    const response = await createSession(caller, PLAN_IDS.standard);
    expect(response.status).toBe(200);
    expect(response.body.url).toMatch(new RegExp(`^${stripe.apiBase}/checkout/cs_test_\\d+$`));

    const [customer, checkout] = stripe.requests.slice(before);
    expect(customer).toMatchObject({ method: "POST", path: "/v1/customers", authorization: "Bearer sk_test_integration" });
    expect(customer.params).toMatchObject({ email: caller.email, "metadata[userId]": String(caller.user.id) });
    expect(checkout.path).toBe("/v1/checkout/sessions");
    expect(checkout.params).toMatchObject({
      mode: "subscription",
      customer: (await userRow(caller)).stripe_customer_id,
      client_reference_id: String(caller.user.id),
      "line_items[0][price]": STANDARD_PRICE,
      "line_items[0][quantity]": "1",
      success_url: `${server.url}/subscription?checkout=success`,
      cancel_url: `${server.url}/subscription?checkout=cancelled`,
      "metadata[tier]": "standard",
      "subscription_data[metadata][tier]": "standard",
    });

    // Premium has no configured price: it is found by its lookup key; the customer is reused.
    const again = stripe.requests.length;
    expect((await createSession(caller, String(PLAN_IDS.premium))).status).toBe(200);
    const next = stripe.requests.slice(again);
    expect(next.map((request) => `${request.method} ${request.path}`)).toEqual(["GET /v1/prices", "POST /v1/checkout/sessions"]);
    expect(next[0].params).toMatchObject({ "lookup_keys[0]": "quiz_night_premium" });
    expect(next[1].params["line_items[0][price]"]).toBe("price_lookup_premium");
    expect(next[1].params.customer).toBe((await userRow(caller)).stripe_customer_id);
  });

  it.each([
    [PLAN_IDS.free, 409, "You are already on the Free plan."],
    [99, 404, "That plan does not exist."],
    ["abc", 400, "Choose a plan."],
  ])("refuses plan %j with %i", async (planId, status, message) => {
    const response = await createSession(await signIn(), planId);
    expect(response.status).toBe(status);
    expect(response.body.error).toBe(message);
  });

  it("says 'Failed to create subscription. Please try again.' when Stripe fails", async () => {
    const caller = await signIn();
    stripe.failing = true;
    try {
      const response = await createSession(caller, PLAN_IDS.standard);
      expect(response.status).toBe(502);
      expect(response.body.error).toBe("Failed to create subscription. Please try again.");
    } finally {
      stripe.failing = false;
    }
    expect((await userRow(caller)).stripe_customer_id).toBeNull();
  });

  it("sends a subscriber to the customer portal to change plan, not to a second Checkout", async () => {
    const caller = await subscribedToStandard();
    const before = stripe.requests.length;
    const response = await createSession(caller, PLAN_IDS.premium);
    expect(response.status).toBe(200);
    expect(response.body.url).toMatch(/\/portal\/bps_test_\d+$/);
    expect(stripe.requests.slice(before).map((request) => request.path)).toEqual(["/v1/billing_portal/sessions"]);
    expect(stripe.requests.at(-1)!.params).toMatchObject({ customer: caller.customer, return_url: `${server.url}/subscription` });
  });

  it("lets the browser follow a plan form's redirect to Stripe's pages (CSP form-action), and nowhere else", async () => {
    const response = await fetch(`${server.url}/subscription`);
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain(`form-action 'self' ${stripe.apiBase};`);
  });

  it("works without JavaScript: the plan form redirects the browser to Checkout", async () => {
    const caller = await signIn();
    const response = await fetch(`${server.url}/subscription`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: caller.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "subscribe", planId: String(PLAN_IDS.standard) }),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(new RegExp(`^${stripe.apiBase}/checkout/`));
  });
});

describe("Manage billing", () => {
  it("opens the customer portal for a user with a Stripe customer, and explains when there is none", async () => {
    const caller = await subscribedToStandard();
    const response = await server.api("/api/subscription/portal", { method: "POST", headers: { cookie: caller.cookie } });
    expect(response.status).toBe(200);
    expect(response.body.url).toMatch(/\/portal\/bps_test_\d+$/);

    const newcomer = await signIn();
    const none = await server.api("/api/subscription/portal", { method: "POST", headers: { cookie: newcomer.cookie } });
    expect(none.status).toBe(404);
    expect(none.body.error).toBe("You have no billing account yet: subscribe to a plan first.");

    const html = await pageText(await fetch(`${server.url}/account`, { headers: { cookie: caller.cookie } }));
    expect(html).toContain(">Manage billing</button>");
  });
});

/** My Account's "Delete Account", as the browser posts it. */
async function deleteAccountOf(caller: Caller, target: TestServer = server) {
  const response = await fetch(`${target.url}/account`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: caller.cookie },
    body: new URLSearchParams({ intent: "delete-account", confirm: "yes" }),
    redirect: "manual",
  });
  return { status: response.status, text: (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'") };
}

describe("deleting an account with a subscription", () => {
  it("cancels the subscription through Stripe first, so nothing charges an account that is gone", async () => {
    const subscriber = await subscribedToStandard();
    const deleted = await deleteAccountOf(subscriber);
    expect(deleted.status).toBe(302);
    const cancels = stripe.requests.filter((request) => request.method === "DELETE" && request.path === `/v1/subscriptions/${subscriber.subscriptionId}`);
    expect(cancels).toHaveLength(1);
    expect(await server.db.selectFrom("users").select("id").where("id", "=", subscriber.user.id).executeTakeFirst()).toBeUndefined();
  });

  it("keeps the account, and says why, when Stripe cannot cancel it now", async () => {
    const subscriber = await subscribedToStandard();
    stripe.failing = true;
    try {
      const refused = await deleteAccountOf(subscriber);
      expect(refused.status).toBe(502);
      expect(refused.text).toContain("Your subscription could not be cancelled with Stripe just now, so your account was not deleted");
    } finally {
      stripe.failing = false;
    }
    expect(await userRow(subscriber)).toMatchObject({ subscription_tier: "standard" });
    expect(stripe.subscriptions.get(subscriber.subscriptionId)?.status).toBe("active");
    expect((await deleteAccountOf(subscriber)).status).toBe(302);
    expect(stripe.subscriptions.get(subscriber.subscriptionId)?.status).toBe("canceled");
  });

  it("deletes an account whose subscription Stripe no longer has, or that has none", async () => {
    const gone = await subscribedToStandard();
    stripe.subscriptions.delete(gone.subscriptionId);
    expect((await deleteAccountOf(gone)).status).toBe(302);
    const never = await signIn();
    const before = stripe.requests.length;
    expect((await deleteAccountOf(never)).status).toBe(302);
    expect(stripe.requests.slice(before).filter((request) => request.method === "DELETE")).toEqual([]);
  });
});

describe("Stripe charges no account that is gone, and keeps every subscription (issue 26, hole 9)", () => {
  const premium = { id: "price_lookup_premium", lookup_key: "quiz_night_premium" };

  it("deleting an account cancels every subscription of its customer and expires its open Checkouts", async () => {
    const subscriber = await signIn();
    // Two tabs: Checkout for Standard and for Premium; Standard is paid, the Premium tab is left open.
    const standardTab = await createSession(subscriber, PLAN_IDS.standard);
    const premiumTab = await createSession(subscriber, PLAN_IDS.premium);
    const paid = stripe.completeCheckout(checkoutIdOf(standardTab));
    expect((await deliver(checkoutCompleted(paid.session))).body.outcome).toBe("applied");
    // A subscription Quiz Night never heard of (its webhook lost, or made in Stripe's dashboard).
    const unheardOf = stripe.addSubscription(paid.session.customer!, premium);
    // Someone else's subscription is none of this account's business.
    const neighbour = await subscribedToStandard();

    expect((await deleteAccountOf(subscriber)).status).toBe(302);
    expect(stripe.subscriptions.get(paid.subscription.id)?.status).toBe("canceled");
    expect(stripe.subscriptions.get(unheardOf.id)?.status).toBe("canceled");
    expect(stripe.checkoutSessions.get(checkoutIdOf(premiumTab))?.status).toBe("expired");
    expect(stripe.subscriptions.get(neighbour.subscriptionId)?.status).toBe("active");
    expect(() => stripe.completeCheckout(checkoutIdOf(premiumTab))).toThrow(/not open/);
  });

  it("a Checkout that completes for a deleted account is cancelled by its webhook, once", async () => {
    const leaver = await signIn();
    const tab = await createSession(leaver, PLAN_IDS.standard);
    const customer = (await userRow(leaver)).stripe_customer_id!;
    expect((await deleteAccountOf(leaver)).status).toBe(302);
    // The tab was paid a moment before the account went (its webhook arrives afterwards).
    stripe.checkoutSessions.get(checkoutIdOf(tab))!.status = "open";
    const late = stripe.completeCheckout(checkoutIdOf(tab));
    expect(stripe.subscriptions.get(late.subscription.id)?.status).toBe("active");

    const event = checkoutCompleted(late.session);
    const delivered = await deliver(event);
    expect(delivered).toEqual({ status: 200, body: { received: true, outcome: "cancelled" } });
    expect(stripe.subscriptions.get(late.subscription.id)?.status).toBe("canceled");
    expect(customer).toBe(late.session.customer);

    const before = stripe.requests.length;
    expect((await deliver(event)).body.outcome).toBe("duplicate");
    expect(stripe.requests.slice(before)).toEqual([]);
  });

  it.each(["customer.subscription.created", "customer.subscription.updated"])(
    "%s for a customer no account has cancels that subscription; a failed cancel is retried by Stripe",
    async (type) => {
      // Made by a Quiz Night Checkout (its metadata names the account), for an account since deleted.
      const stray = stripe.addSubscription(`cus_nobody_${randomUUID().slice(0, 8)}`, { id: STANDARD_PRICE }, "active", { userId: "999999", tier: "standard" });
      const event = stripeEvent(type, stray);
      stripe.failing = true;
      try {
        const failed = await deliver(event);
        expect(failed.status).toBe(502);
      } finally {
        stripe.failing = false;
      }
      expect(stripe.subscriptions.get(stray.id)?.status).toBe("active");
      // Stripe delivers it again: this time the cancel goes through.
      expect((await deliver(event)).body).toEqual({ received: true, outcome: "cancelled" });
      expect(stripe.subscriptions.get(stray.id)?.status).toBe("canceled");
    },
  );

  it("leaves alone a subscription Quiz Night did not make (another product on the same Stripe account)", async () => {
    const foreign = stripe.addSubscription(`cus_elsewhere_${randomUUID().slice(0, 8)}`, { id: "price_someone_elses" });
    const before = stripe.requests.length;
    expect((await deliver(stripeEvent("customer.subscription.created", foreign))).body.outcome).toBe("ignored");
    expect(stripe.requests.slice(before)).toEqual([]);
    expect(stripe.subscriptions.get(foreign.id)?.status).toBe("active");
  });

  it("an event about a subscription that is already over changes nothing and cancels nothing", async () => {
    const over = stripe.addSubscription(`cus_nobody_${randomUUID().slice(0, 8)}`, { id: STANDARD_PRICE }, "canceled");
    const before = stripe.requests.length;
    expect((await deliver(stripeEvent("customer.subscription.updated", over))).body.outcome).toBe("ignored");
    expect(stripe.requests.slice(before)).toEqual([]);
  });

  it("keeps a Checkout whose customer lost a race to be the account's (two first Checkouts at once), and closes both customers on deletion", async () => {
    const caller = await signIn();
    const tab = await createSession(caller, PLAN_IDS.standard);
    const otherTab = await createSession(caller, PLAN_IDS.premium);
    const first = (await userRow(caller)).stripe_customer_id!;
    // The other request created its own customer and wrote it last.
    const raced = stripe.addSubscription("cus_raced_elsewhere", { id: STANDARD_PRICE }, "canceled").customer;
    await server.db.updateTable("users").set({ stripe_customer_id: raced }).where("id", "=", caller.user.id).execute();

    const paid = stripe.completeCheckout(checkoutIdOf(tab));
    expect(paid.session.customer).toBe(first);
    expect((await deliver(checkoutCompleted(paid.session))).body.outcome).toBe("applied");
    expect(await quota(caller)).toBe(50);

    expect((await deleteAccountOf(caller)).status).toBe(302);
    expect(stripe.subscriptions.get(paid.subscription.id)?.status).toBe("canceled");
    expect(stripe.checkoutSessions.get(checkoutIdOf(otherTab))?.status).toBe("expired");
  });

  it("keeps a second Checkout completed at the same time: the tier follows the best live subscription", async () => {
    const caller = await signIn();
    const standardTab = await createSession(caller, PLAN_IDS.standard);
    const premiumTab = await createSession(caller, PLAN_IDS.premium);
    const first = stripe.completeCheckout(checkoutIdOf(premiumTab));
    const second = stripe.completeCheckout(checkoutIdOf(standardTab));
    const created = nowSeconds();
    expect((await deliver(checkoutCompleted(first.session), undefined)).body.outcome).toBe("applied");
    expect((await deliver(stripeEvent("checkout.session.completed", second.session, created))).body.outcome).toBe("applied");
    expect((await userRow(caller)).subscription_tier).toBe("premium");
    expect(await quota(caller)).toBe(100);
    const kept = await server.db.selectFrom("subscriptions").select("id").where("user_id", "=", caller.user.id).orderBy("id").execute();
    expect(kept.map((row) => row.id)).toEqual([first.subscription.id, second.subscription.id].sort());

    // Premium is cancelled in the portal: Standard, still paid for, holds.
    const ended = stripe.subscriptions.get(first.subscription.id)!;
    ended.status = "canceled";
    expect((await deliver(stripeEvent("customer.subscription.deleted", ended, created + 1))).body.outcome).toBe("applied");
    expect((await userRow(caller)).subscription_tier).toBe("standard");
    expect(await quota(caller)).toBe(50);

    // And deleting the account cancels the one left.
    expect((await deleteAccountOf(caller)).status).toBe(302);
    expect(stripe.subscriptions.get(second.subscription.id)?.status).toBe("canceled");
  });
});

describe("POST /api/stripe/webhook", () => {
  it("refuses a bad or missing signature with 400 and changes nothing", async () => {
    const caller = await signIn();
    await createSession(caller, PLAN_IDS.standard);
    const customer = (await userRow(caller)).stripe_customer_id!;
    const event = stripeEvent("customer.subscription.updated", subscription({ id: "sub_forged", customer, price: { id: STANDARD_PRICE } }));
    const payload = JSON.stringify(event);
    const forged = signer.webhooks.generateTestHeaderString({ payload, secret: "whsec_someone_else" });

    const bad = await deliver(event, forged);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("Webhook signature verification failed.");
    const missing = await server.api("/api/stripe/webhook", { body: payload });
    expect(missing.status).toBe(400);
    expect((await userRow(caller)).subscription_tier).toBe("free");
    const stored = await server.db.selectFrom("stripe_events").select("id").where("id", "=", event.id).execute();
    expect(stored).toEqual([]);
  });

  it("upgrades on checkout.session.completed, once however often the event is delivered", async () => {
    const caller = await signIn();
    expect(await quota(caller)).toBe(10);
    const subscriber = await subscribedToStandard(caller);
    expect((await userRow(caller)).subscription_tier).toBe("standard");
    expect(await quota(caller)).toBe(50);

    // A replayed event is acknowledged and changes nothing, even after a later change.
    const ended = subscription({ id: subscriber.subscriptionId, customer: subscriber.customer, price: { id: STANDARD_PRICE }, status: "canceled" });
    const cancelled = await deliver(stripeEvent("customer.subscription.deleted", ended));
    expect(cancelled.body.outcome).toBe("applied");
    expect((await userRow(caller)).subscription_tier).toBe("free");
    const replay = await deliver(subscriber.completedEvent);
    expect(replay).toEqual({ status: 200, body: { received: true, outcome: "duplicate" } });
    expect((await userRow(caller)).subscription_tier).toBe("free");
  });

  it("follows an upgrade, a cancellation at period end, and the end of the period", async () => {
    const caller = await subscribedToStandard();
    const premium = { id: "price_lookup_premium", lookup_key: "quiz_night_premium" };
    const upgraded = await deliver(
      stripeEvent("customer.subscription.updated", subscription({ id: caller.subscriptionId, customer: caller.customer, price: premium })),
    );
    expect(upgraded.body.outcome).toBe("applied");
    expect((await userRow(caller)).subscription_tier).toBe("premium");
    expect(await quota(caller)).toBe(100);

    // Cancelled at period end: Premium holds until then, and the page says when it ends.
    const periodEnd = nowSeconds() + 10 * 86_400;
    await deliver(
      stripeEvent(
        "customer.subscription.updated",
        subscription({ id: caller.subscriptionId, customer: caller.customer, price: premium, cancelAtPeriodEnd: true, periodEnd }),
      ),
    );
    expect(await userRow(caller)).toMatchObject({ subscription_tier: "premium", subscription_ends_at: periodEnd * 1000 });
    expect(await quota(caller)).toBe(100);
    const html = await pageText(await fetch(`${server.url}/subscription`, { headers: { cookie: caller.cookie } }));
    expect(html).toContain("Your Premium plan ends on");

    // Once the period has ended the user is on Free, before Stripe even says so.
    await server.db
      .updateTable("users")
      .set({ subscription_ends_at: Date.now() - 1000 })
      .where("id", "=", caller.user.id)
      .execute();
    await server.db
      .updateTable("subscriptions")
      .set({ ends_at: Date.now() - 1000 })
      .where("id", "=", caller.subscriptionId)
      .execute();
    expect(await quota(caller)).toBe(10);
    const me = await pageText(await fetch(`${server.url}/subscription`, { headers: { cookie: caller.cookie } }));
    expect(me).toMatch(/<h2 id="plan-1">Free<\/h2><span class="badge badge-success">Current<\/span>/);

    const ended = await deliver(
      stripeEvent("customer.subscription.deleted", subscription({ id: caller.subscriptionId, customer: caller.customer, price: premium, status: "canceled" })),
    );
    expect(ended.body.outcome).toBe("applied");
    expect(await userRow(caller)).toMatchObject({ subscription_tier: "free", subscription_ends_at: null });
  });

  it("follows a downgrade from Premium to Standard made in the customer portal", async () => {
    const caller = await subscribedToStandard();
    const premium = { id: "price_lookup_premium", lookup_key: "quiz_night_premium" };
    const created = nowSeconds();
    await deliver(
      stripeEvent("customer.subscription.updated", subscription({ id: caller.subscriptionId, customer: caller.customer, price: premium }), created),
    );
    expect(await quota(caller)).toBe(100);
    const downgraded = await deliver(
      stripeEvent(
        "customer.subscription.updated",
        subscription({ id: caller.subscriptionId, customer: caller.customer, price: { id: STANDARD_PRICE } }),
        created + 1,
      ),
    );
    expect(downgraded.body.outcome).toBe("applied");
    expect(await userRow(caller)).toMatchObject({ subscription_tier: "standard", subscription_ends_at: null });
    expect(await quota(caller)).toBe(50);
  });

  it("keeps the tier while a payment is retried, and ends it at period end once the subscription is unpaid", async () => {
    const caller = await subscribedToStandard();
    const failed = await deliver(
      stripeEvent("invoice.payment_failed", { id: "in_1", object: "invoice", customer: caller.customer, subscription: caller.subscriptionId, status: "open" }),
    );
    expect(failed.body.outcome).toBe("applied");
    expect(await userRow(caller)).toMatchObject({ subscription_tier: "standard", subscription_status: "past_due" });
    const html = await pageText(await fetch(`${server.url}/subscription`, { headers: { cookie: caller.cookie } }));
    expect(html).toContain("Your last payment failed.");

    const periodEnd = nowSeconds() + 5 * 86_400;
    await deliver(
      stripeEvent(
        "customer.subscription.updated",
        subscription({ id: caller.subscriptionId, customer: caller.customer, price: { id: STANDARD_PRICE }, status: "unpaid", periodEnd }),
      ),
    );
    expect(await userRow(caller)).toMatchObject({ subscription_tier: "standard", subscription_status: "unpaid", subscription_ends_at: periodEnd * 1000 });
    expect(await quota(caller)).toBe(50);
  });

  it("ignores an event older than the last one applied (Stripe does not promise order)", async () => {
    const caller = await subscribedToStandard();
    const later = nowSeconds() + 60;
    await deliver(
      stripeEvent(
        "customer.subscription.deleted",
        subscription({ id: caller.subscriptionId, customer: caller.customer, price: { id: STANDARD_PRICE }, status: "canceled" }),
        later,
      ),
    );
    const stale = await deliver(
      stripeEvent(
        "customer.subscription.updated",
        subscription({ id: caller.subscriptionId, customer: caller.customer, price: { id: STANDARD_PRICE } }),
        later - 30,
      ),
    );
    expect(stale.body.outcome).toBe("ignored");
    expect((await userRow(caller)).subscription_tier).toBe("free");
  });

  it("acknowledges event types it does not use", async () => {
    const response = await deliver(stripeEvent("customer.created", { id: "cus_x", object: "customer" }));
    expect(response).toEqual({ status: 200, body: { received: true, outcome: "ignored" } });
  });
});

describe("without Stripe configuration", () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startTestServer();
  });
  afterAll(async () => {
    await plain?.stop();
  });

  it("still shows the plans, and subscribing says billing is not configured", async () => {
    expect((await plain.api("/api/subscription/plans")).body).toHaveLength(3);
    const caller = await signIn(plain);
    const response = await createSession(caller, PLAN_IDS.standard, plain);
    expect(response.status).toBe(503);
    expect(response.body.error).toBe(BILLING_NOT_CONFIGURED);
    const html = await pageText(await fetch(`${plain.url}/subscription`, { headers: { cookie: caller.cookie } }));
    expect(html).toContain(">Subscribe to Premium</button>");
    expect(html).toContain("Billing is not configured on this server");
    const webhook = await plain.api("/api/stripe/webhook", { body: "{}", headers: { "stripe-signature": "t=1,v1=x" } });
    expect(webhook.status).toBe(503);
  });

  it("refuses to delete an account whose subscription it cannot cancel, saying whom to ask", async () => {
    const caller = await signIn(plain);
    await plain.db
      .updateTable("users")
      .set({ stripe_customer_id: "cus_left_over", subscription_status: "active", subscription_tier: "standard" })
      .where("id", "=", caller.user.id)
      .execute();
    await plain.db
      .insertInto("subscriptions")
      .values({
        id: "sub_left_over",
        user_id: caller.user.id,
        customer_id: "cus_left_over",
        tier: "standard",
        status: "active",
        ends_at: null,
        event_at: nowSeconds(),
      })
      .execute();
    const refused = await deleteAccountOf(caller, plain);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("billing is not configured on this server now, so it cannot be cancelled from here");
    expect(await plain.db.selectFrom("users").select("id").where("id", "=", caller.user.id).executeTakeFirst()).toBeDefined();
  });
});

describe("npm run user -- set-tier", () => {
  const run = promisify(execFile);
  const cli = (args: string[]) =>
    run("node_modules/.bin/tsx", ["db/user-cli.ts", ...args], {
      env: { ...process.env, DATABASE_PATH: server.databasePath, DATABASE_URL: server.databaseUrl ?? "" },
    }).then(
      ({ stdout }) => ({ code: 0, stdout, stderr: "" }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it("puts an account on a plan by hand, and explains what it cannot do", async () => {
    const caller = await signIn();
    const done = await cli(["set-tier", caller.email.toUpperCase(), "Premium"]);
    expect(done).toMatchObject({ code: 0, stdout: `${caller.email.toUpperCase()} is now on the premium plan (100 AI quizzes a day).\n` });
    expect(await quota(caller)).toBe(100);

    expect(await cli(["set-tier", caller.email, "gold"])).toMatchObject({ code: 1, stderr: 'There is no plan "gold". Plans: free, standard, premium.\n' });
    expect(await cli(["set-tier", "nobody@example.com", "free"])).toMatchObject({ code: 1, stderr: "No account has the email nobody@example.com.\n" });
    expect(await cli(["set-tier", caller.email])).toMatchObject({ code: 2, stderr: "Usage: npm run user -- set-tier <email> <free|standard|premium>\n" });
  }, 60_000);
});
