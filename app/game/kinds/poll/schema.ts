/** A poll in the shared schemas: its options only; it never scores, so its points are always none. */
import { MAX_OPTIONS, MIN_OPTIONS } from "../../question-kinds";
import { OptionsSchema } from "../../question-fields";
import { poll } from "./kind";
import type { KindSchemaPart } from "../schema-part";
import { AI_OPTIONS, checkDraftOptions, draftOptions, FILE_OPTIONS } from "../shared-schema";

export const pollSchema: KindSchemaPart<"poll"> = {
  name: "poll",
  inputFields: { answers: OptionsSchema },
  toContent: (question, base) => ({ ...base, answers: question.answers as string[], points: "none" }),
  file: {
    fields: { answers: FILE_OPTIONS },
    description: "Poll: no right answer and no points; the reveal shows how the room voted.",
  },
  // A poll never scores: its points would only be noise in the file.
  toFile: (question, { text, timeLimit, image }) => ({ kind: "poll", text, answers: question.answers, timeLimit, image }),
  ai: {
    guide: `- kind "poll" (${poll.label}): an opinion question about the topic with ${AI_OPTIONS} options in answers and no right answer (it scores no points), e.g. "Which of these would you most like to visit?". correctAnswerIndexes [], acceptedAnswers [], correctNumber null.`,
    bounds: { answers: [MIN_OPTIONS, MAX_OPTIONS], correct: [0, 0], accepted: [0, 0] },
    // Its options may be a scale.
    shuffles: false,
    fromModel: (raw) => ({ kind: "poll", text: raw.text, answers: raw.answers }),
  },
  editor: {
    draftOf: (question, empty) => ({ answers: draftOptions(question.answers, empty) }),
    inputOf: (draft) => ({ answers: draft.answers }),
    check: checkDraftOptions,
  },
};
