/**
 * The one way the app reads a form, in the action and in the browser: conform
 * (https://conform.guide) with the zod schemas that already hold every rule and message
 * (`validation.ts`, `form-schemas.ts`).
 *
 * The action reads the post within its route's limits (`readForm` in api.server.ts: conform is
 * quadratic in a repeated field and builds a list as long as the largest index a field names, so
 * it only ever sees a bounded form; docs/decisions/0040-bounded-bodies.md), declares its schema
 * and reads a typed result:
 *
 *     const submission = parseForm(await readForm(request, "/join"), JoinFormSchema);
 *     if (submission.status !== "success") return data({ values: submission.values, errors: submission.errors }, { status: 400 });
 *     submission.value.gameCode; // typed, normalised
 *
 * and the page checks the same schema before posting, shows each message beside its field and
 * moves focus to the first invalid one:
 *
 *     const [form, fields] = useSchemaForm(HostFormSchema, { id: "host-form", reply: actionData });
 *     <Form method="post" {...getFormProps(form)}>
 *       <Field id="hostName" label="Host name" {...fieldProps(fields.hostName)} />
 *
 * Without JavaScript the `<Form>` posts as a plain HTML form and the action's reply renders the
 * same messages beside the same fields.
 *
 * Each message is raised with its code (`coded` in the schemas): its English stays here, as the
 * actions and the API's callers speak it, and its code and values travel beside it (`codes` in a
 * reply, each field's issue in the browser); `Field` / `FieldError` / `FormError`
 * (app/components/form-field.tsx) say it in the page's language from the code
 * (docs/decisions/0047-errors-as-codes.md).
 *
 * The join page, which every player's phone loads, uses only the server half: its fields are
 * checked in the browser by their own constraints, so conform and zod stay off the phone
 * (docs/decisions/0025-player-download.md).
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useLayoutEffect, useMemo, useState } from "react";
import { z } from "zod";
import type { AppError } from "#app/i18n/app-error";
import { issueError } from "#app/i18n/coded";

export { getFormProps };

/** Field name to its first message; `_form` for a message about the whole form. */
export type FieldErrors = Partial<Record<string, string>>;

/** Field name to the code and values its first message was raised with (`coded`), beside `FieldErrors`. */
export type FieldCodes = Partial<Record<string, AppError>>;

/** One message of a field as conform holds it in the browser: its English and the code it is said by. */
export interface FieldIssue {
  message: string;
  error?: AppError;
}

/** What was typed into a form's fields, as text, to show again after a refusal (never a password). */
export type FormValues = Record<string, string>;

/** What an action sends back about a refused form: the fields to fill in again, a message per field and its code. */
export interface FormReply {
  values?: FormValues;
  errors?: FieldErrors;
  codes?: FieldCodes;
}

/** A form read with its schema: the typed value, or a message per field with its code. Either way, what was typed. */
export type FormSubmission<Output> =
  { status: "success"; value: Output; values: FormValues } | { status: "error"; values: FormValues; errors: FieldErrors; codes: FieldCodes };

/** Any schema of a whole form: an object, possibly refined, piped or transformed. */
export type FormSchema = z.ZodType<unknown, Record<string, unknown>>;

/** The field conform adds to the posts it makes to check a form as it is filled in. */
const INTENT_NAME = "__intent__";
/** Names conform gives its own meaning in a form post. */
const RESERVED_NAMES = new Set([INTENT_NAME, "__state__"]);

/**
 * The schemas read form text as it is typed (they trim, normalise and turn ids into numbers
 * themselves), so conform's own coercion stays off: it would make an empty field a missing one
 * and change a message (an empty game code is "Quiz code must be 6 characters", a missing one
 * "Enter the game code.").
 */
function parseWith<Schema extends FormSchema>(payload: FormData | URLSearchParams, schema: Schema) {
  try {
    return parseWithZod(payload, { schema, disableAutoCoercion: true, formatError: issuesOf });
  } catch {
    // A hand-made post with an unreadable conform intent: read its fields alone.
    const fields = new FormData();
    for (const [name, value] of payload.entries()) if (!RESERVED_NAMES.has(name)) fields.append(name, value);
    return parseWithZod(fields, { schema, disableAutoCoercion: true, formatError: issuesOf });
  }
}

/** A field's zod issues as conform keeps them: each message with the code it was raised with. */
function issuesOf(issues: readonly z.core.$ZodIssue[]): FieldIssue[] {
  return issues.map((issue) => {
    const error = issueError(issue);
    return error ? { message: issue.message, error } : { message: issue.message };
  });
}

const constraints = new WeakMap<FormSchema, ReturnType<typeof getZodConstraint>>();

/** Each field's constraint (`required`), read from the schema of the object the form fills in. */
function constraintOf(schema: FormSchema): ReturnType<typeof getZodConstraint> {
  let constraint = constraints.get(schema);
  if (!constraint) {
    // A schema that checks the form as a whole and then reshapes it (HostFormSchema) pipes the
    // object into a transform; the fields are those of the object.
    let object: z.core.$ZodType = schema;
    while (object._zod.def.type === "pipe") object = (object._zod.def as z.core.$ZodPipeDef).in;
    constraint = getZodConstraint(object);
    constraints.set(schema, constraint);
  }
  return constraint;
}

/** The schema's top-level field names. */
function fieldNamesOf(schema: FormSchema): string[] {
  return Object.keys(constraintOf(schema)).filter((name) => !/[.[]/.test(name));
}

/** Conform's issues per field name ("" for the whole form) to the first message per field, and its code. */
function firstMessages(error: Record<string, FieldIssue[] | null> | null | undefined): { errors: FieldErrors; codes: FieldCodes } {
  const errors: FieldErrors = {};
  const codes: FieldCodes = {};
  for (const [name, issues] of Object.entries(error ?? {})) {
    const first = issues?.[0];
    if (!first?.message) continue;
    const field = name === "" ? "_form" : name;
    errors[field] = first.message;
    if (first.error) codes[field] = first.error;
  }
  return { errors, codes };
}

/**
 * Reads a posted form with its schema. `values` holds what was typed into each of the schema's
 * fields ("" for one that was not sent), leaving out the `secret` ones (passwords), for the page
 * to show again; a refused form's `errors` its first message per field in English, and `codes`
 * the code and values each was raised with.
 */
export function parseForm<Schema extends FormSchema>(
  formData: FormData | URLSearchParams,
  schema: Schema,
  options: { secret?: readonly string[] } = {},
): FormSubmission<z.output<Schema>> {
  const submission = parseWith(formData, schema);
  const values: FormValues = {};
  for (const name of fieldNamesOf(schema)) {
    if (options.secret?.includes(name)) continue;
    const value = submission.payload[name];
    const text = Array.isArray(value) ? value[0] : value;
    values[name] = typeof text === "string" ? text : "";
  }
  if (submission.status === "success") return { status: "success", value: submission.value, values };
  return { status: "error", values, ...firstMessages(submission.error) };
}

/**
 * Which of a page's forms or buttons sent a post: its `intent` field, when it is one of those
 * the page knows, else null.
 */
export function parseIntent<const Intents extends readonly [string, ...string[]]>(
  formData: FormData | URLSearchParams,
  intents: Intents,
): Intents[number] | null {
  const submission = parseForm(formData, z.object({ intent: z.enum(intents) }));
  return submission.status === "success" ? submission.value.intent : null;
}

/** An action's reply as conform's last result: the values to start from and the messages to show, with their codes. */
function lastResultOf(reply: FormReply | null | undefined): SubmissionResult<FieldIssue[]> | undefined {
  if (!reply || (reply.values === undefined && reply.errors === undefined)) return undefined;
  const error: Record<string, FieldIssue[]> = {};
  for (const [name, message] of Object.entries(reply.errors ?? {})) {
    // A message about the whole form is the page's to place.
    const code = reply.codes?.[name];
    if (message && name !== "_form") error[name] = [code ? { message, error: code } : { message }];
  }
  return { status: "error", initialValue: reply.values ?? {}, error };
}

/** A layout effect in the browser; nothing to do on the server. */
const useBrowserLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

type FormOptions<Schema extends FormSchema> = Parameters<typeof useForm<z.input<Schema>, z.output<Schema>, FieldIssue[]>>[0];

/**
 * A page's form, checked with the schema its action reads: on submit (which then stops and
 * focuses the first invalid field), and from then on at every change, so the messages follow
 * what is typed. Not when a field is left: a message appearing then moves the page under the
 * pointer on its way to a button, and the click is lost.
 *
 * `reply` is the action's data for this form (a new object per post, as `useActionData` gives
 * it): its messages show beside the fields and focus goes to the first of them; a page rendered
 * from it (without JavaScript) starts its fields from its values; and the password fields start
 * empty again, as they do when the page comes back without JavaScript. `onSubmit` runs only for
 * a post that passed the check.
 */
export function useSchemaForm<Schema extends FormSchema>(
  schema: Schema,
  options: { id: string; reply?: FormReply | null; onSubmit?: FormOptions<Schema>["onSubmit"] },
) {
  const { id, reply, onSubmit } = options;
  const lastResult = useMemo(() => lastResultOf(reply), [reply]);
  const [submitted, setSubmitted] = useState(false);
  useBrowserLayoutEffect(() => {
    if (!lastResult) return;
    const form = document.forms.namedItem(id);
    for (const input of form?.querySelectorAll<HTMLInputElement>('input[type="password"]') ?? []) input.value = "";
  }, [lastResult, id]);
  return useForm<z.input<Schema>, z.output<Schema>, FieldIssue[]>({
    id,
    lastResult,
    constraint: constraintOf(schema),
    shouldValidate: submitted || lastResult ? "onInput" : "onSubmit",
    shouldRevalidate: "onInput",
    onValidate({ formData }) {
      if (!formData.has(INTENT_NAME)) setSubmitted(true);
      return parseWith(formData, schema);
    },
    onSubmit,
  });
}

/** What the helpers below read of conform's metadata of a field. */
interface FieldState {
  name: string;
  required?: boolean;
  initialValue?: unknown;
  errors?: FieldIssue[];
}

/** The first message of a field, in English. */
export function fieldError(field: FieldState): string | undefined {
  return field.errors?.[0]?.message;
}

/** The code and values of a field's first message, which it is shown by in the page's language. */
export function fieldErrorCode(field: FieldState): AppError | undefined {
  return field.errors?.[0]?.error;
}

/**
 * What a `Field` (app/components/form-field.tsx) takes from a field of an uncontrolled input:
 * its name, whether it is required, what it starts with, and its first message with its code.
 */
export function fieldProps(field: FieldState) {
  return {
    name: field.name,
    required: field.required,
    defaultValue: typeof field.initialValue === "string" ? field.initialValue : undefined,
    error: fieldError(field),
    errorCode: fieldErrorCode(field),
  };
}
