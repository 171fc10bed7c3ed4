import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { useTranslation } from "#app/i18n/use-translation";
import { MAIN_ID } from "#app/components/layout";

/** The one error screen every route reuses: the not-found text of docs/product.md#screens for 404, a plain apology otherwise. */
export function GeneralErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main id={MAIN_ID} className="page narrow">
      <h1>{t("errorPage.title")}</h1>
      <p>{status === 500 ? t("errorPage.serverProblem") : t("errorPage.status", { status })}</p>
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
