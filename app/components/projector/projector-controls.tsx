/**
 * The controls of the screen the room watches (docs/product.md, "Projector mode"): full screen, and
 * the game's sounds on or off (app/components/projector/projector-sound.ts).
 */
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { toggleProjectorSound, useProjectorSoundOn } from "./projector-sound";

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
  const soundOn = useProjectorSoundOn();
  const fullscreen = useFullscreen();
  return (
    <div className="row projector-controls" role="group" aria-label={t("projector.controls")}>
      {fullscreen.supported ? (
        <button type="button" className="button button-secondary" aria-pressed={fullscreen.active} onClick={fullscreen.toggle}>
          {t("projector.fullscreen")}
        </button>
      ) : null}
      <button type="button" className="button button-secondary" aria-pressed={soundOn} onClick={toggleProjectorSound}>
        {t("projector.sound")}
      </button>
    </div>
  );
}
