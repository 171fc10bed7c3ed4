/**
 * The registry of the kinds' schema parts (app/game/kinds/schema-part.ts): with zod, for the shared
 * question schema, the quiz file, the AI's reply and the editor. Lists the same kinds as `index.ts`;
 * tests/unit/question-kind-registry.test.ts checks that both list every kind.
 */
import { choiceSchema } from "./choice/schema";
import { closestNumberSchema } from "./closestNumber/schema";
import type { QuestionKind } from "./index";
import { multiSelectSchema } from "./multiSelect/schema";
import { pollSchema } from "./poll/schema";
import type { KindSchemaPart } from "./schema-part";
import { trueFalseSchema } from "./trueFalse/schema";
import { typeAnswerSchema } from "./typeAnswer/schema";

/** Each kind's part, by name: a kind without one does not compile. */
export const KIND_SCHEMAS: { readonly [Name in QuestionKind]: KindSchemaPart<Name> } = {
  choice: choiceSchema,
  trueFalse: trueFalseSchema,
  multiSelect: multiSelectSchema,
  typeAnswer: typeAnswerSchema,
  closestNumber: closestNumberSchema,
  poll: pollSchema,
};

export function kindSchemaOf(name: QuestionKind): KindSchemaPart {
  return KIND_SCHEMAS[name] as KindSchemaPart;
}
