/**
 * The schemas of the host and join forms, read by each route's action and by its component before
 * submitting, built from the shared field rules with their messages (docs/product.md#validation,
 * docs/product.md#messages), and the messages the quiz editor shares with import and the API (its
 * form: quiz-form-schema.ts).
 */
import { z } from "zod";
import { HOST_NAME_MAX_LENGTH, HOST_NAME_MIN_LENGTH } from "#app/game/rules";
import { normalizeGameCode } from "./field-rules";
import { isOffensive } from "./profanity";
import { chosenTeam, isPickedTeam, missingNewTeam, TEAM_NAME_REQUIRED_MESSAGE } from "./team-choice";
import { GameCodeSchema, IdSchema, NewNicknameSchema, TeamNameSchema } from "./validation";

/** A toast's title and description, as docs/product.md#messages pairs them. */
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

// ------------------------------------------------------------------------------ create quiz

/** Far more than a quiz night needs; it bounds what one form post can store. */
export const MAX_QUESTIONS = 100;
export const tooManyQuestionsMessage = (max: number) => `A quiz can have at most ${max} questions.`;

export const emptyQuestionMessage = (n: number) => `Question ${n} is empty.`;
export const emptyAnswerMessage = (n: number) => `Question ${n} has an empty answer option.`;

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
    if (!code.success) ctx.addIssue({ code: "custom", message: code.error.issues[0].message, path: ["quizCode"] });
  })
  .transform(({ quizCode, quizId, hostName }): HostChoice =>
    quizId !== undefined ? { hostName, quizId } : { hostName, gameCode: GameCodeSchema.parse(quizCode) },
  );

// ------------------------------------------------------------------------------------ join

/** The engine's words for an offensive team name (TEAM_NAME_NOT_ALLOWED in the errors catalog). */
export const TEAM_NAME_NOT_ALLOWED_MESSAGE = "Please choose a different team name.";

export const JoinFormSchema = z
  .object({
    /** docs/product.md#validation: upper-cased, stripped to A-Z and 0-9 and cut to 6, the same as while typing. */
    gameCode: z.preprocess((value) => (typeof value === "string" ? normalizeGameCode(value) : value), GameCodeSchema),
    nickname: NewNicknameSchema,
    /** Team mode: the team picked, `new` or `later` (app/utils/team-choice.ts); absent when the form offered no team. */
    team: z.string().optional(),
    /** The name of a new team. */
    newTeam: z.string().optional(),
  })
  .superRefine((form, ctx) => {
    const name = chosenTeam(form.team, form.newTeam);
    const path = [isPickedTeam(form.team) ? "team" : "newTeam"];
    if (missingNewTeam(form.team, form.newTeam)) ctx.addIssue({ code: "custom", message: TEAM_NAME_REQUIRED_MESSAGE, path });
    if (name === undefined) return;
    const checked = TeamNameSchema.safeParse(name);
    if (!checked.success) ctx.addIssue({ code: "custom", message: checked.error.issues[0].message, path });
    else if (isOffensive(checked.data)) ctx.addIssue({ code: "custom", message: TEAM_NAME_NOT_ALLOWED_MESSAGE, path });
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
