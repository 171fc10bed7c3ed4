/**
 * Server rendering, as Remix's default Node entry does it, plus the request's CSP nonce on every
 * inline script Remix and React write (server.ts sends `script-src 'nonce-...'` with the page).
 */
import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { isLanguage } from "#app/i18n/languages";
import { languageOf } from "#app/i18n/language.server";
import { provideTranslators } from "#app/i18n/meta";
import { MessagesContext } from "#app/i18n/messages-context";
import { pageMessages, serializeMessages } from "#app/i18n/page-messages.server";
import { serverTranslator } from "#app/i18n/server-i18n.server";
import { TranslatorProvider } from "#app/i18n/use-translation";
import { NonceContext } from "#app/http/nonce";

const ABORT_DELAY = 5_000;

provideTranslators(serverTranslator);

/**
 * What Remix would print with console.error (a loader, an action or a render that threw), logged
 * with the request it belongs to. A request the browser gave up on is not a server fault.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  // Remix's own refusals (no route for the URL, a method a route does not take) carry their cause
  // inside; a crawler's misses are worth a line, not an alarm.
  if (isRouteErrorResponse(error) && error.status < 500) {
    const cause = (error as { error?: unknown }).error;
    context.logger.info(
      { event: "request_refused", status: error.status, reason: cause instanceof Error ? cause.message : error.statusText },
      "request refused",
    );
    return;
  }
  context.logger.error({ event: "request_failed", err: error }, "a request failed on the server");
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Crawlers get the whole page at once; browsers get the shell first and the rest streamed.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  const nonce = loadContext.cspNonce ?? "";
  // The root loader chose the language (it knows the account); an error page whose root loader failed asks the request.
  const rootLanguage = (remixContext.staticHandlerContext.loaderData?.root as { language?: unknown } | undefined)?.language;
  const language = isLanguage(rootLanguage) ? rootLanguage : await languageOf(request);
  const translator = serverTranslator(language);
  const messages = serializeMessages(pageMessages(language));
  responseHeaders.set("Content-Language", language);
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const ready = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set("Content-Type", "text/html");
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <TranslatorProvider translator={translator}>
          <MessagesContext.Provider value={messages}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
          </MessagesContext.Provider>
        </TranslatorProvider>
      </NonceContext.Provider>,
      {
        nonce,
        ...(waitForAll ? { onAllReady: ready } : { onShellReady: ready }),
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell reach handleError below through Remix.
          if (shellRendered) loadContext.logger.error({ event: "render_failed", err: error }, "a page failed while streaming");
        },
      },
    );
    setTimeout(abort, ABORT_DELAY + 1000);
  });
}
