import { useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { useToast } from "#app/components/toaster";
import { isIosInstallDismissed, dismissIosInstall } from "#app/game/client/storage";
import { dismissInstall, listenForInstallPrompt, promptInstall, useInstallState } from "#app/pwa/install";
import { currentPlatform, isStandalone, type PlatformInfo } from "#app/pwa/platform";
import { applyUpdate, registerServiceWorker, useServiceWorker } from "#app/pwa/service-worker-client";

/** Screens of a game in progress, where a card would cover the answers. */
const GAME_SCREENS = /^\/(waiting|host|play|result|leaderboard|results)\//;
const INSTALLED_NOTICE_MS = 5000;

listenForInstallPrompt();

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

/**
 * The floating install card (docs/product.md#pwa): 'Install App' / 'Not Now' where the browser
 * offers installation, the three iOS steps on an iPhone or iPad, and 'App Installed!' when the app
 * runs installed. Also registers the service worker and offers a new version when one is waiting.
 */
export function PwaSupport() {
  const { t } = useTranslation();
  const installState = useInstallState();
  const { updateReady } = useServiceWorker();
  const toast = useToast();
  const { pathname } = useLocation();
  const [platform, setPlatform] = useState<PlatformInfo | null>(null);
  const [standalone, setStandalone] = useState(false);
  const [iosDismissed, setIosDismissed] = useState(true);
  const [installedNotice, setInstalledNotice] = useState(false);

  useEffect(() => {
    registerServiceWorker();
    setPlatform(currentPlatform());
    const installed = isStandalone();
    setStandalone(installed);
    setIosDismissed(isIosInstallDismissed());
    if (installed && sessionStorage.getItem("installedNoticeShown") !== "true") {
      sessionStorage.setItem("installedNoticeShown", "true");
      setInstalledNotice(true);
      const timer = setTimeout(() => setInstalledNotice(false), INSTALLED_NOTICE_MS);
      return () => clearTimeout(timer);
    }
  }, []);

  useEffect(() => {
    if (!updateReady) return;
    toast({
      title: t("install.update.title"),
      description: t("install.update.text"),
      action: { label: t("install.update.reload"), onClick: applyUpdate },
      duration: Number.POSITIVE_INFINITY,
    });
  }, [updateReady, toast, t]);

  if (!platform || GAME_SCREENS.test(pathname)) return null;

  if (standalone) {
    return installedNotice ? (
      <aside className="card install-card" aria-label={t("install.label")}>
        <strong>{t("install.installed")}</strong>
        <p className="hint">{t("install.installedText")}</p>
      </aside>
    ) : null;
  }

  if (platform.isIOS && !iosDismissed) {
    return (
      <aside className="card install-card stack" aria-label={t("install.title")}>
        <strong>{t(platform.device === "tablet" ? "install.ios.titleIpad" : "install.ios.titleIphone")}</strong>
        <IosInstallSteps />
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => {
            dismissIosInstall();
            setIosDismissed(true);
          }}
        >
          {t("install.notNow")}
        </button>
      </aside>
    );
  }

  if (installState !== "available") return null;
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
