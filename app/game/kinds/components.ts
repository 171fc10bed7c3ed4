/**
 * The registry of the kinds' components (app/game/kinds/components-part.ts): the player's input, the
 * host's reveal and the editor's fields of each kind. Lists the same kinds as `index.ts`; a kind
 * without its part does not compile, and tests/unit/question-kind-registry.test.ts checks that each
 * part has every component. Browser code: the screens import it, no server module does.
 */
import { choiceUi } from "./choice/ui";
import { closestNumberUi } from "./closestNumber/ui";
import type { KindComponents } from "./components-part";
import type { QuestionKind } from "./index";
import { multiSelectUi } from "./multiSelect/ui";
import { pollUi } from "./poll/ui";
import { trueFalseUi } from "./trueFalse/ui";
import { typeAnswerUi } from "./typeAnswer/ui";

/** Each kind's components, by name: a kind without them does not compile. */
export const KIND_COMPONENTS: { readonly [Name in QuestionKind]: KindComponents } = {
  choice: choiceUi,
  trueFalse: trueFalseUi,
  multiSelect: multiSelectUi,
  typeAnswer: typeAnswerUi,
  closestNumber: closestNumberUi,
  poll: pollUi,
};

export function kindComponentsOf(name: QuestionKind): KindComponents {
  return KIND_COMPONENTS[name];
}

export type { EditorFieldsProps, HostRevealProps, KindComponents, PlayerInputProps } from "./components-part";
