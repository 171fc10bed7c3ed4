import { test as base, expect, type Browser, type BrowserContext, type BrowserContextOptions } from "@playwright/test";

/** Every page fails its test on an uncaught exception or a console error. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await use(errors);
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * A browser context whose persisted client id is known, like a real returning browser; a desktop
 * window unless `options` says otherwise (a phone's viewport, a colour scheme, reduced motion, ...).
 */
export async function contextWithClientId(browser: Browser, clientId: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  await context.addInitScript((id) => window.localStorage.setItem("quizClientId", id), clientId);
  return context;
}
