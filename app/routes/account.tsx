import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation, useSearchParams } from "@remix-run/react";
import { useMemo } from "react";
import { z } from "zod";
import { Field, FieldError } from "#app/components/form-field";
import { Page } from "#app/components/layout";
import { changePassword, deleteAccount, findUserRowByEmail, verifyPassword, type User } from "#app/models/user.server";
import { cancelSubscriptionOfDeletedAccount } from "#app/models/subscription.server";
import { BILLING_FAILURE_STATUS } from "#app/utils/api.server";
import { endSession, requireUser, startSession } from "#app/utils/session.server";
import { planName, QUIZ_LIMIT_CHECK_FAILED } from "#app/utils/plans";
import { checkQuizLimit } from "#app/utils/quiz-limit.server";
import { fieldError, fieldProps, getFormProps, parseForm, parseIntent, useSchemaForm, type FieldErrors } from "#app/utils/forms";
import { PasswordSchema } from "#app/utils/validation";

export const meta: MetaFunction = () => [{ title: "My Account - Quiz Night" }];

const CURRENT_PASSWORD_INCORRECT = "Current password is incorrect";
const CURRENT_PASSWORD_REQUIRED = "Enter your current password";
const PASSWORDS_DONT_MATCH = "Passwords don't match";
const DELETE_CONFIRMATION = "I understand this deletes my account and my quizzes";
const DELETE_NOT_CONFIRMED = "Tick the box to confirm that you want to delete your account.";
const PASSWORD_CHANGED = "Password changed.";

/**
 * The change-password form; an account with a password must give it (the server checks it
 * against the account), one without (signed up with Google) sets its first.
 */
function changePasswordSchema(needsCurrent: boolean) {
  return z
    .object({
      currentPassword: needsCurrent ? z.string({ error: CURRENT_PASSWORD_REQUIRED }).min(1, CURRENT_PASSWORD_REQUIRED) : z.string().default(""),
      newPassword: PasswordSchema,
      confirmPassword: z.string({ error: PASSWORDS_DONT_MATCH }),
    })
    .refine((form) => form.newPassword === form.confirmPassword, { message: PASSWORDS_DONT_MATCH, path: ["confirmPassword"] });
}
const ChangePasswordSchema = changePasswordSchema(true);
const SetPasswordSchema = changePasswordSchema(false);
const passwordSchemaFor = (hasPassword: boolean) => (hasPassword ? ChangePasswordSchema : SetPasswordSchema);

const DeleteAccountSchema = z.object({ confirm: z.literal("yes", { error: DELETE_NOT_CONFIRMED }) });

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
    },
    remainingQuizzes: (await checkQuizLimit(context, user))?.remaining ?? null,
  };
}

type Intent = "change-password" | "delete-account";

interface AccountActionData {
  intent: Intent | "unknown";
  errors: FieldErrors;
}

function refuse(intent: AccountActionData["intent"], errors: FieldErrors, status = 400) {
  return data<AccountActionData>({ intent, errors }, { status });
}

async function currentPasswordMatches(context: ActionFunctionArgs["context"], user: User, password: string): Promise<boolean> {
  if (!user.email) return false;
  const row = await findUserRowByEmail(context.db, user.email);
  if (!row || row.id !== user.id || !row.password_hash) return false;
  return verifyPassword(row.password_hash, password);
}

/** Change the password, or delete the account (which ends the session); both work as plain form posts. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  const form = await request.formData();
  const intent = parseIntent(form, ["change-password", "delete-account"]);

  if (intent === "change-password") {
    const submission = parseForm(form, passwordSchemaFor(user.hasPassword));
    if (submission.status !== "success") return refuse(intent, submission.errors);
    const { currentPassword, newPassword } = submission.value;
    if (user.hasPassword && !(await currentPasswordMatches(context, user, currentPassword))) {
      return refuse(intent, { currentPassword: CURRENT_PASSWORD_INCORRECT });
    }
    await changePassword(context.db, user.id, newPassword);
    // Every other browser signed in to the account is signed out; this one goes on under a new session.
    return redirect("/account?password=changed", { headers: { "Set-Cookie": await startSession(context, request, user.id) } });
  }

  if (intent === "delete-account") {
    const submission = parseForm(form, DeleteAccountSchema);
    if (submission.status !== "success") return refuse(intent, submission.errors);
    const cancelled = await cancelSubscriptionOfDeletedAccount(context.db, context.billing, user.id, context.logger);
    if (!cancelled.ok) return refuse(intent, { _form: cancelled.message }, BILLING_FAILURE_STATUS[cancelled.reason]);
    await deleteAccount(context.db, user.id);
    return redirect("/", { headers: { "Set-Cookie": await endSession(context, request) } });
  }

  return refuse("unknown", { _form: "Unknown action." });
}

export default function Account() {
  const { account, remainingQuizzes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const passwordChanged = searchParams.get("password") === "changed";

  return (
    <Page narrow>
      <div className="stack account">
        <h1>My Account</h1>
        {actionData?.errors._form ? (
          <p className="form-error" role="alert">
            {actionData.errors._form}
          </p>
        ) : null}

        <section className="card stack" aria-labelledby="profile-heading">
          <h2 id="profile-heading">Profile</h2>
          <dl className="account-details">
            <div>
              <dt>Username</dt>
              <dd>{account.username}</dd>
            </div>
            <div>
              <dt>Display name</dt>
              <dd>{account.displayName || <span className="muted">Not set</span>}</dd>
            </div>
            <div>
              <dt>Email</dt>
              <dd>{account.email || <span className="muted">Not set</span>}</dd>
            </div>
          </dl>
        </section>

        <section className="card stack" aria-labelledby="plan-heading">
          <h2 id="plan-heading">Plan</h2>
          <dl className="account-details">
            <div>
              <dt>Current plan</dt>
              <dd>{account.plan}</dd>
            </div>
            <div>
              <dt>AI quizzes left today</dt>
              <dd>{remainingQuizzes ?? QUIZ_LIMIT_CHECK_FAILED}</dd>
            </div>
          </dl>
          <div className="row">
            {account.isFree ? (
              <Link to="/subscription" className="button">
                Upgrade Plan
              </Link>
            ) : (
              <Link to="/subscription" className="button button-secondary">
                Change Plan
              </Link>
            )}
            <Link to="/my-quizzes" className="button button-secondary">
              My Quizzes
            </Link>
          </div>
          {account.hasBillingAccount ? (
            <Form method="post" action="/subscription">
              <button type="submit" name="intent" value="portal" className="button button-secondary">
                Manage billing
              </button>
            </Form>
          ) : null}
        </section>

        <ChangePasswordForm
          username={account.email ?? account.username}
          hasPassword={account.hasPassword}
          serverErrors={actionData?.intent === "change-password" ? actionData.errors : undefined}
          changed={passwordChanged}
        />

        <DeleteAccountForm serverErrors={actionData?.intent === "delete-account" ? actionData.errors : undefined} />
      </div>
    </Page>
  );
}

function ChangePasswordForm(props: { username: string; hasPassword: boolean; serverErrors?: FieldErrors; changed: boolean }) {
  const navigation = useNavigation();
  const location = useLocation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "change-password";
  const reply = useServerErrors(props.serverErrors);
  const [form, fields] = useSchemaForm(passwordSchemaFor(props.hasPassword), { id: "change-password-form", reply });

  return (
    <section className="card stack" aria-labelledby="password-heading">
      <h2 id="password-heading">{props.hasPassword ? "Change password" : "Set a password"}</h2>
      {props.changed ? (
        <p className="status-notice" role="status">
          {PASSWORD_CHANGED}
        </p>
      ) : null}
      {props.hasPassword ? null : <p className="hint">Your account has no password yet. Set one to also log in with your email.</p>}
      {/* Keyed by location: after each post the password fields start empty, as they do without JavaScript. */}
      <Form key={location.key} method="post" action="/account" {...getFormProps(form)} className="stack" aria-labelledby="password-heading">
        {/* Lets password managers file the new password under the right account. */}
        <input type="text" name="username" autoComplete="username" value={props.username} readOnly hidden />
        {props.hasPassword ? (
          <Field id="currentPassword" type="password" label="Current password" autoComplete="current-password" {...fieldProps(fields.currentPassword)} />
        ) : null}
        <Field id="newPassword" type="password" label="New password" autoComplete="new-password" {...fieldProps(fields.newPassword)} />
        <Field id="confirmPassword" type="password" label="Confirm new password" autoComplete="new-password" {...fieldProps(fields.confirmPassword)} />
        <div>
          <button type="submit" name="intent" value="change-password" className="button" disabled={busy}>
            {busy ? "Changing password..." : props.hasPassword ? "Change Password" : "Set Password"}
          </button>
        </div>
      </Form>
    </section>
  );
}

function DeleteAccountForm({ serverErrors }: { serverErrors?: FieldErrors }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "delete-account";
  const reply = useServerErrors(serverErrors);
  const [form, fields] = useSchemaForm(DeleteAccountSchema, { id: "delete-account-form", reply });
  const error = fieldError(fields.confirm);

  return (
    <section className="card stack account-danger" aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete account</h2>
      <p>Deleting your account also deletes every quiz you have made and their games. This cannot be undone.</p>
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
            {DELETE_CONFIRMATION}
          </label>
          <FieldError id="confirm-error" message={error} />
        </div>
        <div>
          <button type="submit" name="intent" value="delete-account" className="button button-danger" disabled={busy}>
            {busy ? "Deleting account..." : "Delete Account"}
          </button>
        </div>
      </Form>
    </section>
  );
}

/** The action's messages for one of the page's forms, as that form's reply (one object per post). */
function useServerErrors(errors: FieldErrors | undefined) {
  return useMemo(() => (errors ? { errors } : undefined), [errors]);
}
