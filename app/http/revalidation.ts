import type { ShouldRevalidateFunctionArgs } from "@remix-run/react";

/**
 * Whether the post before this reload changed nothing a loader reads: the server refused it (4xx,
 * 5xx), or the page's client action answered `formError` because the server could not be reached.
 * A route that defines `shouldRevalidate` then skips the reload. Single fetch hands such a route a
 * default of true even after a refusal, and the reload would land after the refusal is on screen,
 * moving the location under what the user types next (docs/decisions/0049-ten-minute-test-loop.md,
 * "Third pass"); after an unreachable server it would only fail too.
 */
export function afterFailedPost({ actionStatus, actionResult }: Pick<ShouldRevalidateFunctionArgs, "actionStatus" | "actionResult">): boolean {
  const unreachable = typeof actionResult === "object" && actionResult !== null && "formError" in actionResult && Boolean(actionResult.formError);
  return (actionStatus !== undefined && actionStatus >= 400) || unreachable;
}
