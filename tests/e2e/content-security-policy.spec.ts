import { expect, test } from "./fixtures";

declare global {
  interface Window {
    reportCspViolation?: (text: string) => void;
  }
}

// Chromium reports what the page's CSP refuses (server.ts) as a `securitypolicyviolation` event and
// an Issues-panel entry (Lighthouse's best-practices audit `inspector-issues`), even when the script
// that tried catches the refusal, as a library probing whether it may compile code does. A page
// whose own scripts trip the policy fails here, whatever they do about it.
for (const pathname of ["/", "/join"]) {
  test(`${pathname} loads and hydrates without a CSP violation`, async ({ page }) => {
    const violations: string[] = [];
    await page.exposeFunction("reportCspViolation", (text: string) => violations.push(text));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        window.reportCspViolation?.(`${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`);
      });
    });
    await page.goto(pathname);
    // Every module has run, and the socket opened, by the time nothing is left to load.
    await page.waitForLoadState("networkidle");
    expect(violations).toEqual([]);
  });
}
