import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { MAIN_ID } from "#app/components/layout";

/** The one error screen every route reuses: the not-found text of docs/product.md#screens for 404, a plain apology otherwise. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main id={MAIN_ID} className="page narrow">
      <h1>Something went wrong</h1>
      <p>{status === 500 ? "The server ran into a problem. Please try again." : `The request failed with status ${status}.`}</p>
      <Link to="/" className="button">
        Home
      </Link>
    </main>
  );
}

export function NotFound() {
  return (
    <main id={MAIN_ID} className="page narrow">
      <h1>404 Page Not Found</h1>
      <p>Did you forget to add the page to the router?</p>
      <Link to="/" className="button">
        Home
      </Link>
    </main>
  );
}
