/**
 * The quiz editor's form (`/create`, and `/create?edit=ID`): what the page edits (a draft, as
 * typed), the schema that reads a posted form into a quiz (through the one form helper, conform),
 * and the messages of docs/product.md#validation. A question's rules are those of every other way in:
 * `QuestionInputSchema` in app/game/question-input.ts.
 */
import { z } from "zod";
import { CREATE_TIME_LIMIT_OPTIONS, DEFAULT_TIME_LIMIT_SECONDS } from "#app/game/rules";
import { MAX_OPTIONS, MIN_OPTIONS, type QuestionContent, type QuestionKind } from "#app/game/question-kinds";
import { DEFAULT_KIND, isQuestionKind } from "#app/game/kinds";
import { kindSchemaOf } from "#app/game/kinds/schemas";
import type { QuestionDraft } from "#app/game/kinds/schema-part";
import { QuestionInputSchema } from "#app/game/question-input";
import { CANNOT_REMOVE_QUESTION, MAX_QUESTIONS, toastOf, type ToastMessage } from "./form-schemas";
import { QuizDescriptionSchema, QuizTitleSchema } from "./validation";
import { coded, englishOf, issueError } from "#app/i18n/coded";
import { appError, type AppError } from "#app/i18n/app-error";

export { CREATE_QUIZ_FAILED, type ToastMessage } from "./form-schemas";

/** Time limits a question may pick in the editor; "" takes the quiz's. */
export const QUESTION_TIME_LIMIT_OPTIONS = [5, 10, 20, 30, 45, 60, 90, 120, 180, 240] as const;

/** One question as the editor holds it: every kind's fields, as typed, so switching kinds loses nothing. */
export type { QuestionDraft };

export interface QuizDraft {
  title: string;
  description: string;
  timeLimit: number;
  visibility: string;
  questions: QuestionDraft[];
}

export function emptyQuestionDraft(kind: QuestionKind = DEFAULT_KIND): QuestionDraft {
  return {
    kind,
    text: "",
    answers: ["", "", "", ""],
    correctAnswerIndex: 0,
    correctAnswerIndexes: [],
    trueFalse: 0,
    acceptedAnswers: "",
    correctNumber: "",
    timeLimit: "",
    points: "standard",
    imageId: "",
  };
}

/** docs/product.md#validation: a new quiz starts with 1 question of 4 answers. */
export function emptyQuizDraft(): QuizDraft {
  return { title: "", description: "", timeLimit: DEFAULT_TIME_LIMIT_SECONDS, visibility: "private", questions: [emptyQuestionDraft()] };
}

/** A stored question as the editor shows it: the fields every kind has, then its kind's (app/game/kinds/<kind>/schema.ts). */
export function questionDraftOf(question: QuestionContent): QuestionDraft {
  const empty = emptyQuestionDraft(question.kind);
  return {
    ...empty,
    text: question.text,
    acceptedAnswers: question.acceptedAnswers.join("\n"),
    correctNumber: question.correctNumber === null ? "" : String(question.correctNumber),
    timeLimit: question.timeLimit === null ? "" : String(question.timeLimit),
    points: question.points,
    imageId: question.imageId ?? "",
    ...kindSchemaOf(question.kind).editor.draftOf(question, empty),
  };
}

// ------------------------------------------------------------------------------ reading a post

/** A form field as conform reads it: text, a list of texts (checkboxes), or absent. */
const text = z.preprocess((value) => (Array.isArray(value) ? value[0] : value), z.string().optional()).transform((value) => value ?? "");
/**
 * A form's list, at most `max` long: what is past it is left out before zod walks it (the form's
 * reader has refused an index past the route's largest already: request-body.server.ts).
 */
const list = <T extends z.ZodType>(max: number, item: T) =>
  z.preprocess(
    // A hole (`answers[3]` posted without `answers[2]`) reads as an empty field.
    (value) => (value === undefined || value === "" ? [] : Array.isArray(value) ? Array.from(value.slice(0, max), (entry: unknown) => entry ?? "") : [value]),
    z.array(item).max(max),
  );
/** Options and ticked options: one past the most a question has, so a rule can say there are too many. */
const texts = list(MAX_OPTIONS + 1, z.string());
const whole = (raw: string, fallback: number) => (/^-?\d+$/.test(raw.trim()) ? Number(raw) : fallback);

/** The fields of one posted question, as typed, into a draft (no rules yet). */
const PostedQuestionSchema = z
  .object({
    kind: text,
    text,
    answers: texts,
    correctAnswerIndex: text,
    correctAnswerIndexes: texts,
    trueFalse: text,
    acceptedAnswers: text,
    correctNumber: text,
    timeLimit: text,
    points: text,
    imageId: text,
  })
  .transform((posted): QuestionDraft => ({
    kind: isQuestionKind(posted.kind) ? posted.kind : DEFAULT_KIND,
    text: posted.text,
    answers: posted.answers.slice(0, MAX_OPTIONS),
    correctAnswerIndex: whole(posted.correctAnswerIndex, -1),
    correctAnswerIndexes: posted.correctAnswerIndexes.map((raw) => whole(raw, -1)),
    trueFalse: whole(posted.trueFalse, 0),
    acceptedAnswers: posted.acceptedAnswers,
    correctNumber: posted.correctNumber,
    timeLimit: posted.timeLimit,
    points: posted.points || "standard",
    imageId: posted.imageId,
  }));

/**
 * The whole posted form into a draft (what the page shows again after a refusal) and the button
 * that sent it (`intent`: "save", or one of the editor's steps).
 */
export const PostedQuizSchema = z
  .object({
    intent: text,
    title: text,
    description: text,
    timeLimit: text,
    visibility: text,
    // One past the most a quiz has, for "A quiz can have at most 100 questions."
    questions: z.preprocess((value) => (Array.isArray(value) ? value.slice(0, MAX_QUESTIONS + 1) : []), z.array(z.unknown()).max(MAX_QUESTIONS + 1)),
  })
  .transform((posted): { intent: string; draft: QuizDraft } => ({
    intent: posted.intent || "save",
    draft: {
      title: posted.title,
      description: posted.description,
      timeLimit: whole(posted.timeLimit, DEFAULT_TIME_LIMIT_SECONDS),
      visibility: posted.visibility || "private",
      // Conform leaves a list's holes (a question whose every field was empty) undefined.
      // A question whose fields are not a form's (a hand-made post) starts afresh rather than fail the post.
      questions: posted.questions.map((question) => PostedQuestionSchema.safeParse(question ?? {}).data ?? emptyQuestionDraft()),
    },
  }));

/** A draft question in the shape the shared question schema reads. */
function questionInputOf(draft: QuestionDraft): Record<string, unknown> {
  const common = {
    kind: draft.kind,
    text: draft.text,
    timeLimit: draft.timeLimit === "" ? null : Number(draft.timeLimit),
    points: draft.points,
    imageId: draft.imageId === "" ? null : draft.imageId,
  };
  return { ...common, ...kindSchemaOf(draft.kind).editor.inputOf(draft) };
}

/** The draft's fields a shared rule's message can be about; anything else is shown on the question's text. */
const DRAFT_FIELDS = new Set([
  "answers",
  "correctAnswerIndex",
  "correctAnswerIndexes",
  "acceptedAnswers",
  "correctNumber",
  "timeLimit",
  "points",
  "imageId",
  "text",
  "kind",
]);

/**
 * What is wrong with a draft, by field path: each first message in English (`errors`), and the code
 * and values it was raised with (`codes`), which the page says it by (docs/decisions/0047-errors-as-codes.md).
 */
export interface DraftProblems {
  errors: Record<string, string>;
  codes: Record<string, AppError>;
}

/** A field's message raised with its code, unless the field has one already. */
function raise(problems: DraftProblems, name: string, error: AppError): void {
  if (problems.errors[name] !== undefined) return;
  problems.errors[name] = englishOf(error);
  problems.codes[name] = error;
}

/** A zod issue's message on a field, with its code when its rule gave one, unless the field has one already. */
function raiseIssue(problems: DraftProblems, name: string, issue: { message: string }): void {
  if (problems.errors[name] !== undefined) return;
  problems.errors[name] = issue.message;
  const error = issueError(issue);
  if (error) problems.codes[name] = error;
}

/**
 * One draft question through the shared rules, with the editor's messages (docs/product.md#validation): "Question N
 * is empty." and "Question N has an empty answer option." first, then the shared rule's message on
 * the field it is about (`answers.2`, `correctNumber`, ...).
 */
export function checkQuestionDraft(draft: QuestionDraft, n: number): { ok: true; value: QuestionContent } | ({ ok: false } & DraftProblems) {
  const own: Record<string, AppError> = {};
  if (draft.text.trim() === "") own.text = appError("QUESTION_EMPTY", { n });
  kindSchemaOf(draft.kind).editor.check(draft, n, own);
  const problems: DraftProblems = { errors: {}, codes: {} };
  for (const [name, error] of Object.entries(own)) raise(problems, name, error);
  const result = QuestionInputSchema.safeParse(questionInputOf(draft));
  if (!result.success) {
    for (const issue of result.error.issues) {
      const [field, index] = issue.path;
      const key = DRAFT_FIELDS.has(String(field)) ? String(field) : "text";
      raiseIssue(problems, typeof index === "number" && key === "answers" ? `answers.${index}` : key, issue);
    }
  }
  if (Object.keys(problems.errors).length > 0 || !result.success) return { ok: false, ...problems };
  return { ok: true, value: result.data };
}

export interface QuizForm {
  title: string;
  description: string;
  timeLimit: number;
  isPublic: boolean;
  questions: QuestionContent[];
}

const QuizDetailsSchema = z.object({
  title: QuizTitleSchema,
  description: QuizDescriptionSchema.default(""),
  timeLimit: z
    .literal(CREATE_TIME_LIMIT_OPTIONS, coded("QUIZ_TIME_LIMIT_CHOICES", { choices: CREATE_TIME_LIMIT_OPTIONS.join(", ") }))
    .default(DEFAULT_TIME_LIMIT_SECONDS),
  visibility: z.enum(["private", "public"], coded("QUIZ_VISIBILITY_CHOICE")).default("private"),
});

/**
 * The draft checked as a whole: a field path (`title`, `questions.0.answers.2`) to its first
 * message, in the order the page shows the fields, or the quiz to store. `allowedTimeLimit` lets an
 * edit keep a quiz time limit the select does not offer (one made through the API).
 */
export function checkQuizDraft(draft: QuizDraft, allowedTimeLimit?: number): { ok: true; value: QuizForm } | ({ ok: false } & DraftProblems) {
  const problems: DraftProblems = { errors: {}, codes: {} };
  const details = QuizDetailsSchema.safeParse({
    ...draft,
    timeLimit: allowedTimeLimit !== undefined && draft.timeLimit === allowedTimeLimit ? DEFAULT_TIME_LIMIT_SECONDS : draft.timeLimit,
  });
  if (!details.success) for (const issue of details.error.issues) raiseIssue(problems, String(issue.path[0]), issue);
  if (draft.questions.length === 0) raise(problems, "questions", appError("QUIZ_NEEDS_A_QUESTION"));
  if (draft.questions.length > MAX_QUESTIONS) raise(problems, "questions", appError("QUIZ_TOO_MANY_QUESTIONS", { max: MAX_QUESTIONS }));
  const questions: QuestionContent[] = [];
  draft.questions.slice(0, MAX_QUESTIONS).forEach((question, index) => {
    const checked = checkQuestionDraft(question, index + 1);
    if (checked.ok) questions.push(checked.value);
    else
      for (const [field, message] of Object.entries(checked.errors)) {
        problems.errors[`questions.${index}.${field}`] = message;
        const code = checked.codes[field];
        if (code) problems.codes[`questions.${index}.${field}`] = code;
      }
  });
  if (Object.keys(problems.errors).length > 0 || !details.success) return { ok: false, ...problems };
  return {
    ok: true,
    value: {
      title: details.data.title,
      description: details.data.description,
      timeLimit: draft.timeLimit,
      isPublic: details.data.visibility === "public",
      questions,
    },
  };
}

/** A toast's titles by the code of its description (docs/product.md#validation); any other is "Check your quiz". */
const TOAST_TITLES: Partial<Record<string, AppError>> = {
  QUESTION_EMPTY: appError("QUESTION_EMPTY_TITLE"),
  QUESTION_EMPTY_ANSWER: appError("QUESTION_EMPTY_ANSWER_TITLE"),
};

/** docs/product.md#validation: the toast for the first thing wrong with a quiz about to be saved, with the codes it is said by. */
export function quizErrorToast({ errors, codes }: DraftProblems): ToastMessage {
  const [key, message] = Object.entries(errors)[0] ?? ["", englishOf(appError("QUIZ_CHECK"))];
  const description = key === "" ? appError("QUIZ_CHECK") : codes[key];
  const title =
    key === "title"
      ? appError("QUIZ_MISSING_TITLE_TITLE")
      : (/^questions\.\d+\./.test(key) && description && TOAST_TITLES[description.code]) || appError("QUIZ_CHECK_TITLE");
  return { title: englishOf(title), description: message, codes: description ? { title, description } : { title } };
}

// ------------------------------------------------------------------------------ editing the list

const TOO_MANY_QUESTIONS = toastOf(appError("QUIZ_CHECK_TITLE"), appError("QUIZ_TOO_MANY_QUESTIONS", { max: MAX_QUESTIONS }));

const INTENT = /^(add-question|remove-question|duplicate-question|move-question|add-answer|remove-answer|remove-image)(?:-(\d+))?(?:-(up|down|\d+))?$/;

function moveItem<T>(items: T[], from: number, to: number): T[] {
  const copy = items.slice();
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item);
  return copy;
}

/** Renumbers the right options after the option at `removed` is gone. */
function withoutOption(question: QuestionDraft, removed: number): QuestionDraft {
  const shift = (index: number) => (index > removed ? index - 1 : index);
  return {
    ...question,
    answers: question.answers.filter((_, i) => i !== removed),
    correctAnswerIndex: question.correctAnswerIndex === removed ? 0 : shift(question.correctAnswerIndex),
    correctAnswerIndexes: question.correctAnswerIndexes.filter((index) => index !== removed).map(shift),
  };
}

/**
 * One editing step of the editor's buttons (`add-question`, `remove-question-2`,
 * `duplicate-question-0`, `move-question-3-up`, `move-question-3-1`, `add-answer-0`,
 * `remove-answer-0-2`, `remove-image-1`): the page applies it at once with JavaScript, the action
 * without. Null for what is not one of them (a save).
 */
export function applyEditorIntent(draft: QuizDraft, intent: string): { draft: QuizDraft; moved?: number } | { error: ToastMessage } | null {
  const match = INTENT.exec(intent);
  if (!match) return null;
  const [, action, rawIndex, extra] = match;
  const index = rawIndex === undefined ? -1 : Number(rawIndex);
  const questions = draft.questions;
  const question = questions[index];
  const update = (changed: QuestionDraft) => ({ draft: { ...draft, questions: questions.map((q, i) => (i === index ? changed : q)) } });
  switch (action) {
    case "add-question":
      if (questions.length >= MAX_QUESTIONS) return { error: TOO_MANY_QUESTIONS };
      return { draft: { ...draft, questions: [...questions, emptyQuestionDraft()] }, moved: questions.length };
    case "remove-question":
      if (!question) return { draft };
      if (questions.length <= 1) return { error: CANNOT_REMOVE_QUESTION };
      return { draft: { ...draft, questions: questions.filter((_, i) => i !== index) }, moved: Math.max(0, index - 1) };
    case "duplicate-question":
      if (!question) return { draft };
      if (questions.length >= MAX_QUESTIONS) return { error: TOO_MANY_QUESTIONS };
      return { draft: { ...draft, questions: [...questions.slice(0, index + 1), structuredClone(question), ...questions.slice(index + 1)] }, moved: index + 1 };
    case "move-question": {
      if (!question) return { draft };
      const to = extra === "up" ? index - 1 : extra === "down" ? index + 1 : Number(extra);
      if (!Number.isInteger(to) || to < 0 || to >= questions.length || to === index) return { draft };
      return { draft: { ...draft, questions: moveItem(questions, index, to) }, moved: to };
    }
    case "add-answer":
      if (!question || question.answers.length >= MAX_OPTIONS) return { draft };
      return update({ ...question, answers: [...question.answers, ""] });
    case "remove-answer": {
      const option = Number(extra);
      if (!question || question.answers.length <= MIN_OPTIONS || !(option < question.answers.length)) return { draft };
      return update(withoutOption(question, option));
    }
    case "remove-image":
      if (!question) return { draft };
      return update({ ...question, imageId: "" });
  }
  return null;
}
