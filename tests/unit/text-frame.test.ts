/**
 * A broadcast is framed once and written straight to each connection (server/ws.ts): `ws`'s own
 * receiver reads those frames as the text messages they carry, at every length's header form.
 */
import { describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import * as ws from "ws";

/** ws's frame reader, which its types leave out. */
const Receiver = (ws as unknown as { Receiver: new (options: { isServer: boolean }) => Writable }).Receiver;
import { textFrame } from "#server/ws";

function received(frames: Buffer[]): Promise<string[]> {
  const messages: string[] = [];
  const receiver = new Receiver({ isServer: false });
  return new Promise((resolve, reject) => {
    receiver.on("message", (data: Buffer, isBinary: boolean) => {
      expect(isBinary).toBe(false);
      messages.push(data.toString());
      if (messages.length === frames.length) resolve(messages);
    });
    receiver.on("error", reject);
    receiver.write(Buffer.concat(frames));
  });
}

describe("textFrame", () => {
  it("makes frames ws reads back as the same texts, whatever their length", async () => {
    const texts = [0, 1, 125, 126, 65_535, 65_536, 70_000].map((length) => "é".repeat(Math.floor(length / 2)) + "x".repeat(length % 2));
    const payloads = texts.map((text) => Buffer.from(text));
    expect(await received(payloads.map((payload) => textFrame(payload)))).toEqual(texts);
  });

  it("frames a broadcast once for all its sockets, and a new one anew", () => {
    const broadcast = Buffer.from('{"type":"QUESTION_STARTED"}');
    const first = textFrame(broadcast);
    expect(textFrame(broadcast)).toBe(first);
    const next = Buffer.from('{"type":"ANSWER_RESULTS"}');
    expect(textFrame(next)).not.toBe(first);
    expect(textFrame(next).subarray(2).toString()).toBe('{"type":"ANSWER_RESULTS"}');
  });
});
