import { useLocation } from "@remix-run/react";
import { lazy, Suspense, useEffect, useState, type ComponentType } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { useToast } from "#app/components/toaster";
import { isIosInstallDismissed, dismissIosInstall } from "#app/game/client/storage";
import { listenForInstallPrompt, useInstallState } from "#app/pwa/install";
import { currentPlatform, isStandalone, type PlatformInfo } from "#app/pwa/platform";
import { applyUpdate, registerServiceWorker, useServiceWorker } from "#app/pwa/service-worker-client";
import { isOnTheWayIntoAGame } from "#app/game-pages/game-screens";
import type { InstallCardFace } from "./install-card";

const INSTALLED_NOTICE_MS = 5000;

listenForInstallPrompt();

/** Loaded when a card shows; a first visit that lost the network shows none rather than an error. */
const InstallCard = lazy<ComponentType<InstallCardFace>>(() => import("./install-card").catch(() => ({ default: () => null })));

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

  // On a game's screens the card would cover the answers; on the join form it would stand between a guest and the game.
  if (!platform || isOnTheWayIntoAGame(pathname)) return null;
  const card: InstallCardFace | null = standalone
    ? installedNotice
      ? { face: "installed" }
      : null
    : platform.isIOS && !iosDismissed
      ? {
          face: "ios",
          device: platform.device,
          onNotNow() {
            dismissIosInstall();
            setIosDismissed(true);
          },
        }
      : installState === "available"
        ? { face: "prompt" }
        : null;
  if (!card) return null;
  return (
    <Suspense fallback={null}>
      <InstallCard {...card} />
    </Suspense>
  );
}
