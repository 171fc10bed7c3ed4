/**
 * The host's "Display and remote" section (docs/decisions/0032-display-and-remote.md): the display's
 * link and QR code, safe to show on the projector (it can only watch), and the remote's, which runs
 * the game and so shows only when the host asks, with a warning, since the host's screen may be the
 * one the room sees.
 */
import { useState } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import type { GameLinks } from "#app/utils/game-links.server";

export function DisplayLinks({ gameCode, links }: { gameCode: string; links: GameLinks | null }) {
  const { t } = useTranslation("game");
  const [showRemote, setShowRemote] = useState(false);
  if (!links) return null;
  return (
    <section className="card stack" aria-labelledby="display-links-heading">
      <h2 id="display-links-heading">{t("links.heading")}</h2>
      <p>{t("links.displayIntro")}</p>
      <div className="row" style={{ alignItems: "center" }}>
        <div className="qr link-qr" role="img" aria-label={t("links.displayQr", { code: gameCode })} dangerouslySetInnerHTML={{ __html: links.displayQrSvg }} />
        <a className="button button-secondary" href={links.displayUrl} target="_blank" rel="noopener noreferrer" data-testid="display-link">
          {t("links.openDisplay")}
        </a>
      </div>
      <div>
        <button
          type="button"
          className="button button-secondary"
          aria-expanded={showRemote}
          aria-controls="remote-code"
          onClick={() => setShowRemote(!showRemote)}
        >
          {t(showRemote ? "links.hideRemote" : "links.showRemote")}
        </button>
      </div>
      <div id="remote-code" className="stack" hidden={!showRemote}>
        {showRemote ? (
          <>
            <p className="hint" role="note">
              {t("links.remoteWarning")}
            </p>
            <div className="row" style={{ alignItems: "center" }}>
              <div
                className="qr link-qr"
                role="img"
                aria-label={t("links.remoteQr", { code: gameCode })}
                dangerouslySetInnerHTML={{ __html: links.remoteQrSvg }}
              />
              <a className="button button-secondary" href={links.remoteUrl} target="_blank" rel="noopener noreferrer" data-testid="remote-link">
                {t("links.openRemote")}
              </a>
            </div>
          </>
        ) : null}
      </div>
    </section>
  );
}
