import { expect, test } from "./fixtures";

declare global {
  interface Window {
    layoutShifts?: Array<{ value: number; nodes: string[] }>;
  }
}

// Lighthouse's mobile screen: what moves there after the first paint counts against the page
// (cumulative-layout-shift), and a player reaching for a button hits the wrong one.
test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });

test("nothing on the home page moves when the connection badge turns Connected", async ({ page }) => {
  await page.addInitScript(() => {
    window.layoutShifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; sources?: Array<{ node?: Node | null }> }>) {
        const nodes = (entry.sources ?? []).map((source) =>
          source.node instanceof Element ? `${source.node.tagName.toLowerCase()}.${source.node.className}` : "?",
        );
        window.layoutShifts!.push({ value: entry.value, nodes });
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto("/");
  await expect(page.getByRole("main").getByRole("status").filter({ hasText: "Connected" })).toHaveText(/^\s*Connected$/, { timeout: 5_000 });
  // Layout shifts are reported after the frame that made them.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const shifts = await page.evaluate(() => window.layoutShifts!);
  // The badge's own row may change width as its text and Reconnect change; nothing else may move.
  expect(shifts.flatMap((shift) => shift.nodes).filter((node) => node !== "div.connection")).toEqual([]);
});
