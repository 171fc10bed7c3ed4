/**
 * WebSocket text frames written straight to a connection (issue 18,
 * docs/decisions/0039-heap-growth.md): a broadcast's frame is built once for all its sockets, a
 * socket's own message in one buffer.
 */

/** The last broadcast framed, and its frame: a broadcast is written to all its sockets one after another. */
let framedPayload: Buffer | null = null;
let lastFrame: Buffer = Buffer.alloc(0);
/** Frames of payloads written to sockets in turn rather than in a run: the acknowledgements one answer option shares (server/shared-acks.ts). */
const framesOf = new WeakMap<Buffer, Buffer>();

const headerLengthOf = (length: number) => (length < 126 ? 2 : length < 65_536 ? 4 : 10);

/** An unmasked, final text frame's header (RFC 6455, section 5.2: a server's frames are never masked). */
function writeTextHeader(frame: Buffer, length: number): void {
  frame[0] = 0x81; // FIN, text
  if (length < 126) frame[1] = length;
  else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
}

/**
 * `payload` as one WebSocket text frame, built once for every socket it is written to, rather than
 * a header, an options object and two writes per socket.
 */
export function textFrame(payload: Buffer): Buffer {
  if (payload === framedPayload) return lastFrame;
  let frame = framesOf.get(payload);
  if (!frame) {
    const length = payload.length;
    const headerLength = headerLengthOf(length);
    frame = Buffer.allocUnsafe(headerLength + length);
    writeTextHeader(frame, length);
    payload.copy(frame, headerLength);
    framesOf.set(payload, frame);
  }
  framedPayload = payload;
  lastFrame = frame;
  return frame;
}

/**
 * A message of one socket as one text frame: one buffer and one write, where `ws` would make a
 * buffer of the text, a header and an options object and write twice (issue 18,
 * docs/decisions/0039-heap-growth.md).
 */
export function ownTextFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const headerLength = headerLengthOf(length);
  const frame = Buffer.allocUnsafe(headerLength + length);
  writeTextHeader(frame, length);
  frame.write(text, headerLength);
  return frame;
}
