import { useEffect, useRef, useState } from "react";
import { useTranslation } from "#app/i18n/use-translation";
import { useGame } from "#app/game/client/game-provider";
import { WEBSOCKET_FAILED_EVENT } from "#app/game/client/socket";

/** docs/product.md#constants: the home badge re-reads the connection every 3 s. */
export const CONNECTION_POLL_INTERVAL_MS = 3000;

/** Connected / Disconnected badge for the game socket, with a Reconnect button while it is down. */
export function ConnectionBadge() {
  const { connection, reconnect } = useGame();
  const { t } = useTranslation("game");
  const connectionRef = useRef(connection);
  connectionRef.current = connection;
  const [isConnected, setIsConnected] = useState(connection === "open");

  useEffect(() => {
    setIsConnected(connection === "open");
  }, [connection]);

  useEffect(() => {
    // The poll lets the badge recover on its own after a 'websocket-failed' event forced it off.
    const poll = setInterval(() => setIsConnected(connectionRef.current === "open"), CONNECTION_POLL_INTERVAL_MS);
    const markDisconnected = () => setIsConnected(false);
    window.addEventListener(WEBSOCKET_FAILED_EVENT, markDisconnected);
    return () => {
      clearInterval(poll);
      window.removeEventListener(WEBSOCKET_FAILED_EVENT, markDisconnected);
    };
  }, []);

  // While the first attempt is still under way there is nothing to retry yet.
  const canReconnect = !isConnected && connection !== "connecting";
  return (
    <div className="connection">
      <span className={`badge connection-badge ${isConnected ? "badge-success" : "badge-danger"}`} role="status">
        <span className={`dot${isConnected ? " dot-on" : ""}`} aria-hidden="true" /> {t(isConnected ? "connection.connected" : "connection.disconnected")}
      </span>
      {canReconnect ? (
        <button type="button" className="button button-secondary button-small" onClick={reconnect}>
          {t("connection.reconnect")}
        </button>
      ) : null}
    </div>
  );
}
