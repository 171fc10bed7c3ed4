import { forwardRef, type InputHTMLAttributes, type TextareaHTMLAttributes } from "react";

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

export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="field-error">
      {message}
    </p>
  ) : null;
}
