/**
 * What the model must return, and the checks that decide whether a reply is a quiz a host can use.
 * Pure functions, no I/O: the generator feeds them the model's text and a source of randomness.
 *
 * The reply is one flat object per question, whatever its kind: `kind` (an enum), `text`,
 * `answers`, `correctAnswerIndexes`, `acceptedAnswers` and `correctNumber`, every field present and
 * the ones a kind does not use empty ([] or null). OpenAI's strict mode wants every property
 * required and nullable rather than optional, and a flat shape needs no union at all, which local
 * OpenAI-compatible servers (llama.cpp grammars, Ollama) also follow more reliably. Each question is
 * then converted through `QuestionInputSchema`, so a generated question obeys exactly the rules a
 * question sent to the JSON API or saved from the editor obeys.
 */
import { z } from "zod";
import { appError, type AppError } from "#app/i18n/app-error";
import { MAX_OPTIONS, type QuestionContent, type QuestionKind } from "#app/game/question-kinds";
import { hasOptions, isQuestionKind, KIND_LABELS, kindOf } from "#app/game/kinds";
import { kindSchemaOf } from "#app/game/kinds/schemas";
import { MAX_GENERATED_ACCEPTED_ANSWERS } from "#app/game/kinds/typeAnswer/schema";
import { QuestionInputSchema } from "#app/game/question-input";
import { allowedKinds, MIXED_KINDS_FROM_COUNT, MIXED_MIN_KINDS, type AiKinds } from "./options";

/** A generated type-the-answer question lists at most this many accepted spellings (the kind's own). */
export { MAX_GENERATED_ACCEPTED_ANSWERS };

type Bounds = readonly [min: number, max: number];

const ANY_BOUNDS = { answers: [0, MAX_OPTIONS], correct: [0, MAX_OPTIONS], accepted: [0, MAX_GENERATED_ACCEPTED_ANSWERS] } as const;

/**
 * An array of `item` within bounds. A field the kind does not use keeps only the general upper
 * bound (the prompt and the description ask for []), so the schema never carries `maxItems: 0`.
 */
function boundedArray<T extends z.ZodType>(item: T, [min, max]: Bounds, fallbackMax: number) {
  return max === 0 ? z.array(item).max(fallbackMax) : z.array(item).min(min).max(max);
}

/**
 * One question as the model writes it. For a single kind the `kind` enum has that one value and the
 * arrays that kind uses are bounded to its limits; for a mix, the enum lists every kind.
 */
function modelQuestionSchema(kinds: AiKinds) {
  const allowed = allowedKinds(kinds) as [QuestionKind, ...QuestionKind[]];
  const bounds = kinds === "mixed" ? ANY_BOUNDS : kindSchemaOf(kinds).ai.bounds;
  const index = z
    .number()
    .int()
    .min(0)
    .max(MAX_OPTIONS - 1);
  return z.object({
    kind: z.enum(allowed).describe("Which kind of question this is."),
    text: z.string().describe("The question (for trueFalse, the statement), one short sentence."),
    answers: boundedArray(z.string(), bounds.answers, MAX_OPTIONS).describe(
      'The options players pick from: 2 to 6 for choice, multiSelect and poll; ["True", "False"] for trueFalse; [] for typeAnswer and closestNumber.',
    ),
    correctAnswerIndexes: boundedArray(index, bounds.correct, MAX_OPTIONS).describe(
      "0-based positions of the right options in answers: exactly one for choice and trueFalse (0 = the statement is true, 1 = false), one or more for multiSelect, [] for typeAnswer, closestNumber and poll.",
    ),
    acceptedAnswers: boundedArray(z.string(), bounds.accepted, MAX_GENERATED_ACCEPTED_ANSWERS).describe(
      "typeAnswer: 1 to 5 short answers that count as right (the answer and its common spellings); [] for every other kind.",
    ),
    correctNumber: (kinds !== "mixed" && kindOf(kinds).rightAnswer === "number" ? z.number() : z.number().nullable()).describe(
      "closestNumber: the true value; null for every other kind.",
    ),
  });
}

/**
 * The reply's shape, sent to the model as a strict JSON schema (structured output). It is kept free
 * of transforms and refinements so it converts to JSON Schema as it is; the rules JSON Schema
 * cannot say are checked by `checkGeneratedQuiz`.
 */
export function modelReplySchema(questionCount: number, kinds: AiKinds = "mixed") {
  return z.object({ questions: z.array(modelQuestionSchema(kinds)).length(questionCount) });
}

/**
 * What the checks read: the same fields, leniently (a server that ignores the schema may leave out
 * the fields a kind does not use), with any number of questions, each parsed on its own so one
 * malformed question costs only itself.
 */
const ReplyShapeSchema = z.object({ questions: z.array(z.unknown()) });
const LooseQuestionSchema = z.object({
  kind: z.string(),
  text: z.string(),
  answers: z.array(z.string()).default([]),
  correctAnswerIndexes: z.array(z.number()).default([]),
  acceptedAnswers: z.array(z.string()).default([]),
  correctNumber: z.number().nullish(),
});

export type GeneratedQuestion = QuestionContent;

/**
 * A refused reply's `reason` tells the model (on the retry) and the operator's log what to fix, down
 * to each question dropped; its `summary` is what the host is told, a text of the errors catalog
 * (AI_REASON_*), so the host reads it in the page's language.
 */
export type CheckResult = { ok: true; questions: GeneratedQuestion[] } | { ok: false; reason: string; summary: string; error: AppError };

export interface CheckRequest {
  questionCount: number;
  kinds: AiKinds;
}

/** Case, spacing and punctuation do not make two questions or two answers different. */
function sameness(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

const kindName = (kind: QuestionKind) => KIND_LABELS[kind].toLowerCase();

/**
 * One question of the reply as stored content, or what is wrong with it. The rules are the API's
 * (`QuestionInputSchema`); on top, a generated question's options must all differ.
 */
export function convertGeneratedQuestion(value: unknown, kinds: AiKinds): GeneratedQuestion | string {
  const loose = LooseQuestionSchema.safeParse(value);
  if (!loose.success) return "a question that did not follow the requested JSON schema";
  const raw = loose.data;
  const kind = raw.kind;
  if (!isQuestionKind(kind)) return "a question of an unknown kind";
  if (!allowedKinds(kinds).includes(kind)) return `a ${kindName(kind)} question where only ${kindName(kinds as QuestionKind)} questions were asked for`;

  const input = kindSchemaOf(kind).ai.fromModel(raw, kindName(kind), sameness);
  if (typeof input === "string") return input;
  const parsed = QuestionInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue.path[0] === "text") return "a question with empty or overlong text";
    if (issue.path[0] === "answers" && typeof issue.path[1] === "number") return "an empty or overlong answer";
    return `a ${kindName(kind)} question that breaks a rule (${issue.message})`;
  }
  const question = parsed.data;
  if (hasOptions(kind) && new Set(question.answers.map(sameness)).size !== question.answers.length) {
    return "a question whose answers are not all different";
  }
  return question;
}

export const REPLY_NOT_JSON = "the reply was not valid JSON";
export const REPLY_NOT_IN_SCHEMA = "the reply did not follow the requested JSON schema";

/** A reply refused for a reason that is its own summary, raised with its code (`error`). */
const refused = (reason: string, error: AppError): CheckResult => ({ ok: false, reason, summary: reason, error });

/**
 * Parses and checks a reply. Unusable questions (broken rules, a kind not asked for, repeated
 * answers) and repeats of an earlier question are dropped; the reply is usable when at least
 * `questionCount` remain, and the first `questionCount` are kept.
 */
export function checkGeneratedQuiz(content: string, { questionCount, kinds }: CheckRequest): CheckResult {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    return refused(REPLY_NOT_JSON, appError("AI_REASON_NOT_JSON"));
  }
  const parsed = ReplyShapeSchema.safeParse(data);
  if (!parsed.success) return refused(REPLY_NOT_IN_SCHEMA, appError("AI_REASON_NOT_IN_SCHEMA"));

  const questions: GeneratedQuestion[] = [];
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const raw of parsed.data.questions) {
    const checked = convertGeneratedQuestion(raw, kinds);
    if (typeof checked === "string") {
      problems.push(checked);
      continue;
    }
    const key = sameness(checked.text);
    if (seen.has(key)) {
      problems.push("a repeated question");
      continue;
    }
    seen.add(key);
    questions.push(checked);
  }
  if (questions.length < questionCount) {
    const summary = `it had ${questions.length} usable ${questions.length === 1 ? "question" : "questions"} instead of ${questionCount}`;
    const error = appError("AI_REASON_TOO_FEW", { count: questions.length, asked: questionCount });
    return { ok: false, reason: problems.length ? `${summary} (dropped ${[...new Set(problems)].join(", ")})` : summary, summary, error };
  }
  return { ok: true, questions: questions.slice(0, questionCount) };
}

/**
 * A mixed quiz of `MIXED_KINDS_FROM_COUNT` or more questions is asked for at least
 * `MIXED_MIN_KINDS` kinds. A quiz of one kind is still a good quiz, so this only says what fell
 * short (for the operator's log), or null when the mix is as asked.
 */
export function mixShortfall(questions: readonly Pick<QuestionContent, "kind">[], kinds: AiKinds): string | null {
  if (kinds !== "mixed" || questions.length < MIXED_KINDS_FROM_COUNT) return null;
  const used = [...new Set(questions.map((question) => question.kind))];
  return used.length >= MIXED_MIN_KINDS ? null : `a mixed quiz of ${questions.length} questions came back with one kind only (${used.join(", ")})`;
}

/**
 * Puts the options of a choice or multi-select question in a random order, so the right ones are
 * not wherever the model likes to put them (language models favour the first slots). True/false
 * keeps True first, and a poll keeps its order (its options may be a scale). `random` returns a
 * float in [0, 1).
 */
export function shuffleAnswers(question: GeneratedQuestion, random: () => number): GeneratedQuestion {
  if (!kindSchemaOf(question.kind).ai.shuffles) return question;
  const order = question.answers.map((_, index) => index);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const moved = (index: number) => order.indexOf(index);
  return {
    ...question,
    answers: order.map((index) => question.answers[index]),
    correctAnswerIndex: question.correctAnswerIndex < 0 ? -1 : moved(question.correctAnswerIndex),
    correctAnswerIndexes: question.correctAnswerIndexes.map(moved).sort((a, b) => a - b),
  };
}
