import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, type ClientActionFunctionArgs, type ShouldRevalidateFunction } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { GoogleSignInButton } from "#app/components/google-sign-in";
import { Field } from "#app/components/form-field";
import { Page } from "#app/components/layout";
import { useToast } from "#app/components/toaster";
import { useSayError } from "#app/i18n/error-text";
import { appError, type AppError } from "#app/i18n/app-error";
import { metaT } from "#app/i18n/meta";
import { AUTH_FAILURE_STATUS, retryAfterHeaders, readForm } from "#app/http/api.server";
import { AuthError, continueAsGuest, login, register } from "#app/auth/auth.server";
import {
  fieldProps,
  getFormProps,
  parseForm,
  parseIntent,
  useSchemaForm,
  type FieldCodes,
  type FieldErrors,
  type FormSchema,
  type FormValues,
} from "#app/forms/forms";
import { FAILED_TO_AUTHENTICATE, SOMETHING_WENT_WRONG } from "#app/auth/google-errors";
import { GUEST_AI_QUIZ_LIMIT } from "#app/billing/plans";
import { getUser } from "#app/sessions/session.server";
import { LoginSchema, RegisterSchema } from "#app/schemas/validation";
import { retryAfterFromAction } from "#app/http/route-headers";
import { safeRedirect } from "#app/http/safe-redirect";
import { useHydrated } from "#app/components/use-hydrated";
import { afterFailedPost } from "#app/http/revalidation";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "account")("auth.title") }];

type Tab = "login" | "register";
type Intent = Tab | "guest";

const TABS: Tab[] = ["login", "register"];

/** Where the auth action's redirect tells FlashToasts which success toast to show. */
const WELCOME_PARAM = "welcome";

/** The redirect target with the one-shot `?welcome=` flash added. */
function withWelcome(to: string, intent: Intent): string {
  const url = new URL(to, "http://quiz.invalid");
  url.searchParams.set(WELCOME_PARAM, intent);
  return `${url.pathname}${url.search}${url.hash}`;
}

function redirectParam(request: Request): string | null {
  const to = new URL(request.url).searchParams.get("redirectTo");
  return to && safeRedirect(to, "") ? safeRedirect(to) : null;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getUser(context, request);
  // A guest may still register or log in here; an account has nothing to do on this page.
  if (user && !user.isGuest) throw redirect("/");
  const url = new URL(request.url);
  const tab: Tab = url.searchParams.get("tab") === "register" ? "register" : "login";
  return { tab, redirectTo: redirectParam(request), isGuest: Boolean(user?.isGuest) };
}

export interface AuthActionData {
  intent: Intent;
  /** What was typed, passwords left out. */
  values: FormValues;
  fieldErrors: FieldErrors;
  formError: string;
  /** The code and values of each field's message and of the form's, which the page says them by (docs/decisions/0047-errors-as-codes.md). */
  fieldCodes: FieldCodes;
  formErrorCode: AppError | null;
}

/** Never sent back to the page. */
const PASSWORD_FIELDS = ["password", "confirmPassword"];

/** A post refused by a limit carries Retry-After. */
export const headers = retryAfterFromAction;

/**
 * What a failure nobody planned for says (docs/product.md#messages): the server's own error, a
 * request that never arrived, an answer that is not ours. Refusals for a known reason keep their message.
 */
export const AUTH_FALLBACK: Record<Intent, string> = { login: "Failed to login", register: "Failed to register", guest: FAILED_TO_AUTHENTICATE };

/** The fallbacks by their codes; the guest's is worded by the `account` catalog (`fallback.authenticate`). */
const AUTH_FALLBACK_CODES: Record<Intent, AppError | null> = { login: appError("LOGIN_FALLBACK"), register: appError("REGISTER_FAILED"), guest: null };

/** A failure nobody planned for, as the page shows it. */
function fallbackOf(intent: Intent, values: FormValues): AuthActionData {
  return { intent, values, fieldErrors: {}, formError: AUTH_FALLBACK[intent], fieldCodes: {}, formErrorCode: AUTH_FALLBACK_CODES[intent] };
}

/** The refused form's toast title, in the `account` catalog. */
const FAILURE_TITLE: Record<Intent, string> = { login: "auth.login.failed", register: "auth.register.failed", guest: "auth.guest.failed" };

/** What the page shows of a form: the intent and what was typed, passwords left out. */
function submitted(form: FormData): Pick<AuthActionData, "intent" | "values"> {
  const intent: Intent = parseIntent(form, ["login", "register", "guest"]) ?? "login";
  // login() and register() check the form with these same schemas; this is what goes back to the page.
  const { values } = parseForm(form, intent === "register" ? RegisterSchema : LoginSchema, { secret: PASSWORD_FIELDS });
  return { intent, values };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request, "/auth");
  const { intent, values } = submitted(form);
  const to = redirectParam(request) ?? "/";
  try {
    const { cookie } =
      intent === "login"
        ? await login(context, request, form)
        : intent === "register"
          ? await register(context, request, form)
          : await continueAsGuest(context, request);
    return redirect(withWelcome(to, intent), cookie ? { headers: { "Set-Cookie": cookie } } : undefined);
  } catch (error) {
    if (!(error instanceof AuthError)) {
      context.logger.error({ event: "auth_failed", intent, err: error }, "a sign-in failed on the server");
      return data<AuthActionData>(fallbackOf(intent, values), { status: 500 });
    }
    const body: AuthActionData = {
      intent,
      values,
      fieldErrors: error.fieldErrors,
      formError: error.message,
      fieldCodes: error.fieldCodes,
      formErrorCode: error.error,
    };
    const headers = error.retryAfterSeconds === undefined ? undefined : retryAfterHeaders(error.retryAfterSeconds);
    return data(body, { status: AUTH_FAILURE_STATUS[error.reason], headers });
  }
}

/** With JavaScript: a post that never reached the server, or came back as something not ours, gets the fallback too. */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs): Promise<AuthActionData> {
  const form = await request.clone().formData();
  try {
    return await serverAction<typeof action>();
  } catch (error) {
    if (error instanceof Response) throw error; // the redirect of a success
    const { intent, values } = submitted(form);
    return fallbackOf(intent, values);
  }
}

/** A refused form changed nothing the loader reads; after an unreachable server, reloading would only fail too. */
export const shouldRevalidate: ShouldRevalidateFunction = (args) => (afterFailedPost(args) ? false : args.defaultShouldRevalidate);

// ---------------------------------------------------------------- page

export default function Auth() {
  const { tab: linkedTab, redirectTo, isGuest } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof clientAction>();
  const hydrated = useHydrated();
  const toast = useToast();
  const { t } = useTranslation("account");
  const errorText = useAuthErrorText();
  const failedTab = actionData && actionData.intent !== "guest" ? actionData.intent : null;

  // The tab shown: the one the last refused form was on, else the URL's ?tab=, else what was clicked.
  const [tab, setTab] = useState<Tab>(failedTab ?? linkedTab);
  const [seen, setSeen] = useState({ linkedTab, actionData });
  if (seen.linkedTab !== linkedTab || seen.actionData !== actionData) {
    setSeen({ linkedTab, actionData });
    setTab(seen.actionData !== actionData && failedTab ? failedTab : linkedTab);
  }

  useEffect(() => {
    if (!actionData) return;
    const description = actionData.formError
      ? errorText(actionData.formErrorCode, actionData.formError)
      : errorText(appError("SOMETHING_WENT_WRONG"), SOMETHING_WENT_WRONG);
    toast({ title: t(FAILURE_TITLE[actionData.intent]), description, variant: "destructive" });
  }, [actionData, toast, t, errorText]);

  const tabRefs = useRef<Record<Tab, HTMLAnchorElement | null>>({ login: null, register: null });
  const query = (extra: Record<string, string>) => `?${new URLSearchParams({ ...extra, ...(redirectTo ? { redirectTo } : {}) })}`;
  const actionUrl = redirectTo ? `/auth?${new URLSearchParams({ redirectTo })}` : "/auth";

  function onTabClick(event: MouseEvent<HTMLAnchorElement>, next: Tab) {
    // With JavaScript the tabs switch in place; without it the link asks the server for ?tab=.
    event.preventDefault();
    setTab(next);
  }

  function onTabKeyDown(event: KeyboardEvent<HTMLAnchorElement>) {
    const index = TABS.indexOf(tab);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = TABS[(moves[event.key] + TABS.length) % TABS.length];
    setTab(next);
    tabRefs.current[next]?.focus();
  }

  return (
    <Page>
      <div className="auth-layout">
        <section className="card stack auth-card" aria-labelledby="auth-heading">
          <div>
            <h1 id="auth-heading">{t("auth.heading")}</h1>
            <p className="muted">{t("auth.intro")}</p>
            {isGuest ? <p className="muted">{t("auth.guestNote")}</p> : null}
          </div>

          <div role="tablist" aria-label={t("auth.tabsLabel")} className="auth-tabs">
            {TABS.map((id) => (
              <Link
                key={id}
                ref={(element) => {
                  tabRefs.current[id] = element;
                }}
                to={query({ tab: id })}
                role="tab"
                id={`auth-tab-${id}`}
                aria-selected={tab === id}
                aria-controls={`auth-panel-${id}`}
                tabIndex={hydrated && tab !== id ? -1 : undefined}
                className="auth-tab"
                preventScrollReset
                replace
                onClick={(event) => onTabClick(event, id)}
                onKeyDown={onTabKeyDown}
              >
                {t(`auth.tabs.${id}`)}
              </Link>
            ))}
          </div>

          <div role="tabpanel" id="auth-panel-login" aria-labelledby="auth-tab-login" hidden={tab !== "login"}>
            <LoginForm actionUrl={actionUrl} result={actionData?.intent === "login" ? actionData : undefined} />
          </div>
          <div role="tabpanel" id="auth-panel-register" aria-labelledby="auth-tab-register" hidden={tab !== "register"}>
            <RegisterForm actionUrl={actionUrl} result={actionData?.intent === "register" ? actionData : undefined} />
          </div>

          <div className="auth-divider" role="presentation">
            <span>{t("auth.or")}</span>
          </div>

          <div className="stack auth-alternatives">
            {/* The button carries the notice that Google sign-in needs domain authorization. */}
            <GoogleSignInButton />
            <GuestForm actionUrl={actionUrl} result={actionData?.intent === "guest" ? actionData : undefined} />
            <p className="hint">{t("auth.guestLimit", { count: GUEST_AI_QUIZ_LIMIT })}</p>
          </div>
        </section>

        <aside className="card stack auth-benefits" aria-labelledby="benefits-heading">
          <h2 id="benefits-heading">{t("auth.benefits.heading")}</h2>
          <p className="muted">{t("auth.benefits.intro")}</p>
          <ul className="auth-benefit-list">
            <li>{t("auth.benefits.unlimited")}</li>
            <li>{t("auth.benefits.save")}</li>
            <li>{t("auth.benefits.track")}</li>
            <li>{t("auth.benefits.multiplayer")}</li>
          </ul>
          <Link to="/subscription" className="button button-secondary">
            {t("auth.benefits.viewPlans")}
          </Link>
        </aside>
      </div>
    </Page>
  );
}

/**
 * A refusal of these forms in the page's language, from the code it was raised with (a wait in it
 * said the reader's way); the guest fallback, which has no code (the Google API also sends it so),
 * has its words in the `account` catalog.
 */
function useAuthErrorText(): (error: AppError | null | undefined, english: string) => string {
  const { t } = useTranslation("account");
  const sayError = useSayError();
  return useCallback((error, english) => (!error && english === FAILED_TO_AUTHENTICATE ? t("fallback.authenticate") : sayError(error, english)), [t, sayError]);
}

interface FormProps {
  actionUrl: string;
  /** The server's answer to this form's last post, when it was refused. */
  result?: AuthActionData;
}

/**
 * What a login or register form shares: the schema its post is checked with on the server,
 * checked here before posting, the server's refusal beside the fields (or, when no field is at
 * fault, as one message) with what was typed kept but the passwords, and no second post while
 * one is on its way.
 */
function useAuthForm<Schema extends FormSchema>(tab: Tab, schema: Schema, result: AuthActionData | undefined) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === tab;
  const reply = useMemo(() => result && { values: result.values, errors: result.fieldErrors, codes: result.fieldCodes }, [result]);
  const [form, fields] = useSchemaForm(schema, {
    id: `${tab}-form`,
    reply,
    onSubmit(event) {
      if (busy) event.preventDefault();
    },
  });
  const errorText = useAuthErrorText();
  const formError = result && Object.keys(result.fieldErrors).length === 0 ? errorText(result.formErrorCode, result.formError) : null;
  return { form, fields, formError, busy };
}

function LoginForm({ actionUrl, result }: FormProps) {
  const { t } = useTranslation("account");
  const { form, fields, formError, busy } = useAuthForm("login", LoginSchema, result);
  return (
    <Form method="post" action={actionUrl} {...getFormProps(form)} className="stack" aria-label={t("auth.login.label")}>
      <input type="hidden" name="intent" value="login" />
      <Field id="login-email" label={t("auth.fields.email")} type="email" autoComplete="email" {...fieldProps(fields.email)} />
      <Field id="login-password" label={t("auth.fields.password")} type="password" autoComplete="current-password" {...fieldProps(fields.password)} />
      {formError ? (
        <p className="form-error" role="alert">
          {formError}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={busy}>
        {busy ? t("auth.login.busy") : t("auth.login.submit")}
      </button>
    </Form>
  );
}

function RegisterForm({ actionUrl, result }: FormProps) {
  const { t } = useTranslation("account");
  const { form, fields, formError, busy } = useAuthForm("register", RegisterSchema, result);
  return (
    <Form method="post" action={actionUrl} {...getFormProps(form)} className="stack" aria-label={t("auth.register.label")}>
      <input type="hidden" name="intent" value="register" />
      <Field id="register-username" label={t("auth.fields.username")} autoComplete="username" {...fieldProps(fields.username)} />
      <Field id="register-email" label={t("auth.fields.email")} type="email" autoComplete="email" {...fieldProps(fields.email)} />
      <Field id="register-password" label={t("auth.fields.password")} type="password" autoComplete="new-password" {...fieldProps(fields.password)} />
      <Field
        id="register-confirm-password"
        label={t("auth.fields.confirmPassword")}
        type="password"
        autoComplete="new-password"
        {...fieldProps(fields.confirmPassword)}
      />
      {formError ? (
        <p className="form-error" role="alert">
          {formError}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={busy}>
        {busy ? t("auth.register.busy") : t("auth.register.submit")}
      </button>
    </Form>
  );
}

function GuestForm({ actionUrl, result }: { actionUrl: string; result?: AuthActionData }) {
  const { t } = useTranslation("account");
  const errorText = useAuthErrorText();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "guest";
  return (
    <Form method="post" action={actionUrl}>
      <input type="hidden" name="intent" value="guest" />
      <button type="submit" className="button button-secondary auth-wide" disabled={busy}>
        {t("auth.guest.submit")}
      </button>
      {result?.formError ? (
        <p className="form-error" role="alert">
          {errorText(result.formErrorCode, result.formError)}
        </p>
      ) : null}
    </Form>
  );
}
