/**
 * What a question kind is made of (docs/adding-a-question-kind.md, docs/decisions/0045). This is
 * the part every side shares: plain data and pure functions, without zod and without React, so a
 * player's phone takes it whole. The other parts of a kind are typed next to their registries:
 * its input schema and AI schema (`schemas.ts`), its components (`components-part.ts`, registered in `components.ts`), its spreadsheet
 * columns (`spreadsheet.server.ts`). A kind missing any part does not compile.
 */
import type { AnswerValue, EngineQuestion, GameState } from "../engine/state";
import type { QuestionContent } from "../question-kinds";

/** What a player sent for a question: one of these, as the kind reads it. */
export interface AnswerSent {
  answerIndex?: number;
  answerIndexes?: number[];
  text?: string;
  number?: number;
}

/** A player's answer as its kind reads it: an option, or -1 with the value (picks, text, number). */
export interface ReadAnswer {
  answerIndex: number;
  value: AnswerValue;
  /** A typed answer as compared (docs/decisions/0018-question-kinds.md). */
  key?: string;
}

/**
 * Why an answer is refused: BAD_ANSWER, not one of the options (any kind with options may say it;
 * the engine words it by their count), or one of the kind's own `refusals`.
 */
export type AnswerRefusal<Refusal extends string = string> = "BAD_ANSWER" | Refusal;

/**
 * How a kind's right answer is held, which decides the columns it is stored in and the fields of
 * the reveal: one option, a list of options, accepted texts, a number, or none (a poll).
 */
export type RightAnswerShape = "oneIndex" | "indexList" | "acceptedTexts" | "number" | "none";

/** The reveal's fields about the right answer (ANSWER_RESULTS in app/game/protocol.ts). */
export interface KindReveal {
  correctAnswerIndex: number;
  correctAnswerIndexes: number[];
  acceptedAnswers: string[];
  correctNumber: number | null;
}

/** The part of a kind every side shares; `Refusal`: the codes of its own reasons to refuse an answer. */
export interface QuestionKindDefinition<Name extends string = string, Refusal extends string = string> {
  readonly name: Name;
  /** In English, as the editor's list, the spreadsheet's help and the AI's prompt name it. */
  readonly label: string;
  /** Players pick among options shown to them, counted per option; otherwise they type or guess. */
  readonly hasOptions: boolean;
  /** One tap answers, without a submit button. */
  readonly pickOne: boolean;
  /** Has a right answer and points (a poll has neither). */
  readonly scored: boolean;
  /** Neither builds nor breaks a streak. */
  readonly keepsStreak: boolean;
  /** Answers are texts grouped as compared; the host may accept one marked wrong, and reads them longer. */
  readonly typed: boolean;
  /** Scored against the room when the question closes, not answer by answer; the reveal shows the spread. */
  readonly scoredAtClose: boolean;
  /** Counted among a report's hardest and easiest questions (an exact guess is luck). */
  readonly rated: boolean;
  readonly rightAnswer: RightAnswerShape;
  /** What a player's answer is: one option, several, a text or a number (how answers are stored and tallied; its input is its component's, `components.ts`). */
  readonly answer: "option" | "options" | "text" | "number";
  /** Reads what a player sent, or why it is no answer to this question. */
  readAnswer(question: EngineQuestion, sent: AnswerSent): ReadAnswer | { refused: AnswerRefusal<Refusal> };
  /**
   * Its own reasons to refuse an answer, each a key of the `errors` catalogs with its English, which
   * the socket's ERROR carries (the catalogs translate it; tests/unit/question-kind-registry.test.ts
   * holds every language to them). The engine words a refusal from here, so a new reason is the kind's alone.
   */
  readonly refusals: Readonly<Record<Refusal, string>>;
  /** The right answer as a player sends it (the bench's players and the tests answer with it); a poll's is its first option. */
  rightAnswerSent(question: EngineQuestion): AnswerSent;
  /** How right an answer is, 0 to 1 (a scoredAtClose kind's points wait for the question to close). */
  judge(state: GameState, question: EngineQuestion, read: ReadAnswer): number;
  /** The right answer in words, for the report's page and files. */
  correctAnswerText(question: QuestionContent): string;
}
