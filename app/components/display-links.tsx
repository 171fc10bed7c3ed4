/**
 * The host's "Display and remote" section (docs/decisions/0032-display-and-remote.md): the display's
 * link and QR code, safe to show on the projector (it can only watch), and the remote's, which runs
 * the game and so shows only when the host asks, with a warning, since the host's screen may be the
 * one the room sees. "New links" replaces both keys, for a host who fears a link got out (a plain
 * form post to /host/CODE/new-links, so it works without JavaScript).
 */
import { Form, useLocation, useNavigation, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import type { GameLinks } from "#app/game-pages/game-links.server";

/** The search parameter the host's page comes back with after "New links": this section then says the old links are dead. */
export const LINKS_RENEWED = { param: "links", value: "new" } as const;

export function DisplayLinks({ gameCode, links }: { gameCode: string; links: GameLinks | null }) {
  const { t } = useTranslation("game");
  const [showRemote, setShowRemote] = useState(false);
  const location = useLocation();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  if (!links) return null;
  const renewAction = `/host/${gameCode}/new-links`;
  const renewing = navigation.state !== "idle" && navigation.formAction === renewAction;
  const renewed = searchParams.get(LINKS_RENEWED.param) === LINKS_RENEWED.value;
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
      <Form
        method="post"
        action={renewAction}
        className="stack"
        onSubmit={(event) => {
          if (!window.confirm(t("links.confirmRenew"))) event.preventDefault();
        }}
      >
        <input type="hidden" name="redirectTo" value={location.pathname} />
        <p className="hint">{t("links.renewIntro")}</p>
        <div>
          <button type="submit" className="button button-secondary" disabled={renewing} data-testid="renew-links">
            {t(renewing ? "links.renewing" : "links.renew")}
          </button>
        </div>
      </Form>
      {renewed ? (
        <p className="status-banner" role="status" data-testid="links-renewed">
          {t("links.renewed")}
        </p>
      ) : null}
    </section>
  );
}
