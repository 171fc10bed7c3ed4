/**
 * Registers /sw.js on page load in production builds (docs/product.md#pwa) and reports a new version
 * waiting to take over, which takes over only when the page asks (no stale mix of assets).
 */
import { useSyncExternalStore } from "react";
import { rememberPageLanguage } from "./offline-page";

export type WorkerStatus = "unsupported" | "off" | "registering" | "active" | "failed";

let status: WorkerStatus = "registering";
let waiting: ServiceWorker | null = null;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

function watchForUpdate(registration: ServiceWorkerRegistration): void {
  const offer = (worker: ServiceWorker | null) => {
    // The first install has no page on an older version to refresh.
    if (worker && navigator.serviceWorker.controller) {
      waiting = worker;
      notify();
    }
  };
  offer(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "installed") offer(installing);
    });
  });
}

let started = false;
export function registerServiceWorker(): void {
  if (started || typeof window === "undefined") return;
  started = true;
  if (!("serviceWorker" in navigator)) {
    status = "unsupported";
    return notify();
  }
  if (!import.meta.env.PROD) {
    status = "off";
    return notify();
  }
  // The worker's offline page speaks the language this page speaks.
  rememberPageLanguage();
  const register = () =>
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(
      async (registration) => {
        watchForUpdate(registration);
        await navigator.serviceWorker.ready;
        status = "active";
        notify();
      },
      (error: unknown) => {
        console.warn("Service worker registration failed", error);
        status = "failed";
        notify();
      },
    );
  if (document.readyState === "complete") void register();
  else window.addEventListener("load", () => void register(), { once: true });

  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // Only a version the user chose to load reloads the page.
    if (!waiting || reloading) return;
    reloading = true;
    window.location.reload();
  });
}

/** Lets the waiting version take over; the page reloads when it has. */
export function applyUpdate(): void {
  waiting?.postMessage({ type: "SKIP_WAITING" });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useServiceWorker(): { status: WorkerStatus; updateReady: boolean } {
  const current = useSyncExternalStore(
    subscribe,
    () => status,
    () => "registering" as WorkerStatus,
  );
  const updateReady = useSyncExternalStore(
    subscribe,
    () => waiting !== null,
    () => false,
  );
  return { status: current, updateReady };
}
