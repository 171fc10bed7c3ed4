/**
 * What the join page needs of the field rules without zod, so that none of zod reaches a
 * player's phone: the game code's normalisation, the patterns the browser checks natively and the
 * messages it shows (docs/product.md#validation). The zod schemas in validation.ts are built on the
 * same functions and messages, so the page and the server say the same thing.
 */
import { GAME_CODE_LENGTH } from "#app/game/rules";

export const GAME_CODE_MESSAGE = `Quiz code must be ${GAME_CODE_LENGTH} characters`;
export const NICKNAME_REQUIRED_MESSAGE = "Enter a nickname.";

/** What the join form does to typed input: upper-case, only A-Z and 0-9, at most 6 characters. */
export function normalizeGameCode(raw: string): string {
  return raw
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "")
    .slice(0, GAME_CODE_LENGTH);
}

/**
 * An `<input pattern>` for text the server reads as a whole game code: at least 6 letters and
 * digits among anything else ("abc-123"), as typed before the page's script normalises it.
 */
export const GAME_CODE_PATTERN = `[^A-Za-z0-9]*(?:[A-Za-z0-9][^A-Za-z0-9]*){${GAME_CODE_LENGTH},}`;

/** An `<input pattern>` for a nickname that is not only spaces. */
export const NICKNAME_PATTERN = ".*\\S.*";
