/**
 * The screens of a game, from the lobby to the results, and the join form that leads into one:
 * where a player's attention belongs to the game, so the page keeps everything else out of view
 * (the install card, the footer).
 */
const GAME_SCREEN = /^\/(waiting|host|play|result|leaderboard|break|results|display|remote)\//;

export function isGameScreen(pathname: string): boolean {
  return GAME_SCREEN.test(pathname);
}

/** A game's screens and the join form (where a join link or the lobby's QR code leads). */
export function isOnTheWayIntoAGame(pathname: string): boolean {
  return pathname === "/join" || isGameScreen(pathname);
}
