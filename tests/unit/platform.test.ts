import { describe, expect, it } from "vitest";
import { detectPlatform } from "#app/pwa/platform";

const UA = {
  iphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  ipadOld: "Mozilla/5.0 (iPad; CPU OS 12_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1 Mobile/15E148 Safari/604.1",
  ipadAsMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  androidPhone: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
  androidTablet: "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
  windows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
  linux: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
};

describe("detectPlatform", () => {
  it.each([
    ["an iPhone", UA.iphone, 5, { isIOS: true, isAndroid: false, device: "phone", platform: "iOS" }],
    ["an old iPad", UA.ipadOld, 5, { isIOS: true, isAndroid: false, device: "tablet", platform: "iOS" }],
    ["an iPad that says it is a Mac", UA.ipadAsMac, 5, { isIOS: true, isAndroid: false, device: "tablet", platform: "iOS" }],
    ["a Mac", UA.ipadAsMac, 0, { isIOS: false, isAndroid: false, device: "desktop", platform: "macOS" }],
    ["an Android phone", UA.androidPhone, 5, { isIOS: false, isAndroid: true, device: "phone", platform: "Android" }],
    ["an Android tablet", UA.androidTablet, 5, { isIOS: false, isAndroid: true, device: "tablet", platform: "Android" }],
    ["Windows", UA.windows, 0, { isIOS: false, isAndroid: false, device: "desktop", platform: "Windows" }],
    ["Linux", UA.linux, 0, { isIOS: false, isAndroid: false, device: "desktop", platform: "Linux" }],
  ])("knows %s", (_, userAgent, touchPoints, expected) => {
    expect(detectPlatform(userAgent, touchPoints)).toEqual(expected);
  });

  it("prefers the browser's platform hint on desktops", () => {
    expect(detectPlatform(UA.linux, 0, "Chrome OS").platform).toBe("Chrome OS");
  });
});
