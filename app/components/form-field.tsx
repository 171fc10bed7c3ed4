import { forwardRef, type InputHTMLAttributes, type TextareaHTMLAttributes } from "react";
import type { AppError } from "#app/i18n/app-error";
import { useSayError } from "#app/i18n/error-text";

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
 * A field's message, in the page's language from the code and values it was raised with (`error`;
 * docs/decisions/0047-errors-as-codes.md); `message`, its English, is shown as it is when it has no
 * code (a text the page has already said in its language). Every form's field messages go through here.
 */
export function FieldError({ id, message, error }: { id: string; message?: string | null; error?: AppError | null }) {
  const sayError = useSayError();
  return message ? (
    <p id={id} className="field-error">
      {sayError(error, message)}
    </p>
  ) : null;
}

/** A message about the whole form (a refusal from the server, a lost connection), announced and in the page's language. */
export function FormError({
  id,
  message,
  error,
  className = "form-error",
}: {
  id?: string;
  message?: string | null;
  /** The message's code and values, which it is said by (docs/decisions/0047-errors-as-codes.md). */
  error?: AppError | null;
  className?: string;
}) {
  const sayError = useSayError();
  return message ? (
    <p id={id} className={className} role="alert">
      {sayError(error, message)}
    </p>
  ) : null;
}
