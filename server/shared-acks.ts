import { encodeServerMessage, type ServerPayload } from "#app/game/protocol";

/**
 * A game's acknowledgements of option answers, encoded once per option of the question and shared
 * by every player who picked it, instead of a string per player waiting for its answer's commit
 * (issue 18, docs/decisions/0039-heap-growth.md). Its text depends on nothing but the question's
 * number and the option, so sharing it is exact. The frame around it is built once as well
 * (`textFrame` in server/socket/frames.ts).
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
