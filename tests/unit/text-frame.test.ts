/**
 * Every message is framed by the server itself and written straight to its connection
 * (server/socket/frames.ts): `ws`'s own receiver reads those frames as the text messages they carry, at every
 * length's header form.
 */
import { describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import * as ws from "ws";

/** ws's frame reader, which its types leave out. */
const Receiver = (ws as unknown as { Receiver: new (options: { isServer: boolean }) => Writable }).Receiver;
import { ownTextFrame, textFrame } from "#server/socket/frames";

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

  it("frames a payload written in turn with others once, as the acknowledgements of one option are", () => {
    const optionA = Buffer.from('{"type":"ANSWER_ACCEPTED","payload":{"questionNumber":1,"answerIndex":0}}');
    const optionB = Buffer.from('{"type":"ANSWER_ACCEPTED","payload":{"questionNumber":1,"answerIndex":1}}');
    const firstA = textFrame(optionA);
    const firstB = textFrame(optionB);
    expect(textFrame(optionA)).toBe(firstA);
    expect(textFrame(optionB)).toBe(firstB);
  });
});

describe("ownTextFrame", () => {
  it("makes frames ws reads back as the same texts, whatever their length and characters", async () => {
    const texts = [0, 1, 125, 126, 65_535, 65_536, 70_000].map((length) => "é".repeat(Math.floor(length / 2)) + "x".repeat(length % 2));
    texts.push('{"type":"ANSWER_RESULTS","payload":{"nickname":"Zoë 🦊"}}');
    expect(await received(texts.map((text) => ownTextFrame(text)))).toEqual(texts);
  });

  it("counts the header's length in bytes, not characters", () => {
    // 63 two-byte characters: 126 bytes, so the 16-bit length form, though the text has 63 characters.
    const frame = ownTextFrame("é".repeat(63));
    expect(frame[1]).toBe(126);
    expect(frame.readUInt16BE(2)).toBe(126);
    expect(frame.length).toBe(4 + 126);
  });
});
