/**
 * The plan of a night (`/night/new`, docs/decisions/0034-a-night-of-rounds.md) as the page edits it:
 * a title and 2 to MAX_ROUNDS rounds, each a quiz and a title, as typed. Adding, removing and moving a
 * round are one step each, applied by the page at once with JavaScript and by the action without it
 * (the buttons post their intent, as the quiz editor's do). The rules that check a plan are
 * `NightFormSchema` in form-schemas.ts.
 */
import { MAX_ROUNDS } from "#app/game/rules";
import { appError, type AppError, type ErrorCode } from "#app/i18n/app-error";

export const MIN_ROUNDS = 2;
/** Titles as long as a quiz's, so a round named after its quiz always fits. */
export const NIGHT_TITLE_MAX_LENGTH = 200;

export interface NightRoundDraft {
  /** The chosen quiz's id as the form sends it ("" before one is chosen). */
  quizId: string;
  /** The round's title as typed; empty takes the quiz's title. */
  title: string;
}

export interface NightDraft {
  title: string;
  rounds: NightRoundDraft[];
}

export function emptyNightDraft(): NightDraft {
  return { title: "", rounds: [emptyRound(), emptyRound()] };
}

function emptyRound(): NightRoundDraft {
  return { quizId: "", title: "" };
}

export const nightRoundCountMessage = (min: number, max: number) => `A night has ${min} to ${max} rounds.`;
export const NIGHT_ROUND_COUNT_MESSAGE = nightRoundCountMessage(MIN_ROUNDS, MAX_ROUNDS);
/** The same refusal by its code (docs/decisions/0047-errors-as-codes.md), which the page says it by. */
export const NIGHT_ROUND_COUNT_ERROR = appError("NIGHT_ROUND_COUNT", { min: MIN_ROUNDS, max: MAX_ROUNDS });

const INTENT = /^(add-round|remove-round|move-round)(?:-(\d+))?(?:-(up|down))?$/;

/**
 * One editing step of the plan's buttons (`add-round`, `remove-round-2`, `move-round-1-up`): the
 * edited plan and the round to put focus on, or a message (and its code) when the step is not
 * allowed. Null for what is not one of them (hosting the night).
 */
export function applyNightIntent(draft: NightDraft, intent: string): { draft: NightDraft; focus: number } | { error: string; code: AppError } | null {
  const match = INTENT.exec(intent);
  if (!match) return null;
  const [, action, rawIndex, direction] = match;
  const rounds = draft.rounds;
  const index = rawIndex === undefined ? -1 : Number(rawIndex);
  switch (action) {
    case "add-round":
      if (rounds.length >= MAX_ROUNDS) return { error: NIGHT_ROUND_COUNT_MESSAGE, code: NIGHT_ROUND_COUNT_ERROR };
      return { draft: { ...draft, rounds: [...rounds, emptyRound()] }, focus: rounds.length };
    case "remove-round":
      if (!rounds[index]) return { draft, focus: 0 };
      if (rounds.length <= MIN_ROUNDS) return { error: NIGHT_ROUND_COUNT_MESSAGE, code: NIGHT_ROUND_COUNT_ERROR };
      return { draft: { ...draft, rounds: rounds.filter((_, i) => i !== index) }, focus: Math.max(0, index - 1) };
    case "move-round": {
      const to = direction === "up" ? index - 1 : index + 1;
      if (!rounds[index] || direction === undefined || to < 0 || to >= rounds.length) return { draft, focus: Math.max(0, index) };
      const copy = rounds.slice();
      const [moved] = copy.splice(index, 1);
      copy.splice(to, 0, moved);
      return { draft: { ...draft, rounds: copy }, focus: to };
    }
  }
  return null;
}

/** A field's name in the form, as conform writes an error's path: `title`, `rounds[1].quizId`. */
export function fieldNameOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, part) => (typeof part === "number" ? `${name}[${part}]` : name ? `${name}.${String(part)}` : String(part)), "");
}

/** The element id of a field by its name: `rounds[1].quizId` is `rounds-1-quizId`. */
export function fieldIdOf(name: string): string {
  return name
    .replace(/\[(\d+)\]\.?/g, "-$1-")
    .replace(/\./g, "-")
    .replace(/-$/, "");
}

type NightRefusal = "not-found" | "forbidden" | "empty";

const NIGHT_REFUSAL_CODES = {
  "not-found": "NIGHT_ROUND_QUIZ_GONE",
  forbidden: "NIGHT_ROUND_QUIZ_PRIVATE",
  empty: "NIGHT_ROUND_QUIZ_EMPTY",
} as const satisfies Record<NightRefusal, ErrorCode>;

/** `nightRefusalMessage`'s refusal by its code, naming the round as a person counts them. */
export function nightRefusalError(status: NightRefusal, round: number): AppError {
  return appError(NIGHT_REFUSAL_CODES[status], { n: round + 1 });
}

/** Why `hostNewNight` refused a round's quiz, naming the round (`round` is 0-based, as the model gives it). */
export function nightRefusalMessage(status: "not-found" | "forbidden" | "empty", round: number): string {
  const n = round + 1;
  if (status === "not-found") return `Round ${n}: that quiz no longer exists. Choose another one.`;
  if (status === "forbidden") return `Round ${n}: that quiz is private. Only its creator can host it.`;
  return `Round ${n}: that quiz has no questions yet.`;
}
