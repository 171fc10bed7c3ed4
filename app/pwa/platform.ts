/** What the browser is, for the install prompt and /test-pwa. Pure: give it navigator's values. */
export interface PlatformInfo {
  isIOS: boolean;
  isAndroid: boolean;
  device: "phone" | "tablet" | "desktop";
  platform: string;
}

export function detectPlatform(userAgent: string, maxTouchPoints = 0, platformHint = ""): PlatformInfo {
  // iPadOS 13+ says it is a Mac; only a touch screen tells them apart.
  const iPadAsMac = /Macintosh/.test(userAgent) && maxTouchPoints > 1;
  const isIOS = /iPhone|iPad|iPod/.test(userAgent) || iPadAsMac;
  const isAndroid = /Android/.test(userAgent);
  const isTablet = /iPad|Tablet/.test(userAgent) || iPadAsMac || (isAndroid && !/Mobile/.test(userAgent));
  const isPhone = !isTablet && (/iPhone|iPod/.test(userAgent) || (isAndroid && /Mobile/.test(userAgent)) || /Mobi/.test(userAgent));
  const platform = isIOS
    ? "iOS"
    : isAndroid
      ? "Android"
      : platformHint || (/Windows/.test(userAgent) ? "Windows" : /Mac/.test(userAgent) ? "macOS" : /Linux/.test(userAgent) ? "Linux" : "Unknown");
  return { isIOS, isAndroid, device: isTablet ? "tablet" : isPhone ? "phone" : "desktop", platform };
}

export function currentPlatform(): PlatformInfo {
  const hint = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ?? "";
  return detectPlatform(navigator.userAgent, navigator.maxTouchPoints ?? 0, hint);
}

/** Running as an installed app (home screen or app window), not in a browser tab. */
export function isStandalone(): boolean {
  return window.matchMedia?.("(display-mode: standalone)").matches || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}
