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

// connect-src is the server's own origin: the game socket opens (above), a socket to another host does not.
test("a socket to another host is refused by connect-src", async ({ page, consoleErrors }) => {
  const violations: string[] = [];
  await page.exposeFunction("reportCspViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => window.reportCspViolation?.(`${event.violatedDirective} ${event.blockedURI}`));
  });
  await page.goto("/join");
  await page.waitForLoadState("networkidle");
  const opened = await page.evaluate(() => {
    try {
      new WebSocket("ws://collector.invalid:8080/steal");
      return true;
    } catch {
      return false;
    }
  });
  await expect.poll(() => violations).toEqual(["connect-src ws://collector.invalid:8080/steal"]);
  expect(typeof opened).toBe("boolean");
  // Chromium also logs the refusal; that one is expected here.
  expect(consoleErrors).toEqual([expect.stringContaining("Connecting to 'ws://collector.invalid:8080/steal' violates")]);
  consoleErrors.length = 0;
});
