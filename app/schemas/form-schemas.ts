/**
 * The schemas of the host and join forms, read by each route's action and by its component before
 * submitting, built from the shared field rules with their messages (docs/product.md#validation,
 * docs/product.md#messages), and the messages the quiz editor shares with import and the API (its
 * form: quiz-form-schema.ts).
 */
import { z } from "zod";
import { HOST_NAME_MAX_LENGTH, HOST_NAME_MIN_LENGTH, MAX_ROUNDS } from "#app/game/rules";
import { normalizeGameCode } from "./field-rules";
import { isOffensive } from "./profanity";
import { chosenTeam, isPickedTeam, missingNewTeam } from "#app/teams/team-choice";
import { MIN_ROUNDS, NIGHT_TITLE_MAX_LENGTH, type NightDraft } from "#app/nights/night-plan";
import { GameCodeSchema, IdSchema, NewNicknameSchema, TeamNameSchema } from "./validation";
import { carriedIssue, coded, codedIssue, englishOf } from "#app/i18n/coded";
import { appError, type AppError } from "#app/i18n/app-error";

/**
 * A toast's title and description, as docs/product.md#messages pairs them, in English, and the
 * codes each is said by in the page's language (docs/decisions/0047-errors-as-codes.md).
 */
export interface ToastMessage {
  title: string;
  description: string;
  codes?: { title?: AppError; description?: AppError };
}

/** A toast raised with its codes, its English made from the catalog. */
export function toastOf(title: AppError, description: AppError): ToastMessage {
  return { title: englishOf(title), description: englishOf(description), codes: { title, description } };
}

export const CANNOT_REMOVE_QUESTION = toastOf(appError("QUIZ_NEEDS_A_QUESTION_TITLE"), appError("QUIZ_NEEDS_A_QUESTION"));
export const CREATE_QUIZ_FAILED = toastOf(appError("CREATE_QUIZ_FAILED_TITLE"), appError("CREATE_QUIZ_FAILED"));
/** Its title ("Error") is the page's own words; the description has a code. */
export const QUIZZES_LOAD_FAILED: ToastMessage = {
  title: "Error",
  description: "Could not load available quizzes. Please try again.",
  codes: { description: appError("QUIZZES_LOAD_FAILED") },
};

// ------------------------------------------------------------------------------ create quiz

/** Far more than a quiz night needs; it bounds what one form post can store. */
export const MAX_QUESTIONS = 100;

// ------------------------------------------------------------------------------------ ids

/** A record's id as a form sends it (a hidden field or a button's value): digits, as text. */
export const FormIdSchema = z.preprocess((value) => (typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value), IdSchema);

// ------------------------------------------------------------------------------------ host

export const HOST_NAME_MESSAGE = `Host name must be between ${HOST_NAME_MIN_LENGTH}-${HOST_NAME_MAX_LENGTH} characters`;

// Raised with its code (docs/decisions/0047-errors-as-codes.md); HOST_NAME_MESSAGE is its English.
const HOST_NAME_LENGTH = coded("HOST_NAME_LENGTH");

export const HostNameSchema = z.string(HOST_NAME_LENGTH).trim().min(HOST_NAME_MIN_LENGTH, HOST_NAME_LENGTH).max(HOST_NAME_MAX_LENGTH, HOST_NAME_LENGTH);

/** An unchosen quiz arrives from a form as an empty string or not at all. */
const ChosenQuizIdSchema = z.preprocess((value) => (value === "" || value === null || value === undefined ? undefined : Number(value)), IdSchema.optional());

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
    if (!code.success) ctx.addIssue({ code: "custom", ...carriedIssue(code.error.issues[0]), path: ["quizCode"] });
  })
  .transform(({ quizCode, quizId, hostName }): HostChoice =>
    quizId !== undefined ? { hostName, quizId } : { hostName, gameCode: GameCodeSchema.parse(quizCode) },
  );

// ------------------------------------------------------------------------------------ night

/** A form field as conform reads it: text (the first, if sent twice), or "" when absent. */
const FormTextSchema = z.preprocess((value) => (Array.isArray(value) ? value[0] : value), z.string().optional()).transform((value) => value ?? "");
/** One round's fields as typed; a round whose every field was empty arrives as a hole. */
const NightRoundFieldsSchema = z.preprocess((value) => value ?? {}, z.object({ quizId: FormTextSchema, title: FormTextSchema }));
/** One round past the most a night has, so `NightFormSchema` can say so; what is past it is left out before zod walks it. */
const NightRoundListSchema = z.preprocess(
  (value) => (Array.isArray(value) ? value.slice(0, MAX_ROUNDS + 1) : []),
  z.array(NightRoundFieldsSchema).max(MAX_ROUNDS + 1),
);

/**
 * A posted plan of a night as typed (what the page shows again) and the button that sent it
 * (`intent`: "host", or one of the plan's steps in night-plan.ts). It refuses nothing; the rules
 * are `NightFormSchema`'s.
 */
export const NightDraftSchema = z
  .object({ intent: FormTextSchema, title: FormTextSchema, rounds: NightRoundListSchema })
  .transform(({ intent, title, rounds }): { intent: string; draft: NightDraft } => ({
    intent: intent || "host",
    // More rounds than a night may have are not shown again (NightFormSchema says why).
    draft: { title, rounds: rounds.slice(0, MAX_ROUNDS + 1) },
  }));

/** The English of the plan's refusals, which `NightFormSchema` raises by their codes (NIGHT_TITLE_REQUIRED, ...). */
export const NIGHT_TITLE_MESSAGE = "Give the night a title.";
export const NIGHT_TITLE_TOO_LONG_MESSAGE = `Keep the night's title under ${NIGHT_TITLE_MAX_LENGTH} characters.`;
export const nightRoundQuizMessage = (n: number) => `Round ${n}: choose a quiz.`;
export const nightRoundTitleMessage = (n: number) => `Round ${n}: keep the round's title under ${NIGHT_TITLE_MAX_LENGTH} characters.`;

/** What `hostNewNight` takes: the night's title and each round's quiz, with a title when one was typed. */
export interface NightPlanValue {
  title: string;
  rounds: { quizId: number; title?: string }[];
}

/**
 * A plan of a night, checked as a whole (by the action through `parseForm`, and by the page before
 * posting): a title, 2 to MAX_ROUNDS rounds, a quiz chosen for each. Every message names its round,
 * on the field it is about (`rounds[1].quizId`); a round's title may stay empty (its quiz's title).
 */
export const NightFormSchema = z
  .object({ title: FormTextSchema, rounds: NightRoundListSchema })
  .superRefine((form, ctx) => {
    const title = form.title.trim();
    // Each raised with its code (docs/decisions/0047-errors-as-codes.md); the constants above are their English.
    if (title === "") ctx.addIssue({ code: "custom", path: ["title"], ...codedIssue("NIGHT_TITLE_REQUIRED") });
    else if (title.length > NIGHT_TITLE_MAX_LENGTH)
      ctx.addIssue({ code: "custom", path: ["title"], ...codedIssue("NIGHT_TITLE_TOO_LONG", { max: NIGHT_TITLE_MAX_LENGTH }) });
    if (form.rounds.length < MIN_ROUNDS || form.rounds.length > MAX_ROUNDS)
      ctx.addIssue({ code: "custom", path: ["rounds"], ...codedIssue("NIGHT_ROUND_COUNT", { min: MIN_ROUNDS, max: MAX_ROUNDS }) });
    form.rounds.slice(0, MAX_ROUNDS).forEach((round, index) => {
      if (!FormIdSchema.safeParse(round.quizId.trim()).success)
        ctx.addIssue({ code: "custom", path: ["rounds", index, "quizId"], ...codedIssue("NIGHT_ROUND_NO_QUIZ", { n: index + 1 }) });
      if (round.title.trim().length > NIGHT_TITLE_MAX_LENGTH)
        ctx.addIssue({
          code: "custom",
          path: ["rounds", index, "title"],
          ...codedIssue("NIGHT_ROUND_TITLE_TOO_LONG", { n: index + 1, max: NIGHT_TITLE_MAX_LENGTH }),
        });
    });
  })
  .transform((form): NightPlanValue => ({
    title: form.title.trim(),
    rounds: form.rounds.map((round) => ({ quizId: Number(round.quizId.trim()), ...(round.title.trim() ? { title: round.title.trim() } : {}) })),
  }));

// ------------------------------------------------------------------------------------ join

export const JoinFormSchema = z
  .object({
    /** docs/product.md#validation: upper-cased, stripped to A-Z and 0-9 and cut to 6, the same as while typing. */
    gameCode: z.preprocess((value) => (typeof value === "string" ? normalizeGameCode(value) : value), GameCodeSchema),
    nickname: NewNicknameSchema,
    /** Team mode: the team picked, `new` or `later` (app/teams/team-choice.ts); absent when the form offered no team. */
    team: z.string().optional(),
    /** The name of a new team. */
    newTeam: z.string().optional(),
  })
  .superRefine((form, ctx) => {
    const name = chosenTeam(form.team, form.newTeam);
    const path = [isPickedTeam(form.team) ? "team" : "newTeam"];
    if (missingNewTeam(form.team, form.newTeam)) ctx.addIssue({ code: "custom", ...codedIssue("TEAM_NAME_REQUIRED"), path });
    if (name === undefined) return;
    const checked = TeamNameSchema.safeParse(name);
    if (!checked.success) ctx.addIssue({ code: "custom", ...carriedIssue(checked.error.issues[0]), path });
    else if (isOffensive(checked.data)) ctx.addIssue({ code: "custom", ...codedIssue("TEAM_NAME_NOT_ALLOWED"), path });
  })
  .transform(({ gameCode, nickname, team, newTeam }) => ({ gameCode, nickname, team: chosenTeam(team, newTeam) }));
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
