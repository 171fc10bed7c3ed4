/**
 * The AI quiz form's choices and its request schema (docs/product.md#ai-generation), shared by the
 * /ai-quiz page, its no-JavaScript action and POST /api/generate-quiz.
 */
import { z } from "zod";
import { type QuestionKind } from "#app/game/question-kinds";
import { KIND_LABELS, QUESTION_KINDS } from "#app/game/kinds";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "#app/i18n/languages";
import { QuizDescriptionSchema } from "#app/schemas/validation";
import { coded } from "#app/i18n/coded";
import { appError } from "#app/i18n/app-error";

export const DIFFICULTIES = ["easy", "medium", "hard"] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];
export const DEFAULT_DIFFICULTY: Difficulty = "medium";

/** The word the suggested title puts before the topic (docs/product.md#ai-generation). */
export const DIFFICULTY_LEVELS: Record<Difficulty, string> = { easy: "Beginner", medium: "Intermediate", hard: "Expert" };

/** Which kinds of question to write: a mix suited to the topic, or one kind only. */
export const AI_KINDS = ["mixed", ...QUESTION_KINDS] as const;
export type AiKinds = (typeof AI_KINDS)[number];
export const DEFAULT_AI_KINDS: AiKinds = "mixed";
export const AI_KINDS_LABELS: Record<AiKinds, string> = { mixed: "Mix of kinds", ...KIND_LABELS };

/** The kinds a request allows. */
export function allowedKinds(kinds: AiKinds): readonly QuestionKind[] {
  return kinds === "mixed" ? QUESTION_KINDS : [kinds];
}

/** A mixed quiz of at least this many questions is asked for at least `MIXED_MIN_KINDS` kinds. */
export const MIXED_KINDS_FROM_COUNT = 4;
export const MIXED_MIN_KINDS = 2;

export const QUESTION_COUNT = { min: 3, max: 15, step: 1, default: 5 } as const;
export const SECONDS_PER_QUESTION = { min: 10, max: 60, step: 5, default: 20 } as const;

/** How long the page waits after 'Quiz Generated!' before opening the lobby (docs/product.md#ai-generation). */
export const REDIRECT_AFTER_GENERATION_MS = 800;

export const POPULAR_TOPICS = [
  "History & Civilizations",
  "Science & Technology",
  "Space & Astronomy",
  "Pop Culture & Entertainment",
  "Animals & Nature",
  "Sports & Athletics",
  "Literature & Arts",
  "Geography & Travel",
  "Food & Cooking",
  "Music & Movies",
  "Business & Economics",
  "Health & Medicine",
] as const;

export const TOPIC_MAX_LENGTH = 200;
export const AI_QUIZ_TITLE_MAX_LENGTH = 200;
export const FALLBACK_AI_QUIZ_TITLE = "AI Generated Quiz";

// Toasts with the codes the page says them by (docs/decisions/0047-errors-as-codes.md).
export const TOPIC_REQUIRED = {
  title: "Topic Required",
  description: "Please describe what you want your quiz to be about.",
  codes: { title: appError("AI_TOPIC_REQUIRED_TITLE"), description: appError("AI_TOPIC_REQUIRED") },
};
export const GENERATION_FAILED = {
  title: "Generation Failed",
  description: "There was an error generating the quiz. Please try again.",
  codes: { title: appError("AI_GENERATION_FAILED_TITLE"), description: appError("AI_GENERATION_FAILED") },
};

/**
 * The words a generated quiz gets in its own language: the suggested title and the default
 * description. They are the quiz's content, in the language asked for, which may not be the page's;
 * the server writes them for the API and the form posted without JavaScript, and the browser shows
 * the title as a suggestion before any request. So they live here, beside the request's schema,
 * rather than in the page's catalogs (which hold the page's language only).
 */
const QUIZ_WORDS: Record<Language, { levels: Record<Difficulty, string>; title: (level: string, subject: string) => string; fallback: string; about: string }> =
  {
    en: { levels: DIFFICULTY_LEVELS, title: (level, subject) => `${level} ${subject} Quiz`, fallback: FALLBACK_AI_QUIZ_TITLE, about: "Quiz about" },
    de: {
      levels: { easy: "Einsteiger", medium: "Fortgeschrittene", hard: "Profis" },
      title: (level, subject) => `Quiz für ${level}: ${subject}`,
      fallback: "KI-Quiz",
      about: "Quiz über",
    },
    es: {
      levels: { easy: "principiante", medium: "intermedio", hard: "experto" },
      title: (level, subject) => `Cuestionario de ${subject} (nivel ${level})`,
      fallback: "Cuestionario generado con IA",
      about: "Cuestionario sobre",
    },
    fr: {
      levels: { easy: "débutant", medium: "intermédiaire", hard: "expert" },
      title: (level, subject) => `Quiz ${subject} (niveau ${level})`,
      fallback: "Quiz généré par IA",
      about: "Quiz sur",
    },
  };

/**
 * '{Beginner|Intermediate|Expert} {topic} Quiz', else 'AI Generated Quiz' (docs/product.md#ai-generation);
 * in the quiz's language when it is not English.
 */
export function suggestedQuizTitle(topic: string, difficulty: string, language: Language = DEFAULT_LANGUAGE): string {
  const words = QUIZ_WORDS[language];
  const level = words.levels[difficulty as Difficulty];
  const subject = topic.trim().replace(/\s+/g, " ");
  if (!level || !subject) return words.fallback;
  const room = AI_QUIZ_TITLE_MAX_LENGTH - words.title(level, "").length;
  return words.title(level, subject.slice(0, room).trim());
}

/** The default description, 'Quiz about {topic}' (docs/product.md#ai-generation), in the quiz's language. */
export function aiQuizDescription(topic: string, language: Language = DEFAULT_LANGUAGE): string {
  return `${QUIZ_WORDS[language].about} ${topic.trim()}`;
}

/** The language the questions are written in: the form's choice, English for an API caller who does not say. */
export const AI_LANGUAGE_MESSAGE = `The quiz language must be ${LANGUAGES.slice(0, -1).join(", ")} or ${LANGUAGES.at(-1)}.`;

export function quizLanguageOf(input: { language?: Language }): Language {
  return input.language ?? DEFAULT_LANGUAGE;
}

const TopicSchema = z
  .string(coded("AI_TOPIC_REQUIRED"))
  .trim()
  .min(1, coded("AI_TOPIC_REQUIRED"))
  .max(TOPIC_MAX_LENGTH, coded("AI_TOPIC_TOO_LONG", { max: TOPIC_MAX_LENGTH }));

/** A whole number in steps: its one message, AI_QUESTION_COUNT (steps of 1) or AI_TIME_PER_QUESTION, for every way it is wrong. */
const wholeNumberBetween = (code: "AI_QUESTION_COUNT" | "AI_TIME_PER_QUESTION", { min, max, step }: { min: number; max: number; step: number }) => {
  const message = () => coded(code, step === 1 ? { min, max } : { min, max, step });
  return z.number(message()).int(message()).min(min, message()).max(max, message()).multipleOf(step, message());
};

/**
 * POST /api/generate-quiz {title, description, topic, difficulty, kinds, questionCount, timeLimit, language}.
 * `kinds` is "mixed" (the default) or one question kind; `language` (en, de, es or fr; English when
 * absent) is the one the questions are written in. An empty title becomes the suggested one; the
 * description defaults to 'Quiz about {topic}'.
 */
export const GenerateQuizSchema = z
  .object({
    title: z
      .string(coded("AI_TITLE_NOT_TEXT"))
      .trim()
      .max(AI_QUIZ_TITLE_MAX_LENGTH, coded("AI_TITLE_TOO_LONG", { max: AI_QUIZ_TITLE_MAX_LENGTH }))
      .nullish(),
    description: QuizDescriptionSchema.nullish(),
    topic: TopicSchema,
    difficulty: z.enum(DIFFICULTIES, coded("AI_DIFFICULTY_CHOICE")).default(DEFAULT_DIFFICULTY),
    kinds: z.enum(AI_KINDS, coded("AI_KINDS_CHOICE", { kinds: AI_KINDS.join(", ") })).default(DEFAULT_AI_KINDS),
    questionCount: wholeNumberBetween("AI_QUESTION_COUNT", QUESTION_COUNT).default(QUESTION_COUNT.default),
    timeLimit: wholeNumberBetween("AI_TIME_PER_QUESTION", SECONDS_PER_QUESTION).default(SECONDS_PER_QUESTION.default),
    // Left out when absent (not defaulted here), so a request without it reads exactly as before.
    language: z.enum(LANGUAGES, coded("AI_LANGUAGE_CHOICE")).optional(),
  })
  .transform((input) => ({
    ...input,
    title: input.title || suggestedQuizTitle(input.topic, input.difficulty, quizLanguageOf(input)),
    description: input.description || aiQuizDescription(input.topic, quizLanguageOf(input)),
  }));
export type GenerateQuizInput = z.output<typeof GenerateQuizSchema>;

/**
 * The /ai-quiz form as it posts: each field's text, an empty one (or one not sent) meaning its
 * default, read into the request above. The page checks it before calling POST
 * /api/generate-quiz with the result; its action reads the same post made without JavaScript.
 */
export const GenerateQuizFormSchema = z
  .object({
    topic: z.string().default(""),
    title: z.string().default(""),
    difficulty: z.string().default(""),
    kinds: z.string().default(""),
    questionCount: z.string().default(""),
    timeLimit: z.string().default(""),
    language: z.string().default(""),
  })
  // The request's fields, still unchecked: the request schema says what is wrong with them.
  .transform(({ difficulty, kinds, questionCount, timeLimit, language, ...text }): Record<string, unknown> => ({
    ...text,
    difficulty: difficulty || DEFAULT_DIFFICULTY,
    kinds: kinds || DEFAULT_AI_KINDS,
    ...(language ? { language } : {}),
    questionCount: questionCount === "" ? QUESTION_COUNT.default : Number(questionCount),
    timeLimit: timeLimit === "" ? SECONDS_PER_QUESTION.default : Number(timeLimit),
  }))
  .pipe(GenerateQuizSchema);
