/**
 * Field rules shared by forms, HTTP endpoints and the WebSocket protocol, each with the message
 * docs/product.md#validation gives for it, so client and server agree by construction.
 */
import { z } from "zod";
import {
  DEFAULT_TIME_LIMIT_SECONDS,
  GAME_CODE_LENGTH,
  MAX_TIME_LIMIT_SECONDS,
  MIN_TIME_LIMIT_SECONDS,
  NICKNAME_MAX_LENGTH,
  TEAM_NAME_MAX_LENGTH,
} from "#app/game/rules";
import { MAX_OPTIONS } from "#app/game/question-kinds";
import { GAME_CODE_MESSAGE, NICKNAME_REQUIRED_MESSAGE } from "./field-rules";
import { isOffensive } from "./profanity";

export const GameCodeSchema = z
  .string({ error: "Enter the game code." })
  .transform((raw) => raw.toUpperCase().replace(/[^A-Z0-9]/g, ""))
  .pipe(z.string().length(GAME_CODE_LENGTH, GAME_CODE_MESSAGE));

/** Half of a character with no other half (a lone UTF-16 surrogate): it cannot be stored or shown. */
const BROKEN_CHARACTER = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const NicknameSchema = z
  .string({ error: NICKNAME_REQUIRED_MESSAGE })
  .trim()
  .min(1, NICKNAME_REQUIRED_MESSAGE)
  .max(NICKNAME_MAX_LENGTH, `Nickname must be at most ${NICKNAME_MAX_LENGTH} characters.`)
  .refine((nickname) => !BROKEN_CHARACTER.test(nickname), "Nickname has a character that cannot be shown.");

/** A team's name, as the host sets it or a player types it on joining ("Table 4"). */
export const TeamNameSchema = z
  .string({ error: "Give the team a name." })
  .trim()
  .min(1, "Give the team a name.")
  .max(TEAM_NAME_MAX_LENGTH, `A team name has at most ${TEAM_NAME_MAX_LENGTH} characters.`)
  .refine((name) => !BROKEN_CHARACTER.test(name), "The team name has a character that cannot be shown.");

export const OFFENSIVE_NICKNAME = "That nickname is not allowed here. Please choose another one.";

/**
 * A name for a new player: the join form checks it as the game does (the engine refuses an
 * offensive name for a new player; a player already in a game always gets back in).
 */
export const NewNicknameSchema = NicknameSchema.refine((nickname) => !isOffensive(nickname), OFFENSIVE_NICKNAME);

/** A browser's persisted random id; generous so any client library's id format fits. */
export const ClientIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\w.:-]+$/, "Client id may only contain letters, digits, '-', '_', '.' and ':'.");

export const QuizTitleSchema = z
  .string({ error: "Please give your quiz a title." })
  .trim()
  .min(1, "Please give your quiz a title.")
  .max(200, "Keep the title under 200 characters.");

export const QuizDescriptionSchema = z.string({ error: "The description must be text." }).trim().max(2000, "Keep the description under 2000 characters.");

export const TimeLimitSchema = z
  .number({ error: "Time limit must be a number of seconds." })
  .int("Time limit must be a whole number of seconds.")
  .min(MIN_TIME_LIMIT_SECONDS, `Time limit must be at least ${MIN_TIME_LIMIT_SECONDS} seconds.`)
  .max(MAX_TIME_LIMIT_SECONDS, `Time limit must be at most ${MAX_TIME_LIMIT_SECONDS} seconds.`)
  .default(DEFAULT_TIME_LIMIT_SECONDS);

const ANSWER_INDEX_MESSAGE = `The answer must be the index of an option, 0 to ${MAX_OPTIONS - 1}.`;
export const AnswerIndexSchema = z
  .number({ error: ANSWER_INDEX_MESSAGE })
  .int(ANSWER_INDEX_MESSAGE)
  .min(0, ANSWER_INDEX_MESSAGE)
  .max(MAX_OPTIONS - 1, ANSWER_INDEX_MESSAGE);

export const IdSchema = z.number({ error: "Expected a numeric id." }).int("Expected a numeric id.").positive("Expected a numeric id.");

// ---------------------------------------------------------------- accounts (docs/product.md#validation)

export const PASSWORD_MIN_LENGTH = 6;
export const USERNAME_MIN_LENGTH = 3;

export const UsernameSchema = z
  .string({ error: "Username must be at least 3 characters" })
  .trim()
  .min(USERNAME_MIN_LENGTH, "Username must be at least 3 characters")
  .max(30, "Username must be at most 30 characters")
  .regex(/^[\p{L}\p{N}_.\- ]+$/u, "Username may only contain letters, digits, spaces, '.', '-' and '_'");

export const EmailSchema = z
  .string({ error: "Please enter a valid email" })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "Please enter a valid email" }).max(254, "Please enter a valid email"));

export const PasswordSchema = z
  .string({ error: "Password must be at least 6 characters" })
  .min(PASSWORD_MIN_LENGTH, "Password must be at least 6 characters")
  .max(200, "Password must be at most 200 characters");

export const LoginSchema = z.object({ email: EmailSchema, password: PasswordSchema });

export const RegisterSchema = z
  .object({
    username: UsernameSchema,
    email: EmailSchema,
    password: PasswordSchema,
    confirmPassword: z.string({ error: "Passwords don't match" }),
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: "Passwords don't match",
    path: ["confirmPassword"],
  });
