import type { ReactNode } from "react";
import { ScreenHeading } from "#app/components/game-ui";
import { useTranslation } from "#app/i18n/use-translation";

/**
 * The lobby's card the room reads to join: the quiz's title, the code, its QR code and the join
 * link, on the host's lobby and on the display. `link` is how the link shows; `children` follow.
 */
export function JoinCodeCard({
  gameCode,
  title,
  joinUrl,
  qrSvg,
  link,
  children,
}: {
  gameCode: string;
  title: string;
  joinUrl: string;
  qrSvg: string;
  link: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation("game");
  return (
    <div className="card center stack">
      <p className="muted">{title}</p>
      <ScreenHeading>{t("lobby.gameCode")}</ScreenHeading>
      <div className="game-code" aria-label={t("lobby.gameCodeLabel", { spelled: gameCode.split("").join(" ") })}>
        {gameCode}
      </div>
      <div className="row" style={{ justifyContent: "center", alignItems: "center" }}>
        <div className="qr" role="img" aria-label={t("lobby.qrCode", { code: gameCode, url: joinUrl })} dangerouslySetInnerHTML={{ __html: qrSvg }} />
        <div className="stack" style={{ textAlign: "left" }}>
          <span>{t("lobby.joinAt")}</span>
          {link}
        </div>
      </div>
      {children}
    </div>
  );
}
