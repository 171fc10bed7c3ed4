import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
/** WCAG 2.2 AA and axe's best practices: issue 16 asks for no violation of any impact. */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** Context options for a page axe runs on: the app's nonce-based Content-Security-Policy would refuse the injected axe script. */
export const AXE_CONTEXT = { bypassCSP: true };

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] };

/** Runs axe on the page as it is now; returns one readable line per violating node, tagged with `screen`. */
export async function axeViolations(page: Page, screen: string): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(
    // @ts-expect-error -- axe is the global the injected script defines
    (tags) => window.axe.run(document, { runOnly: tags, resultTypes: ["violations"] }).then((result) => result.violations),
    AXE_TAGS,
  );
  return (violations as AxeViolation[]).flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `[${screen}] ${violation.id} (${violation.impact}) at ${node.target.join(" ")}: ${violation.help}${node.failureSummary ? ` — ${node.failureSummary.replace(/\s+/g, " ")}` : ""}`,
    ),
  );
}
