/**
 * The benchmark's quiz and its simulated players' answers. `choice` is the original bench: four
 * options, today's request shape (no `kind`), answered uniformly at random. `mixed` rotates through
 * the six kinds, and each player answers each kind as a person would: some right, some wrong,
 * typed answers with the odd typo, numbers around the true value.
 */
import { type QuestionKind } from "#app/game/question-kinds";
import { QUESTION_KINDS } from "#app/game/kinds";

export const KINDS_SETTINGS = ["choice", "mixed"] as const;
export type KindsSetting = (typeof KINDS_SETTINGS)[number];

/**
 * What a simulated player knows of a question beyond what QUESTION_STARTED tells it (which never
 * carries the right answer): enough to be right some of the time. Option kinds need none.
 */
export type AnswerKey =
  | { kind: "choice" | "trueFalse" | "poll" }
  | { kind: "multiSelect"; correct: number[] }
  | { kind: "typeAnswer"; accepted: string[]; wrong: string[] }
  | { kind: "closestNumber"; value: number };

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
    kind: "choice",
    body: {
      text: `Question ${order + 1} of the capacity benchmark: which is right?`,
      answers: ["Ant", "Bee", "Cat", "Dog"],
      correctAnswerIndex: order % 4,
      order,
    },
    key: { kind: "choice" },
  };
}

/** Two versions of each kind, so a 12-question quiz asks every kind twice with different sizes. */
function mixedQuestion(order: number): BenchQuestion {
  const kind = QUESTION_KINDS[order % QUESTION_KINDS.length];
  const second = Math.floor(order / QUESTION_KINDS.length) % 2 === 1;
  const number = order + 1;
  switch (kind) {
    case "choice": {
      const answers = second ? ["Ant", "Bee", "Cat", "Dog", "Eel", "Fox"] : ["Ant", "Bee", "Cat", "Dog"];
      return {
        kind,
        body: {
          kind,
          order,
          text: `Question ${number} of the capacity benchmark: which animal is right?`,
          answers,
          correctAnswerIndex: order % answers.length,
        },
        key: { kind },
      };
    }
    case "trueFalse":
      return {
        kind,
        body: { kind, order, text: `Question ${number} of the capacity benchmark: every socket stays open. True or false?`, correctAnswerIndex: order % 2 },
        key: { kind },
      };
    case "multiSelect": {
      const answers = second ? ["Oak", "Rose", "Tulip", "Pine", "Daisy"] : ["Ant", "Bat", "Cat", "Dog", "Eel"];
      const correct = second ? [1, 2, 4] : [1, 2, 3];
      return {
        kind,
        body: {
          kind,
          order,
          text: `Question ${number} of the capacity benchmark: pick every ${second ? "flower" : "mammal"}.`,
          answers,
          correctAnswerIndexes: correct,
        },
        key: { kind, correct },
      };
    }
    case "typeAnswer": {
      const [country, accepted, wrong] = second
        ? ["the Netherlands", ["Amsterdam"], ["Rotterdam", "The Hague", "Utrecht"]]
        : ["Australia", ["Canberra"], ["Sydney", "Melbourne", "Perth"]];
      return {
        kind,
        body: { kind, order, text: `Question ${number} of the capacity benchmark: type the capital of ${country}.`, acceptedAnswers: accepted },
        key: { kind, accepted, wrong },
      };
    }
    case "closestNumber": {
      const [what, value] = second ? ["How high is Mount Everest, in metres?", 8849] : ["In which year did people first walk on the Moon?", 1969];
      return {
        kind,
        body: { kind, order, text: `Question ${number} of the capacity benchmark: ${what}`, correctNumber: value },
        key: { kind, value },
      };
    }
    case "poll": {
      const answers = second ? ["Spring", "Summer", "Autumn", "Winter", "None"] : ["Cat", "Dog", "Owl"];
      return {
        kind,
        body: { kind, order, text: `Question ${number} of the capacity benchmark: which do you like best?`, answers },
        key: { kind },
      };
    }
  }
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
 * A plausible answer to a question of `kind` with `optionCount` options. The kind comes from
 * QUESTION_STARTED (the server's word); the key is used only when it is for the same kind.
 */
export function answerFor(kind: QuestionKind, optionCount: number, key: AnswerKey | undefined, random: Random = Math.random): AnswerFields {
  switch (kind) {
    case "choice":
    case "trueFalse":
    case "poll":
      // Uniformly at random, as the original bench: 1 in n right.
      return { answerIndex: Math.floor(random() * optionCount) };
    case "multiSelect": {
      if (key?.kind === "multiSelect" && random() < 0.4) return { answerIndexes: [...key.correct] };
      const picks = Array.from({ length: optionCount }, (_, index) => index).filter(() => random() < 0.5);
      if (picks.length === 0) picks.push(Math.floor(random() * optionCount));
      // In the order they were tapped, not sorted: the server sorts.
      return { answerIndexes: picks.sort(() => random() - 0.5) };
    }
    case "typeAnswer": {
      if (key?.kind !== "typeAnswer") return { text: `guess ${Math.floor(random() * 1000)}` };
      const roll = random();
      const right = pick(key.accepted, random);
      // Right as written, right with one typo (forgiven), two typos (not), or another city.
      if (roll < 0.55) return { text: casually(right, random) };
      if (roll < 0.75) return { text: casually(typo(right, random), random) };
      if (roll < 0.82) return { text: typo(typo(right, random), random) };
      return { text: casually(pick(key.wrong, random), random) };
    }
    case "closestNumber": {
      if (key?.kind !== "closestNumber") return { number: Math.round(random() * 10_000) };
      if (random() < 0.08) return { number: key.value };
      const spread = Math.max(1, Math.abs(key.value) * 0.05);
      return { number: Math.round(key.value + gaussian(random) * spread) };
    }
  }
}
