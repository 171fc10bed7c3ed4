/**
 * How the end-to-end tests and the download benchmark start Debian's Chromium: never a browser of
 * Playwright's own, and without the background connections this machine's closed network refuses.
 */

/**
 * Playwright's own `--disable-features` list (playwright-core 1.65, chromiumSwitches). Chromium reads
 * only the last `--disable-features` on its command line, and ours comes after Playwright's, so it
 * repeats them; tests/integration/chromium-flags.test.ts fails when Playwright's list grows past this one.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/**
 * Chromium 156 draws each window's address-bar popup as a web page in a renderer of its own, and
 * headless Chromium opens a window per browser context: with these on, a quarter of an end-to-end
 * run's CPU went to popups no test sees (docs/decisions/0049-ten-minute-test-loop.md).
 */
export const OMNIBOX_POPUP_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxFullPopup", "WebUIOmniboxAimPopup"];

export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES].join(",")}`,
  ],
};
