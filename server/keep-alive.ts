/**
 * How long a node keeps an idle keep-alive connection open. Node's own 5 s is shorter than the
 * proxies in front keep theirs (nginx's upstream `keepalive`, 60 s; HAProxy's idle server
 * connections): a proxy could then send a request on a connection at the very moment the node closes
 * it, and answer 502, which nginx and HAProxy do not retry for a POST. Longer than those, the proxy
 * always closes first (docs/deployment.md, "Several nodes").
 */
import type http from "node:http";

export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function keepIdleConnectionsLongerThanProxies(server: http.Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // A request's headers may take up to this long; Node wants it above the keep-alive timeout.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
}
