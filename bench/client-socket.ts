/**
 * The simulated players' WebSocket, as `npm run bench -- --client lean|ws` chooses it, for the
 * product and for the bare `ws` baseline alike, so the ratio between them compares servers only.
 *
 * `lean` (the default) is bench/lean-socket.ts, which reads frames straight off a `net` socket
 * (docs/decisions/0038-a-lean-load-generator.md). `ws` is `ws`'s own client, as an outsider trying
 * the product would load it: a Writable stream per socket and an event chain per frame. The load
 * workers are forked with BENCH_CLIENT set by bench/run.ts.
 */
import { EventEmitter } from "node:events";
import WebSocket from "ws";
import { openLeanSocket, type LeanSocketOptions } from "./lean-socket";

export const CLIENT_KINDS = ["lean", "ws"] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

/** What a simulated player does with its socket. Events: `message` (the payload as a Buffer) and `close`. */
export interface ClientSocket extends EventEmitter {
  send(text: string): void;
  close(): void;
  terminate(): void;
}

/** `ws`'s client behind the lean client's events; it answers the server's pings by itself. */
class WsClientSocket extends EventEmitter implements ClientSocket {
  constructor(private readonly socket: WebSocket) {
    super();
    socket.on("message", (data) => this.emit("message", data as Buffer));
    socket.on("close", () => this.emit("close"));
    socket.on("error", () => {}); // a broken connection after `open` ends in `close`
  }

  send(text: string): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
  }

  close(): void {
    this.socket.close();
  }

  terminate(): void {
    this.socket.terminate();
  }
}

function openWsSocket(url: string, options: LeanSocketOptions): Promise<ClientSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, {
      localAddress: options.localAddress,
      headers: options.cookie ? { Cookie: options.cookie } : undefined,
      perMessageDeflate: false,
    });
    socket.once("open", () => {
      socket.off("error", reject);
      resolve(new WsClientSocket(socket));
    });
    socket.once("error", reject);
  });
}

/** The client this process was forked to use. */
export function clientKind(): ClientKind {
  const kind = process.env.BENCH_CLIENT ?? "lean";
  if (!(CLIENT_KINDS as readonly string[]).includes(kind)) throw new Error(`BENCH_CLIENT must be one of ${CLIENT_KINDS.join(", ")} (got ${kind}).`);
  return kind as ClientKind;
}

/** An open socket of this process's client kind; rejected when the connection fails first. */
export function openClientSocket(url: string, options: LeanSocketOptions = {}): Promise<ClientSocket> {
  return clientKind() === "ws" ? openWsSocket(url, options) : openLeanSocket(url, options);
}

/** Attempts at opening one socket before a worker gives up: a burst of connects can meet a full accept queue. */
const CONNECT_ATTEMPTS = 5;

/** `openClientSocket`, tried again a moment later (50 ms, 100 ms, ...) when the server refused or reset it. */
export async function connectWithRetry(url: string): Promise<ClientSocket> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await openClientSocket(url);
    } catch (error) {
      if (attempt >= CONNECT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
