/**
 * Simulated clients, each on its own loopback address, for the many-games benchmark: Linux routes
 * all of 127.0.0.0/8 to `lo`, so a client socket bound (`localAddress`) to 127.x.y.z reaches a server
 * listening on 127.0.0.1 and the server sees 127.x.y.z as the client's address. Each host and player
 * then counts against its own per-address limits, as on a real night, not against one shared
 * address (what the benchmark measures is the server, not its limits).
 */
import http from "node:http";
import { keepCookies, withCookies } from "./cookie-jar";

/**
 * Addresses 127.1.0.1 upwards: the last byte 1-254 (never a network's 0 or broadcast 255 byte), the
 * second 1-254 (127.0.x.x, where 127.0.0.1 lives, and 127.255.x.x, whose last address is the
 * block's broadcast, are left alone).
 */
const LAST_BYTES = 254;
const THIRD_BYTES = 256;
const SECOND_BYTES = 254;

/** How many distinct addresses loopbackAddress hands out. */
export const LOOPBACK_ADDRESSES = LAST_BYTES * THIRD_BYTES * SECOND_BYTES;

/** The `index`-th client address (0-based): 0 → 127.1.0.1, 253 → 127.1.0.254, 254 → 127.1.1.1. */
export function loopbackAddress(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= LOOPBACK_ADDRESSES) {
    throw new RangeError(`a loopback address index must be a whole number from 0 to ${LOOPBACK_ADDRESSES - 1} (got ${index})`);
  }
  const last = (index % LAST_BYTES) + 1;
  const third = Math.floor(index / LAST_BYTES) % THIRD_BYTES;
  const second = Math.floor(index / (LAST_BYTES * THIRD_BYTES)) + 1;
  return `127.${second}.${third}.${last}`;
}

/**
 * The addresses of game `game` (0-based) of a many-games run with `playersPerGame` players: its
 * host's, then one per player, none shared with another game.
 */
export function gameAddresses(game: number, playersPerGame: number): { host: string; players: string[] } {
  const first = game * (playersPerGame + 1);
  return {
    host: loopbackAddress(first),
    players: Array.from({ length: playersPerGame }, (_, player) => loopbackAddress(first + 1 + player)),
  };
}

/**
 * A JSON POST to the server's API as the browser with that client id, from `localAddress` (Node's
 * fetch cannot choose its source address). A fresh connection each time, as a phone's would be
 * after a while; the response's JSON, or an error with its status and text.
 */
export function postJson(baseUrl: string, pathname: string, body: unknown, clientId: string, localAddress: string): Promise<Record<string, unknown>> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(pathname, baseUrl),
      {
        method: "POST",
        localAddress,
        agent: false,
        headers: withCookies(clientId, { "content-type": "application/json", "content-length": payload.length, "x-client-id": clientId }),
      },
      (response) => {
        keepCookies(clientId, response.headers["set-cookie"]);
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          const status = response.statusCode ?? 0;
          if (status < 200 || status >= 300) return reject(new Error(`${pathname}: ${status} ${text.slice(0, 200)}`));
          try {
            resolve(JSON.parse(text));
          } catch (error) {
            reject(error);
          }
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}
