/**
 * A logger whose lines a test can read: the server logs through pino, never the console, so a
 * test asserts on what the operator would see in the log.
 */
import { Writable } from "node:stream";
import { createLogger, type Logger } from "#server/logger";

export interface LogLine {
  level: number;
  msg: string;
  event?: string;
  err?: { message?: string; type?: string };
  [field: string]: unknown;
}

/** pino's numbers: 40 warn, 50 error. */
export const WARN = 40;
export const ERROR = 50;

export function captureLogs(level = "debug"): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { logger: createLogger({ level, destination: sink }), lines };
}
