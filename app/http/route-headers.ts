import type { HeadersFunction } from "@remix-run/node";

/**
 * A form route's `headers` export: a refused post (429) tells the browser or script when to try
 * again. Remix builds a page's headers from this function alone, not from the action's response.
 */
export const retryAfterFromAction: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};
