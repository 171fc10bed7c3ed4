/**
 * What the join and host pages say about games (docs/product.md#messages), without zod, so the
 * join page can show them without bringing zod to a player's phone.
 */
export const HOST_CONNECTION_FAILED = "Failed to connect to the game server. Please try again.";
export const GAME_NOT_FOUND = "Game not found. Check the code and try again.";
export const GAME_ALREADY_HOSTED = "This game already has a host.";
export const GAME_NOT_YOURS = "Only the browser or account that created this game can host it.";
export const QUIZ_NOT_FOUND = "Quiz not found.";
export const QUIZ_NOT_HOSTABLE = "This quiz is private. Only its creator can host it.";
