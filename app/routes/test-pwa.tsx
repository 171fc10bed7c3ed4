import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { IosInstallSteps } from "#app/components/install-card";
import { Page } from "#app/components/layout";
import { promptInstall, useInstallState } from "#app/pwa/install";
import { useOnline } from "#app/pwa/online";
import { currentPlatform, isStandalone, type PlatformInfo } from "#app/pwa/platform";
import { useServiceWorker, type WorkerStatus } from "#app/pwa/service-worker-client";
import packageJson from "../../package.json";

export const meta: MetaFunction = () => [{ title: "PWA Test | Quiz Night" }];

export function loader() {
  return { version: packageJson.version };
}

const WORKER_TEXT: Record<WorkerStatus, string> = {
  unsupported: "Not supported",
  off: "Off (development build)",
  registering: "Registering...",
  active: "Active",
  failed: "Failed to register",
};

/** A resource the service worker precaches: fetching it with the network off proves the cache works. */
const CACHED_RESOURCE = "/offline.html";

type OfflineTest = { state: "idle" | "running" } | { state: "passed" | "failed"; message: string };

function browserName(userAgent: string): string {
  const match = /(Edg|OPR|Chrome|Firefox|Version)\/(\d+)/.exec(userAgent);
  if (!match) return "Unknown";
  const names: Record<string, string> = { Edg: "Edge", OPR: "Opera", Chrome: "Chrome", Firefox: "Firefox", Version: "Safari" };
  return `${names[match[1]]} ${match[2]}`;
}

/** The PWA test dashboard (docs/product.md#screens): what this browser supports and whether the app works offline. */
export default function TestPwa() {
  const { version } = useLoaderData<typeof loader>();
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
      if (!response.ok || !text.includes("You're offline")) throw new Error(`the server answered ${response.status}`);
      setOfflineTest({
        state: "passed",
        message: navigator.onLine
          ? "Passed: the cached offline page loaded. You are online, so turn the network off and run it again to test for real."
          : "Passed: with the network off, the offline page loaded from the service worker's cache.",
      });
    } catch (error) {
      setOfflineTest({
        state: "failed",
        message: `Failed: ${CACHED_RESOURCE} could not be loaded (${error instanceof Error ? error.message : String(error)}). ${
          worker === "active" ? "" : "The service worker is not active, so nothing is cached yet."
        }`.trim(),
      });
    }
  }

  const yesNo = (value: boolean | undefined) => (value === undefined ? "Checking..." : value ? "Yes" : "No");
  const statuses: [string, string][] = [
    ["Installed", yesNo(device?.standalone)],
    ["Service worker", WORKER_TEXT[worker]],
    ["iOS", yesNo(device?.isIOS)],
    ["Android", yesNo(device?.isAndroid)],
    ["Install prompt available", installState === "available" ? "Yes" : "No"],
    ["Online", online ? "Yes" : "No"],
  ];

  return (
    <Page narrow>
      <div className="stack">
        <h1>PWA Test Dashboard</h1>

        <section className="card stack" aria-labelledby="device-heading">
          <h2 id="device-heading">This device</h2>
          <dl className="account-details">
            <div>
              <dt>Platform</dt>
              <dd data-testid="pwa-platform">{device?.platform ?? "Checking..."}</dd>
            </div>
            <div>
              <dt>Device</dt>
              <dd data-testid="pwa-device">{device ? `${device.device[0].toUpperCase()}${device.device.slice(1)} · ${device.browser}` : "Checking..."}</dd>
            </div>
            <div>
              <dt>Version</dt>
              <dd data-testid="pwa-version">Quiz Night {version}</dd>
            </div>
          </dl>
        </section>

        <section className="card stack" aria-labelledby="status-heading">
          <h2 id="status-heading">Status</h2>
          <ul className="pwa-status-list" aria-labelledby="status-heading">
            {statuses.map(([label, value]) => (
              <li key={label}>
                <span>{label}</span>
                <strong className={value === "Yes" || value === "Active" ? "result-correct" : undefined}>{value}</strong>
              </li>
            ))}
          </ul>
        </section>

        <section className="card stack" aria-labelledby="install-heading">
          <h2 id="install-heading">Install</h2>
          {device?.standalone || installState === "accepted" ? (
            <p className="status-notice">App Installed!</p>
          ) : installState === "available" ? (
            <div className="row">
              <button type="button" className="button" onClick={() => void promptInstall()}>
                Install App
              </button>
            </div>
          ) : device?.isIOS ? (
            <IosInstallSteps />
          ) : (
            <p className="hint">
              This browser has not offered installation on this page yet. In Chrome or Edge, use the install icon in the address bar or Install Quiz Night in
              the menu.
            </p>
          )}
        </section>

        <section className="card stack" aria-labelledby="offline-heading">
          <h2 id="offline-heading">Offline test</h2>
          <p className="hint">Loads a page the service worker keeps, to show the app opens without a network.</p>
          <div className="row">
            <button type="button" className="button button-secondary" onClick={() => void runOfflineTest()} disabled={offlineTest.state === "running"}>
              {offlineTest.state === "running" ? "Testing..." : "Run offline test"}
            </button>
          </div>
          {"message" in offlineTest ? (
            <p role="status" className={offlineTest.state === "passed" ? "status-notice" : "form-error"}>
              {offlineTest.message}
            </p>
          ) : null}
        </section>
      </div>
    </Page>
  );
}
