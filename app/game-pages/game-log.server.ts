import type { Logger } from "#server/logger";

/** The log line for a new game; every way of opening one (form, API, AI) writes the same. */
export function logGameCreated(logger: Logger, game: { gameCode: string }, quizId: number, via: string): void {
  logger.info({ event: "game_created", gameCode: game.gameCode, quizId, via }, "game created");
}
