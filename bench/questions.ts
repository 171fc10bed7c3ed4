/**
 * The benchmark's quiz and its simulated players' answers. `choice` is the original bench: four
 * options, today's request shape (no `kind`, so the default kind), answered uniformly at random.
 * `mixed` rotates through the registered kinds, asking each kind's two example questions (its
 * spreadsheet part's `examples`), and each player answers as a person would, by how the kind is
 * answered: options at random, picks right some of the time, typed answers with the odd typo,
 * numbers around the true value. A new kind needs nothing here (docs/adding-a-question-kind.md).
 */
import { DEFAULT_KIND, kindOf, QUESTION_KINDS, type QuestionKind } from "#app/game/kinds";
import type { AnswerSent } from "#app/game/kinds/definition";
import { KIND_SCHEMAS } from "#app/game/kinds/schemas";
import { kindSpreadsheetOf } from "#app/game/kinds/spreadsheets.server";
import type { EngineQuestion } from "#app/game/engine/state";

export const KINDS_SETTINGS = ["choice", "mixed"] as const;
export type KindsSetting = (typeof KINDS_SETTINGS)[number];

/**
 * What a simulated player knows of a question beyond what QUESTION_STARTED tells it (which never
 * carries the right answer): its kind and its right answer as a player sends it (the kind's
 * `rightAnswerSent`), enough to be right some of the time. Plain data: it goes to the load workers.
 */
export interface AnswerKey {
  kind: QuestionKind;
  right: AnswerSent;
}

/** The body of POST /api/questions (without quizId) and the key the players get. */
export interface BenchQuestion {
  kind: QuestionKind;
  body: Record<string, unknown>;
  key: AnswerKey;
}

/** Exactly one of these goes into SUBMIT_ANSWER, as the kind needs. */
export type AnswerFields = { answerIndex: number } | { answerIndexes: number[] } | { text: string } | { number: number };

/** Long enough that QUESTION_STARTED is about the baseline's broadcast size, like a real question. */
function choiceQuestion(order: number): BenchQuestion {
  return {
    kind: DEFAULT_KIND,
    body: {
      text: `Question ${order + 1} of the capacity benchmark: which is right?`,
      answers: ["Ant", "Bee", "Cat", "Dog"],
      correctAnswerIndex: order % 4,
      order,
    },
    key: { kind: DEFAULT_KIND, right: { answerIndex: order % 4 } },
  };
}

/** Each kind's two examples in turn, so a 12-question quiz asks every kind twice with different sizes. */
function mixedQuestion(order: number): BenchQuestion {
  const kind = QUESTION_KINDS[order % QUESTION_KINDS.length];
  const second = Math.floor(order / QUESTION_KINDS.length) % 2 === 1;
  const example = kindSpreadsheetOf(kind).examples[second ? 1 : 0];
  // The kind's own fields as the API takes them (its schema part's), without the example's time or points.
  const fields = Object.fromEntries(
    Object.keys(KIND_SCHEMAS[kind].inputFields).flatMap((field) => (field in example ? [[field, example[field as keyof typeof example]]] : [])),
  );
  const question = { answers: [], correctAnswerIndex: -1, ...example, id: order, kind } as EngineQuestion;
  return {
    kind,
    body: { kind, order, ...fields, text: `Question ${order + 1} of the capacity benchmark: ${example.text}` },
    key: { kind, right: kindOf(kind).rightAnswerSent(question) },
  };
}

/**
 * `count` questions of the setting's kinds; `imageId` goes on the first half (rounded up), which
 * for a 12-question mixed quiz is every kind once with a picture and once without.
 */
export function benchQuestions(kinds: KindsSetting, count: number, imageId: string | null): BenchQuestion[] {
  const withPicture = questionsWithPicture(count);
  return Array.from({ length: count }, (_, order) => {
    const question = kinds === "mixed" ? mixedQuestion(order) : choiceQuestion(order);
    if (imageId && order < withPicture) question.body.imageId = imageId;
    return question;
  });
}

/** How many of `count` questions carry the picture when there is one. */
export function questionsWithPicture(count: number): number {
  return Math.ceil(count / 2);
}

// ------------------------------------------------------------------ answering

type Random = () => number;

const pick = <T>(items: readonly T[], random: Random): T => items[Math.floor(random() * items.length)];

/** A standard normal deviate (Box-Muller). */
function gaussian(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

const LETTERS = [..."qwertyuiopasdfghjklzxcvbnm"];

/** One slip of the fingers: two neighbours swapped, a letter dropped, doubled or mistyped. */
export function typo(word: string, random: Random = Math.random): string {
  if (word.length < 2) return word + pick(LETTERS, random);
  const at = Math.floor(random() * (word.length - 1));
  switch (Math.floor(random() * 4)) {
    case 0:
      return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
    case 1:
      return word.slice(0, at) + word.slice(at + 1);
    case 2:
      return word.slice(0, at + 1) + word[at] + word.slice(at + 1);
    default:
      return word.slice(0, at) + pick(LETTERS, random) + word.slice(at + 1);
  }
}

/** How a person types a name: mostly as written, sometimes in lower case or with a stray space. */
function casually(text: string, random: Random): string {
  const roll = random();
  if (roll < 0.2) return text.toLowerCase();
  if (roll < 0.25) return `${text} `;
  if (roll < 0.28) return text.toUpperCase();
  return text;
}

/**
 * A plausible answer to a question of `kind` with `optionCount` options, by how the kind is
 * answered. The kind comes from QUESTION_STARTED (the server's word); the key is used only when it
 * is for the same kind.
 */
export function answerFor(kind: QuestionKind, optionCount: number, key: AnswerKey | undefined, random: Random = Math.random): AnswerFields {
  const right = key?.kind === kind ? key.right : undefined;
  const answered = kindOf(kind).answer;
  switch (answered) {
    case "option":
      // Uniformly at random, as the original bench: 1 in n right.
      return { answerIndex: Math.floor(random() * optionCount) };
    case "options": {
      if (right?.answerIndexes && random() < 0.4) return { answerIndexes: [...right.answerIndexes] };
      const picks = Array.from({ length: optionCount }, (_, index) => index).filter(() => random() < 0.5);
      if (picks.length === 0) picks.push(Math.floor(random() * optionCount));
      // In the order they were tapped, not sorted: the server sorts.
      return { answerIndexes: picks.sort(() => random() - 0.5) };
    }
    case "text": {
      if (right?.text === undefined) return { text: `guess ${Math.floor(random() * 1000)}` };
      const roll = random();
      // Right as written, right with one typo (forgiven), two typos (not), or a wrong answer.
      if (roll < 0.55) return { text: casually(right.text, random) };
      if (roll < 0.75) return { text: casually(typo(right.text, random), random) };
      if (roll < 0.82) return { text: typo(typo(right.text, random), random) };
      return { text: casually(pick(WRONG_TEXTS, random), random) };
    }
    case "number": {
      if (right?.number === undefined) return { number: Math.round(random() * 10_000) };
      if (random() < 0.08) return { number: right.number };
      const spread = Math.max(1, Math.abs(right.number) * 0.05);
      return { number: Math.round(right.number + gaussian(random) * spread) };
    }
  }
}

/** Wrong typed answers, which no kind's example accepts: a room's wrong guesses gather on a few. */
const WRONG_TEXTS = ["Sydney", "Rotterdam", "Copper"] as const;
