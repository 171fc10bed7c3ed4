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
import { isOffensive } from "./profanity";
import { coded } from "#app/i18n/coded";

export const GameCodeSchema = z
  .string(coded("GAME_CODE_REQUIRED"))
  .transform((raw) => raw.toUpperCase().replace(/[^A-Z0-9]/g, ""))
  .pipe(z.string().length(GAME_CODE_LENGTH, coded("GAME_CODE_LENGTH")));

/** Half of a character with no other half (a lone UTF-16 surrogate): it cannot be stored or shown. */
const BROKEN_CHARACTER = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const NicknameSchema = z
  .string(coded("NICKNAME_REQUIRED"))
  .trim()
  .min(1, coded("NICKNAME_REQUIRED"))
  .max(NICKNAME_MAX_LENGTH, coded("NICKNAME_TOO_LONG"))
  .refine((nickname) => !BROKEN_CHARACTER.test(nickname), coded("NICKNAME_UNSHOWABLE"));

/** A team's name, as the host sets it or a player types it on joining ("Table 4"). */
export const TeamNameSchema = z
  .string(coded("TEAM_NAME_REQUIRED"))
  .trim()
  .min(1, coded("TEAM_NAME_REQUIRED"))
  .max(TEAM_NAME_MAX_LENGTH, coded("TEAM_NAME_TOO_LONG"))
  .refine((name) => !BROKEN_CHARACTER.test(name), coded("TEAM_NAME_BROKEN"));

export const OFFENSIVE_NICKNAME = "That nickname is not allowed here. Please choose another one.";

/**
 * A name for a new player: the join form checks it as the game does (the engine refuses an
 * offensive name for a new player; a player already in a game always gets back in).
 */
export const NewNicknameSchema = NicknameSchema.refine((nickname) => !isOffensive(nickname), coded("NICKNAME_NOT_ALLOWED"));

/** A browser's persisted random id; generous so any client library's id format fits. */
export const ClientIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\w.:-]+$/, "Client id may only contain letters, digits, '-', '_', '.' and ':'.");

export const QuizTitleSchema = z
  .string(coded("QUIZ_TITLE_REQUIRED"))
  .trim()
  .min(1, coded("QUIZ_TITLE_REQUIRED"))
  .max(200, coded("QUIZ_TITLE_TOO_LONG", { max: 200 }));

export const QuizDescriptionSchema = z
  .string(coded("QUIZ_DESCRIPTION_NOT_TEXT"))
  .trim()
  .max(2000, coded("QUIZ_DESCRIPTION_TOO_LONG", { max: 2000 }));

export const TimeLimitSchema = z
  .number(coded("TIME_LIMIT_NOT_A_NUMBER"))
  .int(coded("TIME_LIMIT_NOT_WHOLE"))
  .min(MIN_TIME_LIMIT_SECONDS, coded("TIME_LIMIT_TOO_SHORT", { seconds: MIN_TIME_LIMIT_SECONDS }))
  .max(MAX_TIME_LIMIT_SECONDS, coded("TIME_LIMIT_TOO_LONG", { seconds: MAX_TIME_LIMIT_SECONDS }))
  .default(DEFAULT_TIME_LIMIT_SECONDS);

/** BAD_ANSWER_INDEX names the options 0 to 5 (MAX_OPTIONS - 1). */
export const AnswerIndexSchema = z
  .number(coded("BAD_ANSWER_INDEX"))
  .int(coded("BAD_ANSWER_INDEX"))
  .min(0, coded("BAD_ANSWER_INDEX"))
  .max(MAX_OPTIONS - 1, coded("BAD_ANSWER_INDEX"));

export const IdSchema = z.number({ error: "Expected a numeric id." }).int("Expected a numeric id.").positive("Expected a numeric id.");

// ---------------------------------------------------------------- accounts (docs/product.md#validation)

export const PASSWORD_MIN_LENGTH = 6;
export const USERNAME_MIN_LENGTH = 3;

export const UsernameSchema = z
  .string(coded("USERNAME_TOO_SHORT"))
  .trim()
  .min(USERNAME_MIN_LENGTH, coded("USERNAME_TOO_SHORT"))
  .max(30, coded("USERNAME_TOO_LONG"))
  .regex(/^[\p{L}\p{N}_.\- ]+$/u, coded("USERNAME_INVALID_CHARACTERS"));

export const EmailSchema = z
  .string(coded("EMAIL_INVALID"))
  .trim()
  .toLowerCase()
  .pipe(z.email(coded("EMAIL_INVALID")).max(254, coded("EMAIL_INVALID")));

export const PasswordSchema = z.string(coded("PASSWORD_TOO_SHORT")).min(PASSWORD_MIN_LENGTH, coded("PASSWORD_TOO_SHORT")).max(200, coded("PASSWORD_TOO_LONG"));

export const LoginSchema = z.object({ email: EmailSchema, password: PasswordSchema });

export const RegisterSchema = z
  .object({
    username: UsernameSchema,
    email: EmailSchema,
    password: PasswordSchema,
    confirmPassword: z.string(coded("PASSWORDS_DONT_MATCH")),
  })
  .refine((value) => value.password === value.confirmPassword, {
    ...coded("PASSWORDS_DONT_MATCH"),
    path: ["confirmPassword"],
  });
