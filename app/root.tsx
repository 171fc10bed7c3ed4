import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { ConnectionFailureToast } from "#app/components/connection-failure-toast";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { PwaSupport } from "#app/components/install-prompt";
import { SiteFooter, SiteHeader } from "#app/components/layout";
import { Toaster } from "#app/components/toaster";
import { GameProvider } from "#app/game/client/game-provider";
import { languageOf } from "#app/i18n/language.server";
import { MessagesScript } from "#app/i18n/messages-context";
import { metaT } from "#app/i18n/meta";
import appStyles from "#app/styles/app.css?url";
import { publicFirebaseConfig } from "#app/env/env.server";
import { useNonce } from "#app/http/nonce";
import { checkQuizLimit } from "#app/ai/quiz-limit.server";
import { getUser } from "#app/sessions/session.server";
import { themeOf } from "#app/theme/theme.server";
import { ZOD_JITLESS_SCRIPT } from "#app/http/zod-jitless";
import { afterFailedPost } from "#app/http/revalidation";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
  { rel: "stylesheet", href: appStyles },
];

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches)("meta.title") }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getUser(context, request);
  return {
    // null when the limit could not be read: no page should fail for it.
    user: user ? { ...user, remainingQuizzes: (await checkQuizLimit(context, user))?.remaining ?? null } : null,
    firebase: publicFirebaseConfig(),
    theme: await themeOf(request),
    language: await languageOf(request, user),
  };
}

/** A post that failed changed nothing the root shows: skipping the reload keeps its error visible. */
export const shouldRevalidate: ShouldRevalidateFunction = (args) => (afterFailedPost(args) ? false : args.defaultShouldRevalidate);

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // Absent when the root loader itself failed: the error page follows the system's theme.
  const theme = useRouteLoaderData<typeof loader>("root")?.theme ?? "system";
  const { t, language } = useTranslation();
  // Marks the page as hydrated, once: the end-to-end tests wait for this rather than for a quiet
  // network, which can come before hydration on a busy machine (tests/e2e/fixtures.ts, openHydrated).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <html lang={language} data-theme={theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#6d28d9" />
        <meta name="mobile-web-app-capable" content="yes" />
        <meta name="apple-mobile-web-app-capable" content="yes" />
        <meta name="apple-mobile-web-app-title" content="Quiz Night" />
        <meta name="apple-mobile-web-app-status-bar-style" content="default" />
        {/* Here, not in `meta`: a route's `meta` replaces the root's, and most set only their title. */}
        <meta name="description" content={t("meta.description")} />
        <Meta />
        <Links />
        {/* Before any module: zod reads it as the first schema is built (see the module). */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: ZOD_JITLESS_SCRIPT }} />
      </head>
      <body>
        <Toaster>
          <div className="app-shell">
            <SiteHeader />
            {children}
            <SiteFooter />
          </div>
          <PwaSupport />
          <ConnectionFailureToast />
        </Toaster>
        <MessagesScript nonce={nonce} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return (
    <GameProvider>
      <Outlet />
    </GameProvider>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
