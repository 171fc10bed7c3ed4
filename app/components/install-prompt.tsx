import { useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
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
        Tap the <strong>Share</strong> button <span aria-hidden="true">⎋</span>
      </li>
      <li>
        Choose <strong>Add to Home Screen</strong>
      </li>
      <li>
        Tap <strong>Add</strong>
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
      title: "New version available",
      description: "Reload to use the latest Quiz Night.",
      action: { label: "Reload", onClick: applyUpdate },
      duration: Number.POSITIVE_INFINITY,
    });
  }, [updateReady, toast]);

  if (!platform || GAME_SCREENS.test(pathname)) return null;

  if (standalone) {
    return installedNotice ? (
      <aside className="card install-card" aria-label="Install">
        <strong>App Installed!</strong>
        <p className="hint">Quiz Night is on your home screen.</p>
      </aside>
    ) : null;
  }

  if (platform.isIOS && !iosDismissed) {
    return (
      <aside className="card install-card stack" aria-label="Install Quiz Night">
        <strong>Install Quiz Night on your {platform.device === "tablet" ? "iPad" : "iPhone"}</strong>
        <IosInstallSteps />
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => {
            dismissIosInstall();
            setIosDismissed(true);
          }}
        >
          Not Now
        </button>
      </aside>
    );
  }

  if (installState !== "available") return null;
  return (
    <aside className="card install-card stack" aria-label="Install Quiz Night">
      <strong>Install Quiz Night</strong>
      <p className="hint">Open it from your home screen or desktop, full screen, even when the network is patchy.</p>
      <div className="row">
        <button type="button" className="button button-small" onClick={() => void promptInstall()}>
          Install App
        </button>
        <button type="button" className="button button-secondary button-small" onClick={dismissInstall}>
          Not Now
        </button>
      </div>
    </aside>
  );
}
