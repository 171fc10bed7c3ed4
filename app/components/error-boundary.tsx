import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { appErrorOf, type AppError } from "#app/i18n/app-error";
import { useSayError } from "#app/i18n/error-text";
import { useTranslation } from "#app/i18n/use-translation";
import { MAIN_ID } from "#app/components/layout";

/** The one error screen every route reuses: the not-found text of docs/product.md#screens for 404, a plain apology otherwise. */
export function GeneralErrorBoundary() {
  const { t } = useTranslation();
  const sayError = useSayError();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A refusal that says why (`{ error, code, values? }`, as a form past its limits gets), in the page's language from its code.
  const refusal = isRouteErrorResponse(error) ? refusalOf(error.data) : null;
  return (
    <main id={MAIN_ID} className="page narrow">
      <h1>{t("errorPage.title")}</h1>
      <p>{refusal ? sayError(refusal.code, refusal.error) : status === 500 ? t("errorPage.serverProblem") : t("errorPage.status", { status })}</p>
      <Link to="/" className="button">
        {t("errorPage.home")}
      </Link>
    </main>
  );
}

export function NotFound() {
  const { t } = useTranslation();
  return (
    <main id={MAIN_ID} className="page narrow">
      <h1>{t("notFound.title")}</h1>
      <p>{t("notFound.text")}</p>
      <Link to="/" className="button">
        {t("errorPage.home")}
      </Link>
    </main>
  );
}

function refusalOf(data: unknown): { error: string; code: AppError | null } | null {
  if (typeof data !== "object" || data === null || typeof (data as { error?: unknown }).error !== "string") return null;
  return { error: (data as { error: string }).error, code: appErrorOf(data as { code?: unknown }) };
}
