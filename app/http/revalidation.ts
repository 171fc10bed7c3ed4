import type { ShouldRevalidateFunctionArgs } from "@remix-run/react";

/**
 * Whether the post before this reload was refused (4xx, 5xx): it changed nothing a loader reads, so
 * a route that defines `shouldRevalidate` skips the reload. Single fetch hands such a route a default
 * of true even after a refusal, and the reload would land after the refusal is on screen, moving the
 * location under what the user types next (docs/decisions/0049-ten-minute-test-loop.md, "Third pass").
 */
export function afterRefusedPost({ actionStatus }: Pick<ShouldRevalidateFunctionArgs, "actionStatus">): boolean {
  return actionStatus !== undefined && actionStatus >= 400;
}
