/**
 * Structured logs (pino, one JSON line per event). Game events carry the game code; nothing logs
 * a password, a session id, a client id or a key, and these fields are redacted should one slip in.
 */
import pino, { type DestinationStream } from "pino";

export type Logger = pino.Logger;

const REDACT = [
  "password",
  "*.password",
  "cookie",
  "*.cookie",
  "authorization",
  "*.authorization",
  "clientId",
  "*.clientId",
  "sessionId",
  "*.sessionId",
  "apiKey",
  "*.apiKey",
  "secret",
  "*.secret",
];

export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? "info",
      base: { service: "quiz-night" },
      redact: { paths: REDACT, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

export const silentLogger: Logger = pino({ level: "silent" });
