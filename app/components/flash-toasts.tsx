import { useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { useToast, type ToastInput } from "#app/components/toaster";

/** The success toasts of docs/product.md#messages, keyed by the `?welcome=` the auth action's redirect carries. */
export const WELCOME_TOASTS: Record<string, ToastInput> = {
  login: { title: "Login successful", description: "Welcome back!" },
  // A first Google sign-in creates the account: nobody is back yet.
  "google-new": { title: "Login successful", description: "Welcome!" },
  register: { title: "Registration successful", description: "Your account has been created" },
  guest: { title: "Welcome!", description: "You can explore quizzes as a guest" },
};

/**
 * A one-shot flash on any page: shows the toast `?welcome=` names, then drops the parameter from
 * the address (replacing the history entry) so a reload or Back does not show it again.
 */
export function FlashToasts() {
  const [searchParams, setSearchParams] = useSearchParams();
  const toast = useToast();
  const welcome = searchParams.get("welcome");

  useEffect(() => {
    if (welcome === null) return;
    if (Object.hasOwn(WELCOME_TOASTS, welcome)) toast(WELCOME_TOASTS[welcome]);
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete("welcome");
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [welcome, toast, setSearchParams]);

  return null;
}
