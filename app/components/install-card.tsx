/**
 * The install card's faces (docs/product.md#pwa), loaded by PwaSupport only when one shows: most
 * visits, and every game screen, show none (docs/decisions/0025-player-download.md).
 */
import { dismissInstall, promptInstall } from "#app/pwa/install";

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

export type InstallCardFace = { face: "installed" } | { face: "ios"; device: "phone" | "tablet" | "desktop"; onNotNow(): void } | { face: "prompt" };

export default function InstallCard(props: InstallCardFace) {
  if (props.face === "installed") {
    return (
      <aside className="card install-card" aria-label="Install">
        <strong>App Installed!</strong>
        <p className="hint">Quiz Night is on your home screen.</p>
      </aside>
    );
  }
  if (props.face === "ios") {
    return (
      <aside className="card install-card stack" aria-label="Install Quiz Night">
        <strong>Install Quiz Night on your {props.device === "tablet" ? "iPad" : "iPhone"}</strong>
        <IosInstallSteps />
        <button type="button" className="button button-secondary button-small" onClick={props.onNotNow}>
          Not Now
        </button>
      </aside>
    );
  }
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
