/**
 * The browser's install offer (docs/product.md#pwa): `beforeinstallprompt` is kept so the app can show
 * its own card, and the state moves available -> accepted or dismissed. The listener is set up as
 * soon as the app's code runs, since the event may fire before React has hydrated.
 */
import { useSyncExternalStore } from "react";

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

export type InstallState = "unavailable" | "available" | "accepted" | "dismissed";

let deferred: BeforeInstallPromptEvent | null = null;
let state: InstallState = "unavailable";
const listeners = new Set<() => void>();

function set(next: InstallState): void {
  state = next;
  for (const listener of listeners) listener();
}

let listening = false;
export function listenForInstallPrompt(): void {
  if (listening || typeof window === "undefined") return;
  listening = true;
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    deferred = event as BeforeInstallPromptEvent;
    if (state !== "dismissed") set("available");
  });
  window.addEventListener("appinstalled", () => {
    deferred = null;
    set("accepted");
  });
}

/** Shows the browser's install dialog; the card hides either way. */
export async function promptInstall(): Promise<InstallState> {
  const event = deferred;
  if (!event) return state;
  deferred = null;
  await event.prompt();
  const { outcome } = await event.userChoice;
  set(outcome);
  return outcome;
}

export function dismissInstall(): void {
  set("dismissed");
}

export function useInstallState(): InstallState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => "unavailable",
  );
}
