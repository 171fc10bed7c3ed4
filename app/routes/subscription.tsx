import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { Trans, useTranslation } from "#app/i18n/use-translation";
import { z } from "zod";
import { useToast } from "#app/components/toaster";
import { Page } from "#app/components/layout";
import { useSayError } from "#app/i18n/error-text";
import { appError, appErrorOf, type AppError } from "#app/i18n/app-error";
import { metaT } from "#app/i18n/meta";
import { listPlans } from "#app/models/plan.server";
import { findBillingState, openBillingPortal, startSubscription } from "#app/models/subscription.server";
import {
  DEFAULT_PLAN_TEXT_KEYS,
  DEFAULT_PLANS,
  formatPrice,
  FREE_TIER,
  planName,
  PLEASE_SIGN_IN,
  SUBSCRIPTION_ERROR,
  tierOf,
  type Plan,
} from "#app/billing/plans";
import { getUser } from "#app/sessions/session.server";
import { FormIdSchema } from "#app/schemas/form-schemas";
import { parseForm, parseIntent } from "#app/forms/forms";
import { BILLING_FAILURE_STATUS, readForm } from "#app/http/api.server";
import type { Logger } from "#server/logger";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "account")("subscription.title") }];

/** Where the words of the notice after Stripe Checkout are (`account` catalog), by its `?checkout=`. */
const CHECKOUT_NOTICES = { success: "subscription.checkout.success", cancelled: "subscription.checkout.cancelled" } as const;

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
    paymentFailed: state?.paymentFailed ?? false,
    endsAt: state?.endsAt ?? null,
    billingConfigured: context.billing !== null,
  };
}

/** A plan's Subscribe button posts its id. */
const PlanChoiceSchema = z.object({ planId: FormIdSchema });
/** No plan has it: a post without a readable plan id is the model's to refuse, once it has checked who asks. */
const NO_PLAN = 0;

interface SubscriptionActionData {
  /**
   * Why the post was refused: in English, and the code and values the page says it by
   * (docs/decisions/0047-errors-as-codes.md); `signedOut` asks the visitor to sign in.
   */
  error: { signedOut: boolean; description: string; code: AppError | null };
}

/** Without JavaScript: Subscribe and Manage billing post here and are sent on to Stripe. */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request, "/subscription");
  const user = await getUser(context, request);
  const origin = new URL(request.url).origin;
  const plan = parseForm(formData, PlanChoiceSchema);
  const session =
    parseIntent(formData, ["portal", "subscribe"]) === "portal"
      ? await openBillingPortal(context.db, context.billing, user, origin, context.logger)
      : await startSubscription(context.db, context.billing, user, plan.status === "success" ? plan.value.planId : NO_PLAN, origin, context.logger);
  if (session.ok) return redirect(session.value.url);
  const error = { signedOut: session.reason === "signed-out", description: session.message, code: session.error ?? null };
  return data<SubscriptionActionData>({ error }, { status: BILLING_FAILURE_STATUS[session.reason] });
}

/** A refusal of the billing endpoints: its English as the API sent it, and the code and values it was raised with. */
class BillingRefusal extends Error {
  constructor(
    message: string,
    readonly error: AppError | null,
  ) {
    super(message);
  }
}

const SIGN_IN_TO_SUBSCRIBE = appError("SIGN_IN_TO_SUBSCRIBE");
const SUBSCRIPTION_FAILED = appError("SUBSCRIPTION_FAILED");

/** The day a paid plan ends, in the page's language ("1 March 2027": the interface's English is British). */
function formatDate(at: number, language: string): string {
  return new Intl.DateTimeFormat(language === "en" ? "en-GB" : language, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(at);
}

/** Posts to one of the billing endpoints and sends the browser to the url it returns. */
async function goToStripe(endpoint: string, body: unknown): Promise<void> {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => null)) as { url?: string; error?: string; code?: string } | null;
  if (!response.ok || !answer?.url) {
    // No answer to read is the page's own failure; a refusal without a code is shown as it came.
    if (!answer?.error) throw new BillingRefusal(SUBSCRIPTION_ERROR.description, SUBSCRIPTION_FAILED);
    throw new BillingRefusal(answer.error, appErrorOf(answer));
  }
  window.location.assign(answer.url);
}

export default function Subscription() {
  const { plans, user, paymentFailed, endsAt, billingConfigured } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const toast = useToast();
  const [searchParams, setSearchParams] = useSearchParams();
  const [pending, setPending] = useState<string | null>(null);
  const { t, language } = useTranslation("account");
  const sayError = useSayError();
  /** A default plan's text in the page's language; an operator's own as written. */
  const planText = (text: string) => {
    const key = DEFAULT_PLAN_TEXT_KEYS.get(text);
    return key ? t(key) : text;
  };
  const signedIn = user !== null && !user.isGuest;
  const checkout = searchParams.get("checkout");
  const [checkoutNotice] = useState(() => (checkout === "success" || checkout === "cancelled" ? CHECKOUT_NOTICES[checkout] : null));

  useEffect(() => {
    if (!checkoutNotice) return;
    toast({ title: t(`${checkoutNotice}.title`), description: t(`${checkoutNotice}.description`) });
    setSearchParams({}, { replace: true, preventScrollReset: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival from checkout: clearing the search params must not toast again
  }, []);

  const submitting = navigation.state === "submitting" ? ((navigation.formData?.get("planId") as string | null) ?? "portal") : null;
  const busy = pending ?? submitting;

  async function send(event: FormEvent<HTMLFormElement>, key: string, endpoint: string, body: unknown) {
    event.preventDefault();
    if (!signedIn) {
      toast({ title: t("subscription.pleaseSignIn"), description: sayError(SIGN_IN_TO_SUBSCRIBE, PLEASE_SIGN_IN.description), variant: "destructive" });
      return;
    }
    setPending(key);
    try {
      await goToStripe(endpoint, body);
    } catch (error) {
      const description =
        error instanceof BillingRefusal ? sayError(error.error, error.message) : sayError(SUBSCRIPTION_FAILED, SUBSCRIPTION_ERROR.description);
      toast({ title: t("subscription.error"), description, variant: "destructive" });
      setPending(null);
    }
  }

  return (
    <Page>
      <div className="stack">
        <div className="center stack subscription-intro">
          <h1>{t("subscription.heading")}</h1>
          <p className="muted">{t("subscription.intro")}</p>
        </div>

        {checkoutNotice ? (
          <p className="status-notice" role="status">
            {t(`${checkoutNotice}.notice`)}
          </p>
        ) : null}
        {actionData?.error ? (
          <p className="form-error" role="alert">
            {t("subscription.refusal", {
              title: actionData.error.signedOut ? t("subscription.pleaseSignIn") : t("subscription.error"),
              description: sayError(actionData.error.code, actionData.error.description),
            })}
            {actionData.error.signedOut ? (
              <>
                {" "}
                <Link to="/auth?redirectTo=%2Fsubscription">{t("subscription.signIn")}</Link>
              </>
            ) : null}
          </p>
        ) : null}
        {paymentFailed ? (
          <p className="form-error" role="alert">
            {t("subscription.paymentFailed")}
          </p>
        ) : null}
        {endsAt && user ? (
          <p className="status-notice" role="status">
            {t("subscription.endsOn", { plan: planName(user.tier), date: formatDate(endsAt, language), free: planName(FREE_TIER) })}
          </p>
        ) : null}
        {!billingConfigured ? <p className="hint center">{t("subscription.notConfigured")}</p> : null}

        <ul className="plan-grid" aria-label={t("subscription.plans")}>
          {plans.map((plan) => {
            const current = user !== null && tierOf(plan) === user.tier;
            const headingId = `plan-${plan.id}`;
            return (
              <li key={plan.id} className={`card stack plan-card${current ? " plan-current" : ""}`} aria-labelledby={headingId}>
                <div className="plan-header">
                  <h2 id={headingId}>{plan.name}</h2>
                  {current ? <span className="badge badge-success">{t("subscription.current")}</span> : null}
                </div>
                <p className="muted">{planText(plan.description)}</p>
                <p className="plan-price">
                  <Trans
                    t={t}
                    i18nKey="subscription.price"
                    values={{ price: formatPrice(plan, language) }}
                    components={{ strong: <strong />, muted: <span className="muted" /> }}
                  />
                </p>
                <p>
                  <Trans t={t} i18nKey="subscription.aiQuizzesPerDay" count={plan.aiQuizLimit} components={{ strong: <strong /> }} />
                </p>
                <ul className="plan-features">
                  {plan.features.map((feature) => (
                    <li key={feature}>{planText(feature)}</li>
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
                    {current
                      ? t("subscription.currentPlan")
                      : busy === String(plan.id)
                        ? t("subscription.processing")
                        : t("subscription.subscribe", { plan: plan.name })}
                  </button>
                </Form>
              </li>
            );
          })}
        </ul>

        {user?.hasBillingAccount ? (
          <Form method="post" className="center" onSubmit={(event) => send(event, "portal", "/api/subscription/portal", {})}>
            <button type="submit" name="intent" value="portal" className="button button-secondary" disabled={busy !== null}>
              {busy === "portal" ? t("subscription.openingBilling") : t("subscription.manageBilling")}
            </button>
          </Form>
        ) : null}

        <div className="card billing-info" role="note">
          <strong>{t("subscription.billing.heading")}</strong>
          <p>{t("subscription.billing.text")}</p>
        </div>
      </div>
    </Page>
  );
}
