/**
 * The controls of the screen the room watches (docs/product.md, "Projector mode"): full screen, and
 * the game's sounds on or off, remembered by this browser. Sound starts off: browsers let a page
 * play sound only after a click on it, and a room should not be surprised by one.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { isProjectorSoundOn, rememberProjectorSound } from "#app/game/client/storage";
import { useTranslation } from "#app/i18n/use-translation";
import type { Cue } from "./sound";

interface ProjectorSound {
  on: boolean;
  toggle(): void;
  /** Plays `cue` when the sound is on; nothing otherwise. */
  play(cue: Cue): void;
}

const SoundContext = createContext<ProjectorSound>({ on: false, toggle() {}, play() {} });

export function useProjectorSound(): ProjectorSound {
  return useContext(SoundContext);
}

/** Holds the sound setting and the page's one AudioContext for the host's game screens. */
export function ProjectorSoundProvider({ children }: { children: ReactNode }) {
  const [on, setOn] = useState(false);
  const context = useRef<AudioContext | null>(null);

  useEffect(() => setOn(isProjectorSoundOn()), []);

  // A setting remembered from an earlier visit needs one click or key on this page before the browser lets it play.
  useEffect(() => {
    if (!on) return;
    const unlock = () => void context.current?.resume();
    window.addEventListener("pointerdown", unlock);
    window.addEventListener("keydown", unlock);
    return () => {
      window.removeEventListener("pointerdown", unlock);
      window.removeEventListener("keydown", unlock);
    };
  }, [on]);

  useEffect(() => () => void context.current?.close(), []);

  const audio = useCallback((): AudioContext | null => {
    if (!context.current && typeof AudioContext !== "undefined") context.current = new AudioContext();
    return context.current;
  }, []);

  const toggle = useCallback(() => {
    setOn((was) => {
      rememberProjectorSound(!was);
      // The click that turns the sound on is the one that allows it.
      if (!was) void audio()?.resume();
      return !was;
    });
  }, [audio]);

  // The same function for the page's life, so a screen's cue fires on its event, not on the switch.
  const isOn = useRef(on);
  isOn.current = on;
  const play = useCallback(
    (cue: Cue) => {
      if (!isOn.current) return;
      const ready = audio();
      // The scores load with the first cue: a player's phone never plays one, so never downloads them.
      if (ready) void import("./sound").then(({ playCue }) => playCue(ready, cue));
    },
    [audio],
  );

  const value = useMemo(() => ({ on, toggle, play }), [on, toggle, play]);
  return <SoundContext.Provider value={value}>{children}</SoundContext.Provider>;
}

function useFullscreen() {
  const [supported, setSupported] = useState(false);
  const [active, setActive] = useState(false);
  useEffect(() => {
    setSupported(document.fullscreenEnabled);
    const onChange = () => setActive(document.fullscreenElement !== null);
    onChange();
    document.addEventListener("fullscreenchange", onChange);
    return () => document.removeEventListener("fullscreenchange", onChange);
  }, []);
  const toggle = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen().catch(() => {});
  }, []);
  return { supported, active, toggle };
}

export function ProjectorControls() {
  const { t } = useTranslation("game");
  const sound = useProjectorSound();
  const fullscreen = useFullscreen();
  return (
    <div className="row projector-controls" role="group" aria-label={t("projector.controls")}>
      {fullscreen.supported ? (
        <button type="button" className="button button-secondary" aria-pressed={fullscreen.active} onClick={fullscreen.toggle}>
          {t("projector.fullscreen")}
        </button>
      ) : null}
      <button type="button" className="button button-secondary" aria-pressed={sound.on} onClick={sound.toggle}>
        {t("projector.sound")}
      </button>
    </div>
  );
}
