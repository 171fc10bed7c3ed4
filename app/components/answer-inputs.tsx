/**
 * What a player answers with: the way its kind answers (app/game/kinds/components.ts), one of the
 * shared ways in app/components/player-inputs.tsx or the kind's own.
 */
import { kindComponentsOf, type PlayerInputProps } from "#app/game/kinds/components";

export { QUESTION_TEXT_ID } from "./player-inputs";

export function AnswerInput(props: PlayerInputProps) {
  const { PlayerInput } = kindComponentsOf(props.question.kind);
  return <PlayerInput {...props} />;
}
