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

/**
 * axe in the light and then the dark theme on the page as it is now (the app follows
 * prefers-color-scheme, tests/e2e/theme.spec.ts), the page's own scheme put back after. It fails when
 * the page looks the same in both, so a dark run that checked the light theme again cannot pass.
 */
export async function axeViolationsInBothThemes(page: Page, screen: string): Promise<string[]> {
  const wasDark = await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches);
  const found: string[] = [];
  const backgrounds = new Set<string>();
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    backgrounds.add(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor));
    found.push(...(await axeViolations(page, `${screen}, ${colorScheme}`)));
  }
  await page.emulateMedia({ colorScheme: wasDark ? "dark" : "light" });
  if (backgrounds.size !== 2) throw new Error(`[${screen}] the light and the dark theme look the same: ${[...backgrounds].join(", ")}`);
  return found;
}

/** axe in both themes on each `[page, screen]` at once (each page is its own browser context). */
export async function axeScreens(...screens: [Page, string][]): Promise<string[]> {
  return (await Promise.all(screens.map(([page, screen]) => axeViolationsInBothThemes(page, screen)))).flat();
}

/**
 * Every control's target on the page as it is: its box, or for a radio or checkbox the label that
 * wraps it (a press on the label is a press on the box). WCAG 2.5.8 exempts a link inside a
 * sentence: an <a> shown inline whose block has other words besides its own; nothing else is.
 */
export async function smallTargets(page: Page, where: string): Promise<string[]> {
  const small = await page.evaluate(() => {
    const SELECTOR =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="checkbox"], [role="tab"], [role="radio"], [tabindex]:not([tabindex="-1"])';
    const blockOf = (element: Element): Element => {
      let block = element.parentElement!;
      while (getComputedStyle(block).display.startsWith("inline")) block = block.parentElement!;
      return block;
    };
    // The words of the link's block other than the text of its controls: a sentence has some.
    const sentenceWords = (block: Element) => {
      const copy = block.cloneNode(true) as Element;
      for (const control of copy.querySelectorAll("a, button, input, select, textarea, label")) control.remove();
      return /[\p{L}\p{N}]/u.test(copy.textContent ?? "");
    };
    const inSentence = (link: Element) => link.tagName === "A" && getComputedStyle(link).display === "inline" && sentenceWords(blockOf(link));
    // The hidden default button of a form (its Enter key): out of the tab order and the accessibility tree, no one's target.
    const nobodysTarget = (element: HTMLElement) => element.tabIndex < 0 && element.getAttribute("aria-hidden") === "true";
    const found: string[] = [];
    for (const element of document.querySelectorAll(SELECTOR)) {
      if (
        element.getClientRects().length === 0 ||
        getComputedStyle(element).visibility === "hidden" ||
        inSentence(element) ||
        nobodysTarget(element as HTMLElement)
      )
        continue;
      const input = element as HTMLInputElement;
      const target = (input.type === "radio" || input.type === "checkbox") && element.closest("label") ? element.closest("label")! : element;
      const box = target.getBoundingClientRect();
      if (box.width < 43.5 || box.height < 43.5) {
        const name = (element.getAttribute("aria-label") ?? element.textContent ?? input.name ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
        found.push(
          `${element.tagName.toLowerCase()}${input.type ? `[${input.type}]` : ""}.${element.className} "${name}": ${box.width.toFixed(1)} x ${box.height.toFixed(1)}`,
        );
      }
    }
    return found;
  });
  return small.map((line) => `[${where}] ${line}`);
}
