/**
 * Second step of `npm run build`: writes the offline page's words (build/client/offline.js, from the
 * catalogs), bundles the TypeScript service worker (app/sw) with Vite and injects the list of built
 * files to precache (Workbox injectManifest) into build/client/sw.js.
 */
import fs from "node:fs";
import path from "node:path";
import { build } from "vite";
import { injectManifest } from "workbox-build";
import { LANGUAGES } from "#app/i18n/languages";
import { offlinePageScript } from "#app/pwa/offline-page";

const OUT_DIR = path.resolve("build/sw");
const CLIENT_DIR = path.resolve("build/client");

// The offline page (public/offline.html) says its words in the reader's language with this script.
const catalogs = Object.fromEntries(
  LANGUAGES.map((language) => [language, { common: JSON.parse(fs.readFileSync(path.resolve(`app/locales/${language}/common.json`), "utf8")) as unknown }]),
) as Parameters<typeof offlinePageScript>[0];
fs.writeFileSync(path.join(CLIENT_DIR, "offline.js"), offlinePageScript(catalogs));

await build({
  configFile: false,
  logLevel: "warn",
  // Workbox leaves out its development logging in production.
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    target: "es2022",
    lib: { entry: path.resolve("app/sw/service-worker.ts"), formats: ["iife"], name: "quizNightServiceWorker", fileName: () => "sw.js" },
  },
});

const { count, size, warnings } = await injectManifest({
  swSrc: path.join(OUT_DIR, "sw.js"),
  swDest: path.join(CLIENT_DIR, "sw.js"),
  globDirectory: CLIENT_DIR,
  globPatterns: ["assets/**/*.{js,css}", "offline.html", "offline.js", "favicon.svg", "manifest.webmanifest", "icons/*.png"],
  // Hashed file names change with their content; no revision needed.
  dontCacheBustURLsMatching: /^assets\//,
});
for (const warning of warnings) console.warn(`[sw] ${warning}`);
fs.rmSync(OUT_DIR, { recursive: true, force: true });
console.log(`[sw] build/client/sw.js precaches ${count} files (${(size / 1024).toFixed(0)} KiB)`);
