/**
 * What the model must return, and the checks that decide whether a reply is a quiz a host can use.
 * Pure functions, no I/O: the generator feeds them the model's text and a source of randomness.
 */
import { z } from "zod";
import { ANSWER_COUNT } from "#app/game/rules";
import { AnswerTextSchema, QuestionTextSchema } from "#app/utils/validation";

const ModelQuestionSchema = z.object({
  text: z.string().describe("The question, one short sentence."),
  answers: z.array(z.string()).length(ANSWER_COUNT).describe("Four different answer options; exactly one is right."),
  correctAnswerIndex: z.number().int().min(0).max(ANSWER_COUNT - 1).describe("0-based position of the right answer in answers."),
});

/**
 * The reply's shape, sent to the model as a strict JSON schema (structured output). It is kept free
 * of transforms and refinements so it converts to JSON Schema as it is; the rules JSON Schema
 * cannot say (distinct answers, no repeats, our length limits) are checked by `checkGeneratedQuiz`.
 */
export function modelReplySchema(questionCount: number) {
  return z.object({ questions: z.array(ModelQuestionSchema).length(questionCount) });
}

/** The same shape with any number of questions: a reply with extra or unusable ones may still serve. */
const AnyLengthReplySchema = z.object({ questions: z.array(ModelQuestionSchema) });

export interface GeneratedQuestion {
  text: string;
  answers: string[];
  correctAnswerIndex: number;
}

export type CheckResult = { ok: true; questions: GeneratedQuestion[] } | { ok: false; reason: string };

/** Case, spacing and punctuation do not make two questions or two answers different. */
function sameness(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function checkQuestion(raw: { text: string; answers: string[]; correctAnswerIndex: number }): GeneratedQuestion | string {
  const text = QuestionTextSchema.safeParse(raw.text);
  if (!text.success) return "a question with empty or overlong text";
  const answers: string[] = [];
  for (const candidate of raw.answers) {
    const answer = AnswerTextSchema.safeParse(candidate);
    if (!answer.success) return "an empty or overlong answer";
    answers.push(answer.data);
  }
  if (new Set(answers.map(sameness)).size !== answers.length) return "a question whose answers are not all different";
  return { text: text.data, answers, correctAnswerIndex: raw.correctAnswerIndex };
}

/**
 * Parses and checks a reply. Unusable questions (blank, overlong, repeated answers) and repeats of
 * an earlier question are dropped; the reply is usable when at least `questionCount` remain, and
 * the first `questionCount` are kept.
 */
export function checkGeneratedQuiz(content: string, questionCount: number): CheckResult {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    return { ok: false, reason: "the reply was not valid JSON" };
  }
  const parsed = AnyLengthReplySchema.safeParse(data);
  if (!parsed.success) return { ok: false, reason: "the reply did not follow the requested JSON schema" };

  const questions: GeneratedQuestion[] = [];
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const raw of parsed.data.questions) {
    const checked = checkQuestion(raw);
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
    const why = problems.length ? ` (dropped ${[...new Set(problems)].join(", ")})` : "";
    return { ok: false, reason: `it had ${questions.length} usable questions instead of ${questionCount}${why}` };
  }
  return { ok: true, questions: questions.slice(0, questionCount) };
}

/**
 * Puts the answers in a random order, so the right one is not wherever the model likes to put it
 * (language models favour the first slots). `random` returns a float in [0, 1).
 */
export function shuffleAnswers(question: GeneratedQuestion, random: () => number): GeneratedQuestion {
  const order = question.answers.map((_, index) => index);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return {
    text: question.text,
    answers: order.map((index) => question.answers[index]),
    correctAnswerIndex: order.indexOf(question.correctAnswerIndex),
  };
}
