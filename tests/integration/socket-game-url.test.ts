/**
 * The socket URL names its game (`/ws?clientId=...&game=CODE`, issue 28): the upgrade reads it with
 * the app's game-code schema, refuses a malformed one with a 400 that says why, and keeps it on the
 * connection for routing; a message naming another game is still served (one node holds them all).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BAD_GAME_PARAM, upgradeListener, type SocketIdentity } from "#server/socket/upgrade";
import { createGameFixture, startTestServer, TestClient, type TestServer } from "./harness";

/** The answer to an upgrade that was refused: its status and body. */
function refusedUpgrade(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once("open", () => reject(new Error(`${url} was let through`)));
    socket.once("unexpected-response", (_request, response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.once("error", () => {});
  });
}

function opened(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once("open", () => resolve(socket));
    socket.once("error", reject);
  });
}

describe("the upgrade's game parameter", () => {
  let server: http.Server;
  let base: string;
  const accepted: SocketIdentity[] = [];

  beforeAll(async () => {
    server = http.createServer();
    server.on(
      "upgrade",
      upgradeListener({ allowedOrigins: [], rejectOtherUpgrades: true }, (_request, socket, _head, identity) => {
        accepted.push(identity);
        // Enough for the client to see an answer; the transport would hand it to ws here.
        socket.end("HTTP/1.1 418 Accepted For The Test\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("keeps the game its URL names, and null when it names none", async () => {
    await refusedUpgrade(`${base}?clientId=browser-1&game=ABC234`);
    await refusedUpgrade(`${base}?clientId=browser-2`);
    expect(accepted.map(({ clientId, gameCode }) => ({ clientId, gameCode }))).toEqual([
      { clientId: "browser-1", gameCode: "ABC234" },
      { clientId: "browser-2", gameCode: null },
    ]);
  });

  it.each([
    ["lower case", "abc234"],
    ["punctuation", "ABC-234"],
    ["too short", "ABC23"],
    ["too long", "ABC2345"],
    ["empty", ""],
  ])("refuses a game code in another form (%s) with a 400 that says why", async (_case, game) => {
    const before = accepted.length;
    const refused = await refusedUpgrade(`${base}?clientId=browser-3&game=${encodeURIComponent(game)}`);
    expect(refused).toEqual({ status: 400, body: BAD_GAME_PARAM });
    expect(accepted).toHaveLength(before);
  });
});

describe("a socket of the real server that names its game", () => {
  let server: TestServer;
  const sockets: Array<WebSocket | TestClient> = [];

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server?.stop();
  });

  it("plays its game, and still joins another game it did not name (one node holds every game)", async () => {
    const first = await createGameFixture(server);
    const second = await createGameFixture(server);
    const host = await TestClient.connect(server, first.hostClientId);
    sockets.push(host);
    await host.joinAsHost(first.gameCode);
    const wsUrl = `${server.url.replace("http", "ws")}/ws`;
    const named = await opened(`${wsUrl}?clientId=named-player&game=${first.gameCode}`);
    const other = await opened(`${wsUrl}?clientId=other-player&game=${second.gameCode}`);
    sockets.push(named, other);
    /** The first message of `type` the socket gets from now on. */
    const until = (socket: WebSocket, type: string) =>
      new Promise<void>((resolve) => {
        const listener = (data: WebSocket.RawData) => {
          if ((JSON.parse(String(data)) as { type: string }).type !== type) return;
          socket.off("message", listener);
          resolve();
        };
        socket.on("message", listener);
      });
    const namedJoined = until(named, "GAME_SNAPSHOT");
    named.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode: first.gameCode, nickname: "Named" } }));
    await namedJoined;
    const otherJoined = until(other, "GAME_SNAPSHOT");
    other.send(JSON.stringify({ type: "JOIN_GAME", payload: { gameCode: first.gameCode, nickname: "Elsewhere" } }));
    await otherJoined;
  });

  it("refuses a malformed game before the handshake", async () => {
    expect(await refusedUpgrade(`${server.url.replace("http", "ws")}/ws?clientId=x&game=nope`)).toEqual({ status: 400, body: BAD_GAME_PARAM });
  });
});
