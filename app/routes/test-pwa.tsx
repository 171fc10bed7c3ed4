import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { IosInstallSteps } from "#app/components/install-card";
import { Page } from "#app/components/layout";
import { metaT } from "#app/i18n/meta";
import { promptInstall, useInstallState } from "#app/pwa/install";
import { useOnline } from "#app/pwa/online";
import { currentPlatform, isStandalone, type PlatformInfo } from "#app/pwa/platform";
import { useServiceWorker, type WorkerStatus } from "#app/pwa/service-worker-client";
import packageJson from "../../package.json";

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches)("pwa.metaTitle") }];

export function loader() {
  return { version: packageJson.version };
}

/** Each worker status's words: `pwa.worker.STATUS` in the common catalog. */
const WORKER_KEYS = {
  unsupported: "pwa.worker.unsupported",
  off: "pwa.worker.off",
  registering: "pwa.worker.registering",
  active: "pwa.worker.active",
  failed: "pwa.worker.failed",
} as const satisfies Record<WorkerStatus, string>;

/** A resource the service worker precaches: fetching it with the network off proves the cache works. */
const CACHED_RESOURCE = "/offline.html";

/** A failed test's reason: the server's status, or what the browser said (its own words). */
type OfflineTest =
  { state: "idle" | "running" } | { state: "passed"; online: boolean } | { state: "failed"; status?: number; detail?: string; workerActive: boolean };

/** What `detectPlatform` and `browserName` say when they cannot tell; shown in the page's language. */
const UNKNOWN = "Unknown";

function browserName(userAgent: string): string {
  const match = /(Edg|OPR|Chrome|Firefox|Version)\/(\d+)/.exec(userAgent);
  if (!match) return UNKNOWN;
  const names: Record<string, string> = { Edg: "Edge", OPR: "Opera", Chrome: "Chrome", Firefox: "Firefox", Version: "Safari" };
  return `${names[match[1]]} ${match[2]}`;
}

/** The PWA test dashboard (docs/product.md#screens): what this browser supports and whether the app works offline. */
export default function TestPwa() {
  const { version } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const { status: worker } = useServiceWorker();
  const installState = useInstallState();
  const online = useOnline();
  const [device, setDevice] = useState<(PlatformInfo & { browser: string; standalone: boolean }) | null>(null);
  const [offlineTest, setOfflineTest] = useState<OfflineTest>({ state: "idle" });

  useEffect(() => {
    setDevice({ ...currentPlatform(), browser: browserName(navigator.userAgent), standalone: isStandalone() });
  }, []);

  async function runOfflineTest() {
    setOfflineTest({ state: "running" });
    try {
      const response = await fetch(CACHED_RESOURCE, { cache: "no-store" });
      const text = await response.text();
      // offline.html is static and written in English (its script translates it when it runs), so its English title is what proves it loaded.
      if (!response.ok || !text.includes("You're offline")) {
        setOfflineTest({ state: "failed", status: response.status, workerActive: worker === "active" });
        return;
      }
      setOfflineTest({ state: "passed", online: navigator.onLine });
    } catch (error) {
      setOfflineTest({ state: "failed", detail: error instanceof Error ? error.message : String(error), workerActive: worker === "active" });
    }
  }

  function offlineTestMessage(test: OfflineTest): string | null {
    if (test.state === "passed") return t(test.online ? "pwa.offline.passedOnline" : "pwa.offline.passedOffline");
    if (test.state !== "failed") return null;
    const detail = test.status !== undefined ? t("pwa.offline.serverAnswered", { status: test.status }) : (test.detail ?? "");
    return t(test.workerActive ? "pwa.offline.failed" : "pwa.offline.failedNoWorker", { resource: CACHED_RESOURCE, detail });
  }

  const unknown = (value: string) => (value === UNKNOWN ? t("pwa.unknown") : value);
  const checking = t("pwa.checking");
  /** Each row's label, its value and whether the value is the good news. */
  const yesNo = (value: boolean | undefined): [string, boolean] => [value === undefined ? checking : value ? t("pwa.yes") : t("pwa.no"), value === true];
  const statuses: [string, [string, boolean]][] = [
    [t("pwa.status.installed"), yesNo(device?.standalone)],
    [t("pwa.status.worker"), [t(WORKER_KEYS[worker]), worker === "active"]],
    [t("pwa.status.ios"), yesNo(device?.isIOS)],
    [t("pwa.status.android"), yesNo(device?.isAndroid)],
    [t("pwa.status.installPrompt"), yesNo(installState === "available")],
    [t("pwa.status.online"), yesNo(online)],
  ];
  const offlineMessage = offlineTestMessage(offlineTest);

  return (
    <Page narrow>
      <div className="stack">
        <h1>{t("pwa.title")}</h1>

        <section className="card stack" aria-labelledby="device-heading">
          <h2 id="device-heading">{t("pwa.device.title")}</h2>
          <dl className="account-details">
            <div>
              <dt>{t("pwa.device.platformLabel")}</dt>
              <dd data-testid="pwa-platform">{device ? unknown(device.platform) : checking}</dd>
            </div>
            <div>
              <dt>{t("pwa.device.deviceLabel")}</dt>
              <dd data-testid="pwa-device">
                {device ? t("pwa.device.kindAndBrowser", { kind: t(`pwa.kind.${device.device}`), browser: unknown(device.browser) }) : checking}
              </dd>
            </div>
            <div>
              <dt>{t("pwa.device.versionLabel")}</dt>
              <dd data-testid="pwa-version">Quiz Night {version}</dd>
            </div>
          </dl>
        </section>

        <section className="card stack" aria-labelledby="status-heading">
          <h2 id="status-heading">{t("pwa.status.title")}</h2>
          <ul className="pwa-status-list" aria-labelledby="status-heading">
            {statuses.map(([label, [value, good]]) => (
              <li key={label}>
                <span>{label}</span>
                <strong className={good ? "result-correct" : undefined}>{value}</strong>
              </li>
            ))}
          </ul>
        </section>

        <section className="card stack" aria-labelledby="install-heading">
          <h2 id="install-heading">{t("pwa.install.title")}</h2>
          {device?.standalone || installState === "accepted" ? (
            <p className="status-notice">{t("install.installed")}</p>
          ) : installState === "available" ? (
            <div className="row">
              <button type="button" className="button" onClick={() => void promptInstall()}>
                {t("install.installApp")}
              </button>
            </div>
          ) : device?.isIOS ? (
            <IosInstallSteps />
          ) : (
            <p className="hint">{t("pwa.install.notOffered")}</p>
          )}
        </section>

        <section className="card stack" aria-labelledby="offline-heading">
          <h2 id="offline-heading">{t("pwa.offline.title")}</h2>
          <p className="hint">{t("pwa.offline.hint")}</p>
          <div className="row">
            <button type="button" className="button button-secondary" onClick={() => void runOfflineTest()} disabled={offlineTest.state === "running"}>
              {offlineTest.state === "running" ? t("pwa.offline.testing") : t("pwa.offline.run")}
            </button>
          </div>
          {offlineMessage ? (
            <p role="status" className={offlineTest.state === "passed" ? "status-notice" : "form-error"}>
              {offlineMessage}
            </p>
          ) : null}
        </section>
      </div>
    </Page>
  );
}
