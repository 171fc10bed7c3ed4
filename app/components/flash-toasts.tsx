import { useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { useToast } from "#app/components/toaster";

/**
 * The success toasts of docs/product.md#messages, keyed by the `?welcome=` the auth action's
 * redirect carries: the key names the toast's words in the common catalog (`flash.KEY.title`,
 * `.text`), so the toast speaks the page's language.
 */
export const WELCOME_TOASTS = {
  login: "login",
  // A first Google sign-in creates the account: nobody is back yet.
  "google-new": "googleNew",
  register: "register",
  guest: "guest",
} as const;

/**
 * A one-shot flash on any page: shows the toast `?welcome=` names, then drops the parameter from
 * the address (replacing the history entry) so a reload or Back does not show it again.
 */
export function FlashToasts() {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const toast = useToast();
  const welcome = searchParams.get("welcome");

  useEffect(() => {
    if (welcome === null) return;
    if (Object.hasOwn(WELCOME_TOASTS, welcome)) {
      const key = WELCOME_TOASTS[welcome as keyof typeof WELCOME_TOASTS];
      toast({ title: t(`flash.${key}.title`), description: t(`flash.${key}.text`) });
    }
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete("welcome");
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [welcome, toast, setSearchParams, t]);

  return null;
}
