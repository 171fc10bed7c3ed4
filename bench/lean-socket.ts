/**
 * The load generator's WebSocket client (bench/load-worker.ts, bench/game-players.ts): the part of
 * RFC 6455 a simulated player needs, read straight off a `net` socket.
 *
 * Why not `ws`'s client: the load generator shares two cores with the server it measures, and when
 * every game opens its first question at once, 18,900 frames arrive in the same moment. Through
 * `ws` (a Writable stream per socket, an event chain per frame) the generator took longer to read
 * them than the server took to send them, so the delivery figure measured the generator
 * (docs/decisions/0038-a-lean-load-generator.md). The bare `ws` baseline and the games use this
 * same client, so the ratio between them still compares servers only.
 *
 * What it does: the opening handshake, unmasked text and binary frames from the server (fragments
 * joined), a pong for every ping (the server ends a socket that misses one), a close frame, and
 * masked frames from the client, as the protocol requires. No extensions, no subprotocols.
 */
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import net from "node:net";

const OPCODE_CONTINUATION = 0x0;
const OPCODE_TEXT = 0x1;
const OPCODE_BINARY = 0x2;
const OPCODE_CLOSE = 0x8;
const OPCODE_PING = 0x9;
const HEADERS_END = Buffer.from("\r\n\r\n");

export interface LeanSocketOptions {
  /** The local address to connect from: every simulated client has its own (bench/loopback.ts). */
  localAddress?: string;
  /** A Cookie header for the upgrade (a host's: bench/cookie-jar.ts). */
  cookie?: string;
}

/**
 * Events: `open`, `message` (the payload as a Buffer), `close`, and `error` (before `open` only;
 * afterwards a broken connection is a `close`).
 */
export class LeanSocket extends EventEmitter {
  private readonly socket: net.Socket;
  private opened = false;
  private closed = false;
  /** Bytes received but not yet a whole frame (or, before `open`, the handshake's reply so far). */
  private pending: Buffer | null = null;
  /** The fragments of a message whose last frame has not come yet. */
  private fragments: Buffer[] = [];

  constructor(url: string, options: LeanSocketOptions = {}) {
    super();
    const { hostname, port, pathname, search } = new URL(url);
    this.socket = net.connect({ host: hostname, port: Number(port), localAddress: options.localAddress });
    this.socket.setNoDelay(true);
    this.socket.once("connect", () => {
      this.socket.write(
        `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          (options.cookie ? `Cookie: ${options.cookie}\r\n` : "") +
          `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    this.socket.on("data", (chunk: Buffer) => (this.opened ? this.readFrames(chunk) : this.readHandshake(chunk)));
    this.socket.on("error", (error) => {
      if (!this.opened) this.emit("error", error);
    });
    this.socket.on("close", () => this.finish());
  }

  send(text: string): void {
    if (this.closed) return;
    this.writeFrame(OPCODE_TEXT, Buffer.from(text));
  }

  /** A close frame, then the end of the connection. */
  close(): void {
    if (this.closed) return;
    this.writeFrame(OPCODE_CLOSE, Buffer.from([0x03, 0xe8]));
    this.socket.end();
  }

  terminate(): void {
    this.socket.destroy();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.opened) this.emit("close");
    else this.emit("error", new Error("the connection closed before the WebSocket handshake finished"));
  }

  private readHandshake(chunk: Buffer): void {
    const received = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    const end = received.indexOf(HEADERS_END);
    if (end === -1) {
      this.pending = received;
      return;
    }
    this.pending = null;
    const statusLine = received.toString("latin1", 0, received.indexOf("\r\n"));
    if (!/^HTTP\/1\.1 101 /.test(statusLine)) {
      this.emit("error", new Error(`the server refused the WebSocket: ${statusLine}`));
      this.closed = true;
      this.socket.destroy();
      return;
    }
    this.opened = true;
    this.emit("open");
    const rest = received.subarray(end + HEADERS_END.length);
    if (rest.length > 0) this.readFrames(rest);
  }

  private readFrames(chunk: Buffer): void {
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    let offset = 0;
    while (!this.closed) {
      if (data.length - offset < 2) break;
      const first = data[offset];
      let length = data[offset + 1] & 0x7f;
      let header = 2;
      if (length === 126) {
        if (data.length - offset < 4) break;
        length = data.readUInt16BE(offset + 2);
        header = 4;
      } else if (length === 127) {
        if (data.length - offset < 10) break;
        length = Number(data.readBigUInt64BE(offset + 2));
        header = 10;
      }
      if (data.length - offset < header + length) break;
      const payload = data.subarray(offset + header, offset + header + length);
      offset += header + length;
      this.onFrame(first >> 7 === 1, first & 0x0f, payload);
    }
    if (offset < data.length && !this.closed) this.pending = data.subarray(offset);
  }

  private onFrame(final: boolean, opcode: number, payload: Buffer): void {
    switch (opcode) {
      case OPCODE_TEXT:
      case OPCODE_BINARY:
      case OPCODE_CONTINUATION:
        if (!final) {
          this.fragments.push(payload);
          return;
        }
        if (this.fragments.length > 0) {
          payload = Buffer.concat([...this.fragments, payload]);
          this.fragments = [];
        }
        this.emit("message", payload);
        return;
      case OPCODE_PING:
        this.writeFrame(0xa, payload);
        return;
      case OPCODE_CLOSE:
        this.close();
        return;
    }
  }

  /** A final, masked frame: the protocol requires a client to mask everything it sends. */
  private writeFrame(opcode: number, payload: Buffer): void {
    const header = payload.length < 126 ? 6 : payload.length < 65_536 ? 8 : 14;
    const frame = Buffer.allocUnsafe(header + payload.length);
    frame[0] = 0x80 | opcode;
    if (payload.length < 126) frame[1] = 0x80 | payload.length;
    else if (payload.length < 65_536) {
      frame[1] = 0x80 | 126;
      frame.writeUInt16BE(payload.length, 2);
    } else {
      frame[1] = 0x80 | 127;
      frame.writeBigUInt64BE(BigInt(payload.length), 2);
    }
    const mask = randomBytes(4);
    mask.copy(frame, header - 4);
    for (let index = 0; index < payload.length; index++) frame[header + index] = payload[index] ^ mask[index & 3];
    this.socket.write(frame);
  }
}

/** A LeanSocket once it is open; rejected when the connection fails first. */
export function openLeanSocket(url: string, options: LeanSocketOptions = {}): Promise<LeanSocket> {
  return new Promise((resolve, reject) => {
    const socket = new LeanSocket(url, options);
    socket.once("open", () => {
      socket.off("error", reject);
      resolve(socket);
    });
    socket.once("error", reject);
  });
}

/** A server frame's type from its first bytes (`{"type":"NAME"`), without decoding the rest. */
export function frameTypeOf(data: Buffer): string {
  const head = data.toString("latin1", 0, 40);
  return head.startsWith('{"type":"') ? head.slice(9, head.indexOf('"', 9)) : "";
}
