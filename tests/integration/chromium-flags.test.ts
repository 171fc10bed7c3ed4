/**
 * The browser the end-to-end tests drive (tests/chromium.ts): Chromium reads only the last
 * `--disable-features` on its command line, so ours must carry every feature Playwright disables
 * before it, and it must take away the per-window address-bar popups that cost a quarter of a run's CPU.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chromium } from "@playwright/test";
import { describe, expect, it } from "vitest";
import { chromiumLaunchOptions, OMNIBOX_POPUP_FEATURES } from "../chromium";

describe("the end-to-end tests' Chromium", () => {
  it("runs with every feature Playwright disables, and without an address-bar popup per window", async () => {
    const marker = `--quiz-night-flags-check=${randomUUID()}`;
    const browser = await chromium.launch({ ...chromiumLaunchOptions, args: [...chromiumLaunchOptions.args, marker] });
    try {
      for (let contexts = 0; contexts < 2; contexts++) await (await (await browser.newContext()).newPage()).setContent("<p>Quiz Night</p>");
      const commandLine = execFileSync("ps", ["-eo", "args", "--no-headers"], { encoding: "utf8" })
        .split("\n")
        .find((line) => line.includes(marker) && !line.includes("--type="));
      expect(commandLine, "the browser process").toBeDefined();
      const lists = [...commandLine!.matchAll(/--disable-features=(\S+)/g)].map((match) => match[1].split(","));
      const effective = new Set(lists.at(-1));
      for (const feature of [...lists.flat(), ...OMNIBOX_POPUP_FEATURES]) expect(effective.has(feature), feature).toBe(true);

      const cdp = await browser.newBrowserCDPSession();
      const { targetInfos } = (await cdp.send("Target.getTargets")) as { targetInfos: { type: string; url: string }[] };
      expect(targetInfos.filter((target) => target.url.includes("omnibox-popup"))).toEqual([]);
      expect(targetInfos.filter((target) => target.type === "page")).toHaveLength(2);
    } finally {
      await browser.close();
    }
  });
});
