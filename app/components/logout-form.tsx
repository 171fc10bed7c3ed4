import { Form, useNavigate, useRevalidator } from "@remix-run/react";
import { useRef, useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { useToast } from "#app/components/toaster";

/**
 * What a logout says when it did not happen (docs/product.md#messages); the page says it from the
 * `account` catalog (`fallback.logout`), since the JSON answer of /logout keeps it with no code.
 */
export const LOGOUT_FAILED = "Failed to logout";

/**
 * Log out: a plain form post to /logout, which works before any script runs. With JavaScript the
 * post asks for JSON, so that a failure (no answer, the server's error, an answer that is not
 * ours) leaves the user on the page, still signed in, with the "Failed to logout" toast.
 */
export function LogoutForm({ buttonClassName, children }: { buttonClassName: string; children: ReactNode }) {
  const toast = useToast();
  const { t } = useTranslation("account");
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    try {
      const response = await fetch("/logout", { method: "POST", headers: { accept: "application/json" }, credentials: "same-origin" });
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok || typeof body !== "object" || body === null || !("ok" in body) || body.ok !== true) throw new Error(LOGOUT_FAILED);
      navigate("/");
      // The root loader says who is signed in; home may be the page already shown.
      revalidator.revalidate();
    } catch {
      toast({ title: t("fallback.logout"), description: t("fallback.tryAgain"), variant: "destructive" });
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }

  return (
    <Form method="post" action="/logout" className="menu-form" onSubmit={onSubmit}>
      <button type="submit" className={buttonClassName} disabled={busy}>
        {children}
      </button>
    </Form>
  );
}
