/**
 * Structured logs (pino, one JSON line per event). Game events carry the game code; nothing logs
 * a password, a session id, a client id or a key, and these fields are redacted should one slip in.
 *
 * Everything the server runs logs here, never to the console, so LOG_LEVEL, redaction and the
 * context hold for every line: loaders and actions use `context.logger` (a child per request,
 * server/http-log.ts), a room its own child with the game code. Command-line tools (db/*-cli.ts,
 * scripts/, bench/) talk to a person at a terminal and print with console instead.
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
