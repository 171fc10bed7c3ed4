/**
 * What the browser needs of the /ws protocol besides the message types (which it imports as types
 * only): the path and the close codes. Without zod, so none reaches a player's phone; the schemas
 * are in protocol.ts, which re-exports these.
 */
export const WS_PATH = "/ws";
/**
 * The socket URL's parameter naming the game the socket is for (`/ws?clientId=...&game=CODE`): a
 * balancer hashes on it so every socket of a game reaches the same node (issue 28, docs/deploy/).
 */
export const GAME_URL_PARAM = "game";
/** Frames larger than this are refused by the server before parsing. */
export const MAX_MESSAGE_BYTES = 16 * 1024;

/** Application close codes (docs/product.md#close-codes; 4000-4999 are ours by the WebSocket standard, RFC 6455). */
export const CloseCode = {
  /** The server is restarting; reconnect soon. */
  SERVER_RESTARTING: 4000,
  /** Another connection of the same player took over. */
  REPLACED: 4001,
  /** Too many messages; the socket is closed to protect the game. */
  RATE_LIMITED: 4002,
  /** The heartbeat went unanswered. */
  HEARTBEAT_TIMEOUT: 4003,
  /** The host removed this player; do not reconnect. */
  KICKED: 4004,
  /** The game no longer exists on the server (its row is gone); do not reconnect. */
  GAME_CLOSED: 4005,
  /** The host made new display and remote links; this one's key no longer works, so do not reconnect. */
  LINK_REPLACED: 4006,
  /** Someone signed in or out on this browser: its host seat ended; reconnect with the browser's cookies as they are now. */
  SIGN_IN_CHANGED: 4007,
} as const;
