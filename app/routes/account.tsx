import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation, useSearchParams, type ShouldRevalidateFunction } from "@remix-run/react";
import { useMemo } from "react";
import { Trans, useTranslation } from "#app/i18n/use-translation";
import { z } from "zod";
import { Field, FieldError, FormError } from "#app/components/form-field";
import { Page } from "#app/components/layout";
import { LANGUAGE_NAMES, LANGUAGES, type Language } from "#app/i18n/languages";
import { metaT } from "#app/i18n/meta";
import { changePassword, deleteAccount, findUserRowByEmail, verifyPassword, type User } from "#app/models/user.server";
import { cancelSubscriptionsOfDeletedAccount } from "#app/models/subscription.server";
import { BILLING_FAILURE_STATUS, requireUser, readForm } from "#app/http/api.server";
import { endAllSessions, endSession, startSession } from "#app/sessions/session.server";
import { planName } from "#app/billing/plans";
import { checkQuizLimit } from "#app/ai/quiz-limit.server";
import {
  fieldError,
  fieldErrorCode,
  fieldProps,
  getFormProps,
  parseForm,
  parseIntent,
  useSchemaForm,
  type FieldCodes,
  type FieldErrors,
} from "#app/forms/forms";
import { appError, type AppError } from "#app/i18n/app-error";
import { coded } from "#app/i18n/coded";
import { englishErrorText } from "#app/i18n/error-english.server";
import { PasswordSchema } from "#app/schemas/validation";
import { afterFailedPost } from "#app/http/revalidation";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, "account")("account.title") }];

// The forms' refusals, raised with their codes (docs/decisions/0047-errors-as-codes.md).
const CURRENT_PASSWORD_REQUIRED = coded("CURRENT_PASSWORD_REQUIRED");
const PASSWORDS_DONT_MATCH = coded("PASSWORDS_DONT_MATCH");

/**
 * The change-password form; an account with a password must give it (the server checks it
 * against the account), one without (signed up with Google) sets its first.
 */
function changePasswordSchema(needsCurrent: boolean) {
  return z
    .object({
      currentPassword: needsCurrent ? z.string(CURRENT_PASSWORD_REQUIRED).min(1, CURRENT_PASSWORD_REQUIRED) : z.string().default(""),
      newPassword: PasswordSchema,
      confirmPassword: z.string(PASSWORDS_DONT_MATCH),
    })
    .refine((form) => form.newPassword === form.confirmPassword, { ...PASSWORDS_DONT_MATCH, path: ["confirmPassword"] });
}
const ChangePasswordSchema = changePasswordSchema(true);
const SetPasswordSchema = changePasswordSchema(false);
const passwordSchemaFor = (hasPassword: boolean) => (hasPassword ? ChangePasswordSchema : SetPasswordSchema);

const DeleteAccountSchema = z.object({ confirm: z.literal("yes", coded("DELETE_NOT_CONFIRMED")) });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  return {
    account: {
      username: user.username,
      displayName: user.displayName,
      email: user.email,
      plan: planName(user.subscriptionTier),
      isFree: user.subscriptionTier.toLowerCase() === "free",
      hasPassword: user.hasPassword,
      hasBillingAccount: user.hasBillingAccount,
      language: user.language,
    },
    remainingQuizzes: (await checkQuizLimit(context, user))?.remaining ?? null,
  };
}

type Intent = "change-password" | "sign-out-everywhere" | "delete-account";

interface AccountActionData {
  intent: Intent | "unknown";
  errors: FieldErrors;
  /** Each message's code and values, which the page says it by (docs/decisions/0047-errors-as-codes.md). */
  codes: FieldCodes;
}

function refuse(intent: AccountActionData["intent"], errors: FieldErrors, codes: FieldCodes, status = 400) {
  return data<AccountActionData>({ intent, errors, codes }, { status });
}

/** A refusal of one field (`_form`: the whole form), raised with its code. */
function refuseOne(intent: AccountActionData["intent"], field: string, code: AppError, status = 400, english = englishErrorText(code)) {
  return refuse(intent, { [field]: english }, { [field]: code }, status);
}

async function currentPasswordMatches(context: ActionFunctionArgs["context"], user: User, password: string): Promise<boolean> {
  if (!user.email) return false;
  const row = await findUserRowByEmail(context.db, user.email);
  if (!row || row.id !== user.id || !row.password_hash) return false;
  return verifyPassword(row.password_hash, password);
}

/**
 * Change the password, sign out everywhere (every session of the account ends, this one
 * included), or delete the account (which ends the session); all work as plain form posts.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  const form = await readForm(request, "/account");
  const intent = parseIntent(form, ["change-password", "sign-out-everywhere", "delete-account"]);

  if (intent === "change-password") {
    const submission = parseForm(form, passwordSchemaFor(user.hasPassword));
    if (submission.status !== "success") return refuse(intent, submission.errors, submission.codes);
    const { currentPassword, newPassword } = submission.value;
    if (user.hasPassword && !(await currentPasswordMatches(context, user, currentPassword))) {
      return refuseOne(intent, "currentPassword", appError("CURRENT_PASSWORD_INCORRECT"));
    }
    await changePassword(context.db, user.id, newPassword);
    // Every other browser signed in to the account is signed out; this one goes on under a new session.
    const cookie = await startSession(context, request, user.id, { endOtherSessions: true });
    return redirect("/account?password=changed", { headers: { "Set-Cookie": cookie } });
  }

  if (intent === "sign-out-everywhere") {
    return redirect("/", { headers: { "Set-Cookie": await endAllSessions(context, request, user.id) } });
  }

  if (intent === "delete-account") {
    const submission = parseForm(form, DeleteAccountSchema);
    if (submission.status !== "success") return refuse(intent, submission.errors, submission.codes);
    const cancelled = await cancelSubscriptionsOfDeletedAccount(context.db, context.billing, user.id, context.logger);
    if (!cancelled.ok)
      return cancelled.error
        ? refuseOne(intent, "_form", cancelled.error, BILLING_FAILURE_STATUS[cancelled.reason], cancelled.message)
        : refuse(intent, { _form: cancelled.message }, {}, BILLING_FAILURE_STATUS[cancelled.reason]);
    await deleteAccount(context.db, user.id);
    return redirect("/", { headers: { "Set-Cookie": await endSession(context, request) } });
  }

  return refuseOne("unknown", "_form", appError("UNKNOWN_ACTION"));
}

/** A refused form changed nothing the loader reads; a reload would remount the password form (keyed by location) under the user's typing. */
export const shouldRevalidate: ShouldRevalidateFunction = (args) => (afterFailedPost(args) ? false : args.defaultShouldRevalidate);

export default function Account() {
  const { account, remainingQuizzes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const { t, language: pageLanguage } = useTranslation("account");
  const passwordChanged = searchParams.get("password") === "changed";

  return (
    <Page narrow>
      <div className="stack account">
        <h1>{t("account.heading")}</h1>
        <FormError message={actionData?.errors._form} error={actionData?.codes._form} />

        <section className="card stack" aria-labelledby="profile-heading">
          <h2 id="profile-heading">{t("account.profile.heading")}</h2>
          <dl className="account-details">
            <div>
              <dt>{t("account.profile.username")}</dt>
              <dd>{account.username}</dd>
            </div>
            <div>
              <dt>{t("account.profile.displayName")}</dt>
              <dd>{account.displayName || <span className="muted">{t("account.profile.notSet")}</span>}</dd>
            </div>
            <div>
              <dt>{t("account.profile.email")}</dt>
              <dd>{account.email || <span className="muted">{t("account.profile.notSet")}</span>}</dd>
            </div>
          </dl>
        </section>

        <section className="card stack" aria-labelledby="plan-heading">
          <h2 id="plan-heading">{t("account.plan.heading")}</h2>
          <dl className="account-details">
            <div>
              <dt>{t("account.plan.current")}</dt>
              <dd>{account.plan}</dd>
            </div>
            <div>
              <dt>{t("account.plan.aiQuizzesLeft")}</dt>
              <dd>{remainingQuizzes === null ? t("fallback.quizLimit") : new Intl.NumberFormat(pageLanguage).format(remainingQuizzes)}</dd>
            </div>
          </dl>
          <div className="row">
            {account.isFree ? (
              <Link to="/subscription" className="button">
                {t("account.plan.upgrade")}
              </Link>
            ) : (
              <Link to="/subscription" className="button button-secondary">
                {t("account.plan.change")}
              </Link>
            )}
            <Link to="/my-quizzes" className="button button-secondary">
              {t("account.plan.myQuizzes")}
            </Link>
          </div>
          {account.hasBillingAccount ? (
            <Form method="post" action="/subscription">
              <button type="submit" name="intent" value="portal" className="button button-secondary">
                {t("account.plan.manageBilling")}
              </button>
            </Form>
          ) : null}
        </section>

        <LanguageSection saved={account.language} />

        <ChangePasswordForm
          username={account.email ?? account.username}
          hasPassword={account.hasPassword}
          serverErrors={actionData?.intent === "change-password" ? actionData : undefined}
          changed={passwordChanged}
        />

        <SignOutEverywhereForm />

        <DeleteAccountForm serverErrors={actionData?.intent === "delete-account" ? actionData : undefined} />
      </div>
    </Page>
  );
}

/**
 * The interface's language, the same choice as the footer's switcher (POST /language, which
 * reloads the page in it), and whether it is saved on the account, where the user's other
 * browsers find it (docs/decisions/0029-languages.md).
 */
function LanguageSection({ saved }: { saved: Language | null }) {
  const { t, language: pageLanguage } = useTranslation("account");
  return (
    <section className="card stack" aria-labelledby="language-heading">
      <h2 id="language-heading">{t("account.language.heading")}</h2>
      <p className="hint">{t("account.language.intro")}</p>
      <Form method="post" action="/language" reloadDocument className="theme-switch language-switch">
        <input type="hidden" name="redirectTo" value="/account" />
        {LANGUAGES.map((language) => (
          <button key={language} type="submit" name="language" value={language} className="chip" lang={language} aria-pressed={pageLanguage === language}>
            {LANGUAGE_NAMES[language]}
          </button>
        ))}
      </Form>
      <p className="hint">
        {saved ? (
          <Trans t={t} i18nKey="account.language.saved" values={{ language: LANGUAGE_NAMES[saved] }} components={{ strong: <strong lang={saved} /> }} />
        ) : (
          t("account.language.notSaved")
        )}
      </p>
    </section>
  );
}

function ChangePasswordForm(props: { username: string; hasPassword: boolean; serverErrors?: ServerErrors; changed: boolean }) {
  const { t } = useTranslation("account");
  const navigation = useNavigation();
  const location = useLocation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "change-password";
  const reply = useServerErrors(props.serverErrors);
  const [form, fields] = useSchemaForm(passwordSchemaFor(props.hasPassword), { id: "change-password-form", reply });

  return (
    <section className="card stack" aria-labelledby="password-heading">
      <h2 id="password-heading">{props.hasPassword ? t("account.password.changeHeading") : t("account.password.setHeading")}</h2>
      {props.changed ? (
        <p className="status-notice" role="status">
          {t("account.password.changed")}
        </p>
      ) : null}
      {props.hasPassword ? null : <p className="hint">{t("account.password.noPassword")}</p>}
      {/* Keyed by location: after each post the password fields start empty, as they do without JavaScript. */}
      <Form key={location.key} method="post" action="/account" {...getFormProps(form)} className="stack" aria-labelledby="password-heading">
        {/* Lets password managers file the new password under the right account. */}
        <input type="text" name="username" autoComplete="username" value={props.username} readOnly hidden />
        {props.hasPassword ? (
          <Field
            id="currentPassword"
            type="password"
            label={t("account.password.current")}
            autoComplete="current-password"
            {...fieldProps(fields.currentPassword)}
          />
        ) : null}
        <Field id="newPassword" type="password" label={t("account.password.new")} autoComplete="new-password" {...fieldProps(fields.newPassword)} />
        <Field id="confirmPassword" type="password" label={t("account.password.confirm")} autoComplete="new-password" {...fieldProps(fields.confirmPassword)} />
        <div>
          <button type="submit" name="intent" value="change-password" className="button" disabled={busy}>
            {busy ? t("account.password.busy") : props.hasPassword ? t("account.password.change") : t("account.password.set")}
          </button>
        </div>
      </Form>
    </section>
  );
}

/** Ends every session of the account (docs/decisions/0043): signing in elsewhere no longer does. */
function SignOutEverywhereForm() {
  const { t } = useTranslation("account");
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "sign-out-everywhere";
  return (
    <section className="card stack" aria-labelledby="sign-out-everywhere-heading">
      <h2 id="sign-out-everywhere-heading">{t("account.signOutEverywhere.heading")}</h2>
      <p className="hint">{t("account.signOutEverywhere.text")}</p>
      <Form method="post" action="/account" aria-labelledby="sign-out-everywhere-heading">
        <button type="submit" name="intent" value="sign-out-everywhere" className="button button-secondary" disabled={busy}>
          {busy ? t("account.signOutEverywhere.busy") : t("account.signOutEverywhere.submit")}
        </button>
      </Form>
    </section>
  );
}

function DeleteAccountForm({ serverErrors }: { serverErrors?: ServerErrors }) {
  const { t } = useTranslation("account");
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete-account";
  const reply = useServerErrors(serverErrors);
  const [form, fields] = useSchemaForm(DeleteAccountSchema, { id: "delete-account-form", reply });
  const error = fieldError(fields.confirm);

  return (
    <section className="card stack account-danger" aria-labelledby="delete-heading">
      <h2 id="delete-heading">{t("account.delete.heading")}</h2>
      <p>{t("account.delete.warning")}</p>
      <Form method="post" action="/account" {...getFormProps(form)} className="stack" aria-labelledby="delete-heading">
        <div className="field">
          <label className="choice">
            <input
              type="checkbox"
              name={fields.confirm.name}
              value="yes"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "confirm-error" : undefined}
            />
            {t("account.delete.confirm")}
          </label>
          <FieldError id="confirm-error" message={error} error={fieldErrorCode(fields.confirm)} />
        </div>
        <div>
          <button type="submit" name="intent" value="delete-account" className="button button-danger" disabled={busy}>
            {busy ? t("account.delete.busy") : t("account.delete.submit")}
          </button>
        </div>
      </Form>
    </section>
  );
}

/** The action's messages for one of the page's forms, with their codes. */
type ServerErrors = Pick<AccountActionData, "errors" | "codes">;

/** The action's messages for one of the page's forms, as that form's reply (one object per post). */
function useServerErrors(reply: ServerErrors | undefined) {
  return useMemo(() => (reply ? { errors: reply.errors, codes: reply.codes } : undefined), [reply]);
}
