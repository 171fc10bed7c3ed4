/**
 * The game's sounds on the screen the room watches (docs/product.md, "Projector mode"): on or off,
 * remembered by this browser, and the page's one AudioContext. A module's state rather than a
 * React provider, so it lives across the host's screens without every page (a player's phone
 * included) carrying it: only the screens that play a cue import it. Sound starts off: browsers
 * let a page play sound only after a click on it, and a room should not be surprised by one.
 */
import { useSyncExternalStore } from "react";
import { isProjectorSoundOn, rememberProjectorSound } from "#app/game/client/storage";
import type { Cue } from "./sound";

let on: boolean | null = null;
let context: AudioContext | null = null;
const listeners = new Set<() => void>();

function isOn(): boolean {
  on ??= isProjectorSoundOn();
  return on;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function audio(): AudioContext | null {
  if (!context && typeof AudioContext !== "undefined") context = new AudioContext();
  return context;
}

/** A setting remembered from an earlier visit needs one click or key on the page before the browser lets it play. */
function resumeOnNextGesture(suspended: AudioContext): void {
  const resume = () => {
    void suspended.resume();
    window.removeEventListener("pointerdown", resume);
    window.removeEventListener("keydown", resume);
  };
  window.addEventListener("pointerdown", resume);
  window.addEventListener("keydown", resume);
}

export function toggleProjectorSound(): void {
  on = !isOn();
  rememberProjectorSound(on);
  // The click that turns the sound on is the one that allows it.
  if (on) void audio()?.resume();
  for (const listener of listeners) listener();
}

/** Plays `cue` when the sound is on; nothing otherwise. */
export function playProjectorCue(cue: Cue): void {
  if (!isOn()) return;
  const ready = audio();
  if (!ready) return;
  if (ready.state === "suspended") resumeOnNextGesture(ready);
  // The scores load with the first cue, on the screens that play one.
  void import("./sound").then(({ playCue }) => playCue(ready, cue));
}

/** Whether the sound is on (off in the server's page, then this browser's setting). */
export function useProjectorSoundOn(): boolean {
  return useSyncExternalStore(subscribe, isOn, () => false);
}
