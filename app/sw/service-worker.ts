/// <reference lib="webworker" />
/**
 * The service worker served at /sw.js, bundled by scripts/build-sw.ts with the build's asset list
 * injected (Workbox injectManifest). It makes the app open offline without ever keeping what is
 * live or private:
 * - the built app shell (hashed assets, icons, manifest, offline page) is precached;
 * - pages are network-first; a page is cached only when the server marked it public (no signed-in
 *   user's data: see the root loader's Cache-Control), and / and /join are fetched that way at
 *   install so they open offline even before a visit;
 * - other same-origin static files are cache-first;
 * - /ws, /api/*, Remix data requests and anything but GET never touch a cache;
 * - a new version waits until the page asks it to take over ('New version available - Reload').
 */
import { clientsClaim } from "workbox-core";
import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute, setCatchHandler } from "workbox-routing";
import { CacheFirst, NetworkFirst } from "workbox-strategies";
import type { WorkboxPlugin } from "workbox-core/types";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

const PAGES_CACHE = "quiz-night-pages";
const STATIC_CACHE = "quiz-night-static";
const PICTURES_CACHE = "quiz-night-pictures";
const OFFLINE_PAGE = "/offline.html";
/** Opened offline even if never visited: the home page and the join form. */
const WARM_PAGES = ["/", "/join"];

/** Never cached, never served from a cache: live, private or state-changing traffic. */
function isLiveOrPrivate(url: URL, request: Request): boolean {
  return (
    request.method !== "GET" ||
    url.origin !== self.location.origin ||
    url.pathname === "/ws" ||
    url.pathname.startsWith("/api/") ||
    url.pathname.endsWith(".data") ||
    url.pathname === "/__manifest"
  );
}

/** A page may be kept only when the server said so: a 200 without `no-store` or `private`. */
function isPublicPage(response: Response): boolean {
  return response.status === 200 && !/no-store|private/i.test(response.headers.get("cache-control") ?? "");
}

const publicPagesOnly: WorkboxPlugin = {
  cacheWillUpdate: async ({ response }) => (isPublicPage(response) ? response : null),
};

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
clientsClaim();

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(PAGES_CACHE).then(async (cache) => {
      for (const path of WARM_PAGES) {
        // Without cookies, so what is kept is the page as anyone sees it.
        const response = await fetch(path, { credentials: "omit" }).catch(() => null);
        if (response && isPublicPage(response)) await cache.put(path, response);
      }
    }),
  );
});

self.addEventListener("message", (event) => {
  if (event.data?.type === "SKIP_WAITING") void self.skipWaiting();
});

registerRoute(
  new NavigationRoute(
    // No network timeout: a slow server (a big game's) still answers with the user's own page; only a
    // failed request falls back to the kept public one.
    new NetworkFirst({
      cacheName: PAGES_CACHE,
      plugins: [publicPagesOnly, new ExpirationPlugin({ maxEntries: 40 })],
    }),
    { denylist: [/^\/api\//, /^\/ws$/] },
  ),
);

// Questions' pictures get a cache of their own: a picture round must not push the app's own files
// out of theirs. Their URLs are content hashes, so a cached one is never stale.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith("/images/"),
  new CacheFirst({
    cacheName: PICTURES_CACHE,
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), new ExpirationPlugin({ maxEntries: 60, purgeOnQuotaError: true })],
  }),
);

registerRoute(
  ({ url, request }) => !isLiveOrPrivate(url, request) && ["style", "script", "image", "font", "manifest"].includes(request.destination),
  new CacheFirst({
    cacheName: STATIC_CACHE,
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), new ExpirationPlugin({ maxEntries: 80 })],
  }),
);

// A page that is neither online nor cached gets the offline page; anything else simply fails.
setCatchHandler(async ({ request }) => {
  if (request.destination === "document") return (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
  return Response.error();
});
