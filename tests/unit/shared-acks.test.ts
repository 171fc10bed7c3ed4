/**
 * The acknowledgement of an option answer is encoded once per option and question and shared by
 * every player who picked it (server/shared-acks.ts); an answer of the player's own is not shared.
 */
import { describe, expect, it } from "vitest";
import { ServerMessageSchema, encodeServerMessage } from "#app/game/protocol";
import { SharedAcks } from "#server/shared-acks";

describe("SharedAcks", () => {
  it("gives every player who picked an option the same encoding, which says what each was told before", () => {
    const acks = new SharedAcks();
    const first = acks.of({ questionNumber: 1, answerIndex: 2 });
    expect(first).not.toBeNull();
    expect(acks.of({ questionNumber: 1, answerIndex: 2 })).toBe(first);
    expect(first!.toString()).toBe(encodeServerMessage("ANSWER_ACCEPTED", { questionNumber: 1, answerIndex: 2 }));
  });

  it("encodes each option and each question apart", () => {
    const acks = new SharedAcks();
    const optionA = acks.of({ questionNumber: 1, answerIndex: 0 });
    const optionB = acks.of({ questionNumber: 1, answerIndex: 1 });
    expect(optionB).not.toBe(optionA);
    expect(optionB!.toString()).toContain('"answerIndex":1');
    const nextQuestion = acks.of({ questionNumber: 2, answerIndex: 0 });
    expect(nextQuestion).not.toBe(optionA);
    expect(nextQuestion!.toString()).toBe(encodeServerMessage("ANSWER_ACCEPTED", { questionNumber: 2, answerIndex: 0 }));
    // A game played again starts at question 1: its encoding is the same text again.
    expect(acks.of({ questionNumber: 1, answerIndex: 0 })!.toString()).toBe(optionA!.toString());
  });

  it("does not share an answer of the player's own: picks, a text, a number", () => {
    const acks = new SharedAcks();
    expect(acks.of({ questionNumber: 1, value: [0, 2] })).toBeNull();
    expect(acks.of({ questionNumber: 1, value: "Paris" })).toBeNull();
    expect(acks.of({ questionNumber: 1, value: 1969 })).toBeNull();
  });

  it("encodes a message the protocol reads back", () => {
    const encoded = new SharedAcks().of({ questionNumber: 3, answerIndex: 1 })!;
    expect(ServerMessageSchema.parse(JSON.parse(encoded.toString()))).toEqual({ type: "ANSWER_ACCEPTED", payload: { questionNumber: 3, answerIndex: 1 } });
  });
});
