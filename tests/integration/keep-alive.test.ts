/**
 * A node keeps an idle keep-alive connection longer than the proxies in front keep theirs
 * (server/keep-alive.ts): with Node's own 5 s, nginx or HAProxy could send a request on a
 * connection the node was closing that moment and answer the visitor 502.
 */
import http from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { KEEP_ALIVE_TIMEOUT_MS } from "#server/keep-alive";
import { startTestServer, type TestServer } from "./harness";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.stop();
});

it("tells a client, a proxy included, that it keeps an idle connection for 65 s, longer than nginx's 60 s", async () => {
  const agent = new http.Agent({ keepAlive: true });
  const keepAlive = await new Promise<string | undefined>((resolve, reject) => {
    http
      .get(`${server.url}/healthz`, { agent }, (response) => {
        response.resume();
        resolve(response.headers["keep-alive"]?.toString());
      })
      .on("error", reject);
  });
  agent.destroy();
  expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
  expect(keepAlive).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
});
