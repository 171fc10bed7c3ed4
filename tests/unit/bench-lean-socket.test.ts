/**
 * The load generator's own WebSocket client (bench/lean-socket.ts) against a real `ws` server: the
 * handshake, text in both directions at every length's header form, fragments, the heartbeat's
 * pings, closing, and a refused upgrade. Then `--client` (bench/client-socket.ts): either client
 * behind the same events.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";
import { CLIENT_KINDS, clientKind, openClientSocket } from "../../bench/client-socket";
import { LeanSocket } from "../../bench/lean-socket";

let server: http.Server | null = null;
let wss: WebSocketServer | null = null;

afterEach(async () => {
  for (const client of wss?.clients ?? []) client.terminate();
  await new Promise((resolve) => wss?.close(resolve) ?? resolve(null));
  await new Promise((resolve) => server?.close(resolve) ?? resolve(null));
  server = null;
  wss = null;
});

/** A `ws` server on a free port; `accept` false refuses every upgrade with a 403. */
async function startServer(accept = true): Promise<{ url: string; connected: Promise<{ socket: WebSocket; url: string; cookie?: string }> }> {
  server = http.createServer();
  wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const connected = new Promise<{ socket: WebSocket; url: string; cookie?: string }>((resolve) => {
    server!.on("upgrade", (request, stream, head) => {
      if (!accept) {
        stream.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
        return;
      }
      wss!.handleUpgrade(request, stream, head, (socket) => resolve({ socket, url: request.url ?? "", cookie: request.headers.cookie }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws?clientId=bench-1`, connected };
}

function opened(socket: LeanSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
}

function messages(socket: LeanSocket, count: number): Promise<string[]> {
  const received: string[] = [];
  return new Promise((resolve) =>
    socket.on("message", (data: Buffer) => {
      received.push(data.toString());
      if (received.length === count) resolve(received);
    }),
  );
}

/** A LeanSocket opened on a fresh server, and the server's side of it. */
async function connectedPair(): Promise<{ client: LeanSocket; socket: WebSocket }> {
  const { url, connected } = await startServer();
  const client = new LeanSocket(url);
  await opened(client);
  return { client, socket: (await connected).socket };
}

const texts = [0, 1, 125, 126, 65_535, 65_536, 70_000].map((length) => "é".repeat(Math.floor(length / 2)) + "x".repeat(length % 2));

describe("LeanSocket", () => {
  it("opens on the path and query it was given, and reads the server's texts at every length", async () => {
    const { url, connected } = await startServer();
    const client = new LeanSocket(url);
    await opened(client);
    const { socket, url: path } = await connected;
    expect(path).toBe("/ws?clientId=bench-1");
    const received = messages(client, texts.length);
    for (const text of texts) socket.send(text);
    expect(await received).toEqual(texts);
    client.terminate();
  });

  it("sends masked texts the server reads back, at every length", async () => {
    const { client, socket } = await connectedPair();
    const received = new Promise<string[]>((resolve) => {
      const all: string[] = [];
      socket.on("message", (data: Buffer) => {
        all.push(data.toString());
        if (all.length === texts.length) resolve(all);
      });
    });
    for (const text of texts) client.send(text);
    expect(await received).toEqual(texts);
    client.terminate();
  });

  it("joins a message sent in fragments", async () => {
    const { client, socket } = await connectedPair();
    const received = messages(client, 1);
    socket.send("first half, ", { fin: false });
    socket.send("second half", { fin: true });
    expect(await received).toEqual(["first half, second half"]);
    client.terminate();
  });

  it("answers the server's ping with a pong of the same payload", async () => {
    const { client, socket } = await connectedPair();
    const pong = new Promise<string>((resolve) => socket.once("pong", (data: Buffer) => resolve(data.toString())));
    socket.ping("heartbeat");
    expect(await pong).toBe("heartbeat");
    client.terminate();
  });

  it("closes when the server closes, and the server sees its close frame", async () => {
    const { client, socket } = await connectedPair();
    const clientClosed = new Promise<void>((resolve) => client.once("close", resolve));
    const serverClosed = new Promise<number>((resolve) => socket.once("close", (code: number) => resolve(code)));
    socket.close(1000, "game over");
    await clientClosed;
    expect(await serverClosed).toBe(1000);
  });

  it("reports a refused upgrade as an error, not an open socket", async () => {
    const { url } = await startServer(false);
    const client = new LeanSocket(url);
    await expect(opened(client)).rejects.toThrow(/403/);
  });
});

describe("the players' client (--client)", () => {
  afterEach(() => {
    delete process.env.BENCH_CLIENT;
  });

  it.each(CLIENT_KINDS)("%s: opens with the host's cookie, reads and sends texts as Buffers and strings, and closes", async (kind) => {
    process.env.BENCH_CLIENT = kind;
    const { url, connected } = await startServer();
    const client = await openClientSocket(url, { cookie: "quiz_host=secret" });
    const { socket, url: path, cookie } = await connected;
    expect([path, cookie]).toEqual(["/ws?clientId=bench-1", "quiz_host=secret"]);
    const received = new Promise<Buffer>((resolve) => client.once("message", resolve));
    socket.send('{"type":"QUESTION_STARTED"}');
    expect((await received).toString()).toBe('{"type":"QUESTION_STARTED"}');
    const answered = new Promise<string>((resolve) => socket.once("message", (data: Buffer) => resolve(data.toString())));
    client.send('{"type":"SUBMIT_ANSWER"}');
    expect(await answered).toBe('{"type":"SUBMIT_ANSWER"}');
    const closed = new Promise<void>((resolve) => client.once("close", resolve));
    client.close();
    await closed;
  });

  it("refuses a client it does not know", () => {
    process.env.BENCH_CLIENT = "websocket-stream";
    expect(() => clientKind()).toThrow(/BENCH_CLIENT must be one of lean, ws/);
  });
});
