import { forwardRef, type InputHTMLAttributes, type TextareaHTMLAttributes } from "react";
import { useErrorText, type ErrorValues } from "#app/i18n/error-text";

/** A labelled input with its error beside it, tied together for screen readers. */
export function Field({ id, label, error, ...input }: { id: string; label: string; error?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} className="input" aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...input} />
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** A labelled textarea with its error beside it, tied together for screen readers. */
export const TextAreaField = forwardRef<HTMLTextAreaElement, { id: string; label: string; error?: string } & TextareaHTMLAttributes<HTMLTextAreaElement>>(
  function TextAreaField({ id, label, error, ...textarea }, ref) {
    const errorId = `${id}-error`;
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <textarea ref={ref} id={id} className="textarea" aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...textarea} />
        <FieldError id={errorId} message={error} />
      </div>
    );
  },
);

/**
 * A field's message, in the page's language: the zod schemas and the actions speak English, and
 * the `errors` catalog knows each message by its English words or by `code`
 * (docs/decisions/0029-languages.md). Every form's field messages go through here.
 */
export function FieldError({ id, message, code }: { id: string; message?: string | null; code?: string | null }) {
  const errorText = useErrorText();
  return message ? (
    <p id={id} className="field-error">
      {errorText(message, code)}
    </p>
  ) : null;
}

/** A message about the whole form (a refusal from the server, a lost connection), announced and in the page's language. */
export function FormError({
  id,
  message,
  code,
  values,
  className = "form-error",
}: {
  id?: string;
  message?: string | null;
  code?: string | null;
  values?: ErrorValues | null;
  className?: string;
}) {
  const errorText = useErrorText();
  return message ? (
    <p id={id} className={className} role="alert">
      {errorText(message, code, values)}
    </p>
  ) : null;
}
