/**
 * `npx tsx scripts/make-icons.ts`: draws the app icons (public/icons/*.png) from the brand mark with
 * Chromium, so they can be redrawn after a change of colour or letter. The PNGs are committed.
 */
import path from "node:path";
import { chromium } from "@playwright/test";

const BRAND = "#6d28d9";
const OUT = path.resolve("public/icons");

/** The mark: a white Q on violet. Maskable icons keep it within the central 80% safe zone. */
function mark(size: number, { maskable = false, rounded = true } = {}): string {
  const radius = rounded && !maskable ? size * 0.22 : 0;
  const fontSize = size * (maskable ? 0.42 : 0.55);
  return `<!doctype html><html><body style="margin:0">
<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
<rect width="${size}" height="${size}" rx="${radius}" fill="${BRAND}"/>
<text x="50%" y="50%" dy="0.35em" font-family="DejaVu Sans, Arial, sans-serif" font-size="${fontSize}" font-weight="700" text-anchor="middle" fill="#fff">Q</text>
</svg></body></html>`;
}

const ICONS = [
  { file: "icon-192.png", size: 192 },
  { file: "icon-512.png", size: 512 },
  { file: "icon-maskable-512.png", size: 512, maskable: true },
  // iOS rounds the corners itself.
  { file: "apple-touch-icon.png", size: 180, rounded: false },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
    await page.setContent(mark(icon.size, icon));
    await page.locator("svg").screenshot({ path: path.join(OUT, icon.file), omitBackground: !icon.maskable && icon.rounded !== false });
    await page.close();
    console.log(`public/icons/${icon.file}`);
  }
} finally {
  await browser.close();
}
