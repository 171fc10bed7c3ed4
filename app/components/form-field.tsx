import { forwardRef, type InputHTMLAttributes, type TextareaHTMLAttributes } from "react";
import type { AppError } from "#app/i18n/app-error";
import { useErrorText, useSayError, type ErrorValues } from "#app/i18n/error-text";

/** A field's message as a `Field` takes it: its English, and the code and values it is said by (`fieldProps` gives both). */
interface FieldMessage {
  error?: string;
  errorCode?: AppError | null;
}

/** A labelled input with its error beside it, tied together for screen readers. */
export function Field({ id, label, error, errorCode, ...input }: { id: string; label: string } & FieldMessage & InputHTMLAttributes<HTMLInputElement>) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} className="input" aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...input} />
      <FieldError id={errorId} message={error} error={errorCode} />
    </div>
  );
}

/** A labelled textarea with its error beside it, tied together for screen readers. */
export const TextAreaField = forwardRef<HTMLTextAreaElement, { id: string; label: string } & FieldMessage & TextareaHTMLAttributes<HTMLTextAreaElement>>(
  function TextAreaField({ id, label, error, errorCode, ...textarea }, ref) {
    const errorId = `${id}-error`;
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <textarea ref={ref} id={id} className="textarea" aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...textarea} />
        <FieldError id={errorId} message={error} error={errorCode} />
      </div>
    );
  },
);

/**
 * A field's message, in the page's language: the zod schemas and the actions speak English, and
 * the `errors` catalog knows each message by its English words or by `code`
 * (docs/decisions/0029-languages.md). Every form's field messages go through here.
 */
export function FieldError({ id, message, code, error }: { id: string; message?: string | null; code?: string | null; error?: AppError | null }) {
  const errorText = useErrorText();
  const sayError = useSayError();
  return message ? (
    <p id={id} className="field-error">
      {error ? sayError(error, message) : errorText(message, code)}
    </p>
  ) : null;
}

/** A message about the whole form (a refusal from the server, a lost connection), announced and in the page's language. */
export function FormError({
  id,
  message,
  code,
  values,
  error,
  className = "form-error",
}: {
  id?: string;
  message?: string | null;
  code?: string | null;
  values?: ErrorValues | null;
  /** The message's code and values, which it is said by (docs/decisions/0047-errors-as-codes.md). */
  error?: AppError | null;
  className?: string;
}) {
  const errorText = useErrorText();
  const sayError = useSayError();
  return message ? (
    <p id={id} className={className} role="alert">
      {error ? sayError(error, message) : errorText(message, code, values)}
    </p>
  ) : null;
}
