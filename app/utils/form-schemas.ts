/**
 * The schemas of the create-quiz, host and join forms, read by each route's action and by its
 * component before submitting, built from the shared field rules with the spec's messages
 * (sections 5 and 8).
 */
import { z } from "zod";
import {
  ANSWER_COUNT,
  CREATE_TIME_LIMIT_OPTIONS,
  DEFAULT_TIME_LIMIT_SECONDS,
  HOST_NAME_MAX_LENGTH,
  HOST_NAME_MIN_LENGTH,
} from "#app/game/rules";
import {
  AnswerIndexSchema,
  AnswersSchema,
  AnswerTextSchema,
  GameCodeSchema,
  IdSchema,
  NewNicknameSchema,
  normalizeGameCode,
  QuestionTextSchema,
  QuizDescriptionSchema,
  QuizTitleSchema,
} from "./validation";

/** A toast's title and description, as the spec pairs them. */
export interface ToastMessage {
  title: string;
  description: string;
}

export const CANNOT_REMOVE_QUESTION: ToastMessage = {
  title: "Cannot remove question",
  description: "A quiz must have at least one question.",
};
export const CREATE_QUIZ_FAILED: ToastMessage = {
  title: "Failed to create quiz",
  description: "There was an error creating your quiz. Please try again.",
};
export const QUIZZES_LOAD_FAILED: ToastMessage = {
  title: "Error",
  description: "Could not load available quizzes. Please try again.",
};
export const HOST_CONNECTION_FAILED = "Failed to connect to the game server. Please try again.";
export const GAME_NOT_FOUND = "Game not found. Check the code and try again.";
export const GAME_ALREADY_HOSTED = "This game already has a host.";
export const GAME_NOT_YOURS = "Only the browser or account that created this game can host it.";
export const QUIZ_NOT_FOUND = "Quiz not found.";
export const QUIZ_NOT_HOSTABLE = "This quiz is private. Only its creator can host it.";

// ------------------------------------------------------------------------------ create quiz

/** Far more than a quiz night needs; it bounds what one form post can store. */
export const MAX_QUESTIONS = 100;
export const tooManyQuestionsMessage = (max: number) => `A quiz can have at most ${max} questions.`;

export const emptyQuestionMessage = (n: number) => `Question ${n} is empty.`;
export const emptyAnswerMessage = (n: number) => `Question ${n} has an empty answer option.`;

/** The create form as typed, before validation: what the page edits and what a failed post gives back. */
export interface QuestionDraft {
  text: string;
  answers: string[];
  correctAnswerIndex: number;
}
export interface CreateQuizDraft {
  title: string;
  description: string;
  timeLimit: number;
  visibility: string;
  questions: QuestionDraft[];
}

export function emptyQuestionDraft(): QuestionDraft {
  return { text: "", answers: Array.from({ length: ANSWER_COUNT }, () => ""), correctAnswerIndex: 0 };
}

/** Spec section 5: a new quiz starts with 1 question of 4 answers. */
export function emptyCreateQuizDraft(): CreateQuizDraft {
  return {
    title: "",
    description: "",
    timeLimit: DEFAULT_TIME_LIMIT_SECONDS,
    visibility: "private",
    questions: [emptyQuestionDraft()],
  };
}

/**
 * The question number belongs in the messages, so each question gets its own schema; the
 * emptiness check runs first and the shared rule (length limits) after it.
 */
function questionSchema(n: number) {
  const emptyQuestion = emptyQuestionMessage(n);
  const emptyAnswer = emptyAnswerMessage(n);
  const answer = z.string({ error: emptyAnswer }).trim().min(1, emptyAnswer).pipe(AnswerTextSchema);
  return z.object({
    text: z.string({ error: emptyQuestion }).trim().min(1, emptyQuestion).pipe(QuestionTextSchema),
    answers: z.array(answer, { error: emptyAnswer }).pipe(AnswersSchema),
    correctAnswerIndex: AnswerIndexSchema,
  });
}

const QuestionsSchema = z
  .array(z.unknown(), { error: CANNOT_REMOVE_QUESTION.description })
  .min(1, CANNOT_REMOVE_QUESTION.description)
  .max(MAX_QUESTIONS, tooManyQuestionsMessage(MAX_QUESTIONS))
  .transform((items, ctx) =>
    items.map((item, index) => {
      const result = questionSchema(index + 1).safeParse(item);
      if (result.success) return result.data;
      for (const issue of result.error.issues) {
        ctx.addIssue({ code: "custom", message: issue.message, path: [index, ...issue.path], input: item });
      }
      return z.NEVER;
    }),
  );

export const CreateQuizFormSchema = z.object({
  title: QuizTitleSchema,
  description: QuizDescriptionSchema.default(""),
  timeLimit: z
    .literal(CREATE_TIME_LIMIT_OPTIONS, { error: `Choose a time limit of ${CREATE_TIME_LIMIT_OPTIONS.join(", ")} seconds.` })
    .default(DEFAULT_TIME_LIMIT_SECONDS),
  visibility: z.enum(["private", "public"], { error: "Choose private or public." }).default("private"),
  questions: QuestionsSchema,
});
export type CreateQuizForm = z.output<typeof CreateQuizFormSchema>;

const QUESTION_FIELD = /^questions\[(\d+)\]\.(?:(text)|(correctAnswerIndex)|answers\[(\d+)\])$/;

/**
 * Reads the create form's fields (`title`, `questions[0].text`, `questions[0].answers[2]`,
 * `questions[0].correctAnswerIndex`, ...) into a draft, questions in index order.
 */
export function parseCreateQuizForm(formData: FormData): CreateQuizDraft {
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : "";
  };
  const questions = new Map<number, QuestionDraft>();
  for (const [name, value] of formData) {
    const match = QUESTION_FIELD.exec(name);
    if (!match || typeof value !== "string") continue;
    const index = Number(match[1]);
    let question = questions.get(index);
    if (!question) questions.set(index, (question = emptyQuestionDraft()));
    if (match[2]) question.text = value;
    else if (match[3]) question.correctAnswerIndex = Number(value);
    else if (Number(match[4]) < ANSWER_COUNT) question.answers[Number(match[4])] = value;
  }
  const timeLimit = formData.get("timeLimit");
  return {
    title: text("title"),
    description: text("description"),
    timeLimit: typeof timeLimit === "string" ? Number(timeLimit) : DEFAULT_TIME_LIMIT_SECONDS,
    visibility: text("visibility") || "private",
    questions: [...questions.entries()].sort(([a], [b]) => a - b).map(([, question]) => question),
  };
}

/** Spec section 5: the toast for the first thing wrong with a quiz about to be saved. */
export function createQuizErrorToast(error: z.ZodError): ToastMessage {
  const issue = error.issues[0];
  const [field, index] = issue.path;
  if (field === "title" && (issue.code === "too_small" || issue.code === "invalid_type")) {
    return { title: "Missing title", description: issue.message };
  }
  if (field === "questions" && typeof index === "number") {
    if (issue.message === emptyQuestionMessage(index + 1)) return { title: "Empty question", description: issue.message };
    if (issue.message === emptyAnswerMessage(index + 1)) return { title: "Empty answer", description: issue.message };
  }
  return { title: "Check your quiz", description: issue.message };
}

// ------------------------------------------------------------------------------------ ids

/** A record's id as a form sends it (a hidden field or a button's value): digits, as text. */
export const FormIdSchema = z.preprocess((value) => (typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value), IdSchema);

// ------------------------------------------------------------------------------------ host

export const HOST_NAME_MESSAGE = `Host name must be between ${HOST_NAME_MIN_LENGTH}-${HOST_NAME_MAX_LENGTH} characters`;

export const HostNameSchema = z
  .string({ error: HOST_NAME_MESSAGE })
  .trim()
  .min(HOST_NAME_MIN_LENGTH, HOST_NAME_MESSAGE)
  .max(HOST_NAME_MAX_LENGTH, HOST_NAME_MESSAGE);

/** An unchosen quiz arrives from a form as an empty string or not at all. */
const ChosenQuizIdSchema = z.preprocess(
  (value) => (value === "" || value === null || value === undefined ? undefined : Number(value)),
  IdSchema.optional(),
);

export type HostChoice = { hostName: string } & ({ quizId: number; gameCode?: undefined } | { gameCode: string; quizId?: undefined });

/** A chosen quiz starts a new game of it; otherwise the code names an existing game to host. */
export const HostFormSchema = z
  .object({
    quizCode: z.string().default(""),
    quizId: ChosenQuizIdSchema,
    hostName: HostNameSchema,
  })
  .superRefine((form, ctx) => {
    if (form.quizId !== undefined) return;
    const code = GameCodeSchema.safeParse(form.quizCode);
    if (!code.success) ctx.addIssue({ code: "custom", message: code.error.issues[0].message, path: ["quizCode"] });
  })
  .transform(
    ({ quizCode, quizId, hostName }): HostChoice =>
      quizId !== undefined ? { hostName, quizId } : { hostName, gameCode: GameCodeSchema.parse(quizCode) },
  );

// ------------------------------------------------------------------------------------ join

export const JoinFormSchema = z.object({
  /** Spec section 5: upper-cased, stripped to A-Z and 0-9 and cut to 6, the same as while typing. */
  gameCode: z.preprocess((value) => (typeof value === "string" ? normalizeGameCode(value) : value), GameCodeSchema),
  nickname: NewNicknameSchema,
});
export type JoinForm = z.output<typeof JoinFormSchema>;

/** Field name to its first message, for showing beside each field. */
export function firstErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_form";
    errors[key] ??= issue.message;
  }
  return errors;
}
