import { encodeServerMessage, type ServerPayload } from "#app/game/protocol";

/**
 * A game's acknowledgements of option answers, encoded once per option of the question and shared
 * by every player who picked it. An acknowledgement waits for the commit of its answer, long enough
 * to outlive the young generation: 10,000 players' own copies were the largest source of garbage
 * in the old one during a question (issue 18, docs/decisions/0038-shared-acknowledgements.md).
 * Its text depends on nothing but the question's number and the option, so sharing it is exact.
 * The frame around it is built once as well (`textFrame` in server/ws.ts).
 */
export class SharedAcks {
  private questionNumber = 0;
  private byAnswerIndex: Buffer[] = [];

  /** The encoded ANSWER_ACCEPTED for everyone who picked this option; null for an answer of the player's own (picks, text, a number). */
  of(payload: ServerPayload<"ANSWER_ACCEPTED">): Buffer | null {
    const { answerIndex } = payload;
    if (answerIndex === undefined || payload.value !== undefined) return null;
    if (payload.questionNumber !== this.questionNumber) {
      this.questionNumber = payload.questionNumber;
      this.byAnswerIndex = [];
    }
    return (this.byAnswerIndex[answerIndex] ??= Buffer.from(encodeServerMessage("ANSWER_ACCEPTED", payload)));
  }
}
