import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { z } from "zod";
import { useToast } from "#app/components/toaster";
import { Page } from "#app/components/layout";
import { listPlans } from "#app/models/plan.server";
import { findBillingState, openBillingPortal, startSubscription } from "#app/models/subscription.server";
import { DEFAULT_PLANS, formatPrice, PLEASE_SIGN_IN, planName, SUBSCRIPTION_ERROR, tierOf, type Plan } from "#app/utils/plans";
import { getUser } from "#app/utils/session.server";
import { FormIdSchema } from "#app/utils/form-schemas";
import { parseForm, parseIntent } from "#app/utils/forms";
import { BILLING_FAILURE_STATUS } from "#app/utils/api.server";
import type { Logger } from "#server/logger";

export const meta: MetaFunction = () => [{ title: "Plans | Quiz Night" }];

const CHECKOUT_TOASTS = {
  success: { title: "Subscription started", description: "Thank you! Your plan changes as soon as Stripe confirms the payment." },
  cancelled: { title: "Checkout cancelled", description: "Nothing was charged. You can subscribe any time." },
} as const;

/** The plans from the database, or the built-in defaults when they cannot be read or there are none. */
async function plansOrDefaults(logger: Logger, load: () => Promise<Plan[]>): Promise<Plan[]> {
  try {
    const plans = await load();
    return plans.length > 0 ? plans : DEFAULT_PLANS;
  } catch (error) {
    logger.warn({ event: "plans_load_failed", err: error }, "could not load plans; showing the defaults");
    return DEFAULT_PLANS;
  }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getUser(context, request);
  const state = user && !user.isGuest ? await findBillingState(context.db, user.id) : null;
  return {
    plans: await plansOrDefaults(context.logger, () => listPlans(context.db)),
    user: user ? { tier: user.subscriptionTier, isGuest: user.isGuest, hasBillingAccount: user.hasBillingAccount } : null,
    paymentFailed: state?.status === "past_due",
    endsAt: state?.endsAt ?? null,
    billingConfigured: context.billing !== null,
  };
}

/** A plan's Subscribe button posts its id. */
const PlanChoiceSchema = z.object({ planId: FormIdSchema });
/** No plan has it: a post without a readable plan id is the model's to refuse, once it has checked who asks. */
const NO_PLAN = 0;

interface SubscriptionActionData {
  error: { title: string; description: string };
}

/** Without JavaScript: Subscribe and Manage billing post here and are sent on to Stripe. */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const user = await getUser(context, request);
  const origin = new URL(request.url).origin;
  const plan = parseForm(formData, PlanChoiceSchema);
  const session =
    parseIntent(formData, ["portal", "subscribe"]) === "portal"
      ? await openBillingPortal(context.db, context.billing, user, origin, context.logger)
      : await startSubscription(context.db, context.billing, user, plan.status === "success" ? plan.value.planId : NO_PLAN, origin, context.logger);
  if (session.ok) return redirect(session.value.url);
  const title = session.reason === "signed-out" ? PLEASE_SIGN_IN.title : SUBSCRIPTION_ERROR.title;
  return data<SubscriptionActionData>({ error: { title, description: session.message } }, { status: BILLING_FAILURE_STATUS[session.reason] });
}

/** Posts to one of the billing endpoints and sends the browser to the url it returns. */
async function goToStripe(endpoint: string, body: unknown): Promise<void> {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => null)) as { url?: string; error?: string } | null;
  if (!response.ok || !answer?.url) throw new Error(answer?.error || SUBSCRIPTION_ERROR.description);
  window.location.assign(answer.url);
}

export default function Subscription() {
  const { plans, user, paymentFailed, endsAt, billingConfigured } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const toast = useToast();
  const [searchParams, setSearchParams] = useSearchParams();
  const [pending, setPending] = useState<string | null>(null);
  const signedIn = user !== null && !user.isGuest;
  const checkout = searchParams.get("checkout");
  const [checkoutNotice] = useState(() => (checkout === "success" || checkout === "cancelled" ? CHECKOUT_TOASTS[checkout] : null));

  useEffect(() => {
    if (!checkoutNotice) return;
    toast(checkoutNotice);
    setSearchParams({}, { replace: true, preventScrollReset: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival from checkout: clearing the search params must not toast again
  }, []);

  const submitting = navigation.state === "submitting" ? ((navigation.formData?.get("planId") as string | null) ?? "portal") : null;
  const busy = pending ?? submitting;

  async function send(event: FormEvent<HTMLFormElement>, key: string, endpoint: string, body: unknown) {
    event.preventDefault();
    if (!signedIn) {
      toast({ ...PLEASE_SIGN_IN, variant: "destructive" });
      return;
    }
    setPending(key);
    try {
      await goToStripe(endpoint, body);
    } catch (error) {
      toast({ title: SUBSCRIPTION_ERROR.title, description: error instanceof Error ? error.message : SUBSCRIPTION_ERROR.description, variant: "destructive" });
      setPending(null);
    }
  }

  return (
    <Page>
      <div className="stack">
        <div className="center stack subscription-intro">
          <h1>Choose your plan</h1>
          <p className="muted">Every plan hosts live games for as many players as your room holds. Plans differ in AI quizzes per day.</p>
        </div>

        {checkoutNotice ? (
          <p className="status-notice" role="status">
            {checkoutNotice.title}. {checkoutNotice.description}
          </p>
        ) : null}
        {actionData?.error ? (
          <p className="form-error" role="alert">
            {actionData.error.title}: {actionData.error.description}
            {actionData.error.title === PLEASE_SIGN_IN.title ? (
              <>
                {" "}
                <Link to="/auth?redirectTo=%2Fsubscription">Sign in</Link>
              </>
            ) : null}
          </p>
        ) : null}
        {paymentFailed ? (
          <p className="form-error" role="alert">
            Your last payment failed. Update your card under Manage billing to keep your plan.
          </p>
        ) : null}
        {endsAt && user ? (
          <p className="status-notice" role="status">
            Your {planName(user.tier)} plan ends on{" "}
            {new Date(endsAt).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" })}; you will be on Free from then.
          </p>
        ) : null}
        {!billingConfigured ? <p className="hint center">Billing is not configured on this server, so plans cannot be bought here.</p> : null}

        <ul className="plan-grid" aria-label="Plans">
          {plans.map((plan) => {
            const current = user !== null && tierOf(plan) === user.tier;
            const headingId = `plan-${plan.id}`;
            return (
              <li key={plan.id} className={`card stack plan-card${current ? " plan-current" : ""}`} aria-labelledby={headingId}>
                <div className="plan-header">
                  <h2 id={headingId}>{plan.name}</h2>
                  {current ? <span className="badge badge-success">Current</span> : null}
                </div>
                <p className="muted">{plan.description}</p>
                <p className="plan-price">
                  <strong>{formatPrice(plan)}</strong> <span className="muted">/ month</span>
                </p>
                <p>
                  <strong>{plan.aiQuizLimit}</strong> AI quizzes per day
                </p>
                <ul className="plan-features">
                  {plan.features.map((feature) => (
                    <li key={feature}>{feature}</li>
                  ))}
                </ul>
                <Form
                  method="post"
                  className="plan-action"
                  onSubmit={(event) => send(event, String(plan.id), "/api/subscription/create-session", { planId: plan.id })}
                >
                  <input type="hidden" name="planId" value={plan.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="subscribe"
                    className={`button auth-wide${current ? " button-secondary" : ""}`}
                    disabled={current || busy !== null}
                  >
                    {current ? "Current Plan" : busy === String(plan.id) ? "Processing..." : `Subscribe to ${plan.name}`}
                  </button>
                </Form>
              </li>
            );
          })}
        </ul>

        {user?.hasBillingAccount ? (
          <Form method="post" className="center" onSubmit={(event) => send(event, "portal", "/api/subscription/portal", {})}>
            <button type="submit" name="intent" value="portal" className="button button-secondary" disabled={busy !== null}>
              {busy === "portal" ? "Opening billing..." : "Manage billing"}
            </button>
          </Form>
        ) : null}

        <div className="card billing-info" role="note">
          <strong>Billing</strong>
          <p>Plans are billed monthly and can be cancelled at any time.</p>
        </div>
      </div>
    </Page>
  );
}
