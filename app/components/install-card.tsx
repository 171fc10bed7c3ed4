/**
 * The install card's faces (docs/product.md#pwa), loaded by PwaSupport only when one shows: most
 * visits, and every game screen, show none (docs/decisions/0025-player-download.md).
 */
import { Trans, useTranslation } from "#app/i18n/use-translation";
import { dismissInstall, promptInstall } from "#app/pwa/install";

/** The iOS steps (docs/product.md#pwa): Safari has no install prompt, so the card says how. */
export function IosInstallSteps() {
  return (
    <ol className="install-steps">
      <li>
        <Trans i18nKey="install.ios.share" components={{ strong: <strong />, icon: <span aria-hidden="true">⎋</span> }} />
      </li>
      <li>
        <Trans i18nKey="install.ios.addToHomeScreen" components={{ strong: <strong /> }} />
      </li>
      <li>
        <Trans i18nKey="install.ios.add" components={{ strong: <strong /> }} />
      </li>
    </ol>
  );
}

export type InstallCardFace = { face: "installed" } | { face: "ios"; device: "phone" | "tablet" | "desktop"; onNotNow(): void } | { face: "prompt" };

export default function InstallCard(props: InstallCardFace) {
  const { t } = useTranslation();
  if (props.face === "installed") {
    return (
      <aside className="card install-card" aria-label={t("install.label")}>
        <strong>{t("install.installed")}</strong>
        <p className="hint">{t("install.installedText")}</p>
      </aside>
    );
  }
  if (props.face === "ios") {
    return (
      <aside className="card install-card stack" aria-label={t("install.title")}>
        <strong>{t(props.device === "tablet" ? "install.ios.titleIpad" : "install.ios.titleIphone")}</strong>
        <IosInstallSteps />
        <button type="button" className="button button-secondary button-small" onClick={props.onNotNow}>
          {t("install.notNow")}
        </button>
      </aside>
    );
  }
  return (
    <aside className="card install-card stack" aria-label={t("install.title")}>
      <strong>{t("install.title")}</strong>
      <p className="hint">{t("install.text")}</p>
      <div className="row">
        <button type="button" className="button button-small" onClick={() => void promptInstall()}>
          {t("install.installApp")}
        </button>
        <button type="button" className="button button-secondary button-small" onClick={dismissInstall}>
          {t("install.notNow")}
        </button>
      </div>
    </aside>
  );
}
