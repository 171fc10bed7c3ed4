/**
 * A kind's components (docs/adding-a-question-kind.md): what a player answers with, what the host's
 * screen and the projector show of it, and its fields in the quiz editor. Kinds that answer, reveal
 * or are edited the same way share one component from app/components/, which each kind's `ui.tsx`
 * names; the registry of these parts is `components.ts`. Browser code: no zod, nothing server-only.
 */
import type { ComponentType } from "react";
import type { SubmittedAnswer } from "../client/game-provider";
import type { ClientGameState } from "../client/game-state";
import type { PublicQuestion } from "../protocol-views";
import type { QuestionDraft } from "./schema-part";

/** What a player's input is given (app/components/answer-inputs.tsx). */
export interface PlayerInputProps {
  question: PublicQuestion;
  /** The question is closed, or this player's answer is on its way or in. */
  disabled: boolean;
  selectedAnswerIndex: number | null;
  submitted: unknown;
  onAnswer(answer: SubmittedAnswer): void;
}

/** What the host's and the projector's reveal is given (app/components/question-stage.tsx); a display has no `onAccept`. */
export interface HostRevealProps {
  state: ClientGameState;
  /** The host accepts a typed answer marked wrong. */
  onAccept?: (text: string) => void;
}

/** What a kind's fields in the quiz editor are given (app/components/question-editor.tsx). */
export interface EditorFieldsProps {
  index: number;
  question: QuestionDraft;
  errors: Record<string, string>;
  onChange(change: Partial<QuestionDraft>): void;
}

export interface KindComponents {
  /** What a player answers with. */
  readonly PlayerInput: ComponentType<PlayerInputProps>;
  /** What the reveal adds under the options on the host's screen and the projector (nothing, for most kinds). */
  readonly HostReveal: ComponentType<HostRevealProps>;
  /** While the question is open, what the host's screen says in place of options (a `game` catalog key), for a kind whose players see none. */
  readonly howToAnswer: string | null;
  /** Its fields in the quiz editor, under the question's text. */
  readonly EditorFields: ComponentType<EditorFieldsProps>;
  /** Its EditorFields go under the options the author writes (the editor's shared options), rather than on their own. */
  readonly editsOptions: boolean;
}
