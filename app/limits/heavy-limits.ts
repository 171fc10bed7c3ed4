/**
 * The bounds of heavy work's inputs, with their defaults: plain values, so the composition root
 * (server.ts) reads them without loading the readers (server/heavy-work.ts,
 * docs/decisions/0041-heavy-work-off-the-loop.md).
 */

/** How much of a spreadsheet is read at most; past either, the file is refused. */
export interface SpreadsheetLimits {
  /** Rows read, blank ones and the header included (SPREADSHEET_MAX_ROWS). */
  maxRows: number;
  /** What an .xlsx may unpack to, every part together (SPREADSHEET_MAX_UNPACKED_MB). */
  maxUnpackedBytes: number;
}

/** A quiz has at most 100 questions; Kahoot's template alone has a title block and 100 numbered rows. */
export const DEFAULT_SPREADSHEET_LIMITS: SpreadsheetLimits = { maxRows: 1000, maxUnpackedBytes: 20 * 1024 * 1024 };

import { appError, type AppError } from "#app/i18n/app-error";

/** Every slot for heavy work is taken and the queue is full (server/heavy-work.ts): 503 with Retry-After. */
export const SERVER_BUSY = "The server is busy with other files right now. Please try again in a few seconds.";
/** The caller's address has a file being read already (HEAVY_WORK_PER_IP): 429 with Retry-After. */
export const ADDRESS_BUSY = "A file from your network is still being read. Please wait for it to finish, then try again.";

/** How a request that found no slot for heavy work (server/heavy-work.ts) is answered. */
export function busyAnswer(busy: { reason: "busy" | "address-busy"; retryAfterSeconds: number }): {
  status: 429 | 503;
  message: string;
  title: string;
  error: AppError;
  titleError: AppError;
} {
  return busy.reason === "address-busy"
    ? { status: 429, message: ADDRESS_BUSY, title: "Please wait", error: appError("ADDRESS_BUSY"), titleError: appError("ADDRESS_BUSY_TITLE") }
    : { status: 503, message: SERVER_BUSY, title: "Server busy", error: appError("SERVER_BUSY"), titleError: appError("SERVER_BUSY_TITLE") };
}

/** A file past the shape any real one has, or whose reading ran its worker out of memory or time: 413. */
export const FILE_TOO_COMPLEX = "This file is too large or too complex to read.";

/**
 * A quiz file's JSON is scanned before it is parsed: a real one (100 questions, each with a few
 * answers and a picture) has some thousands of values, nested five deep. Past these it is refused
 * before JSON.parse builds millions of objects.
 */
export const MAX_JSON_VALUES = 200_000;
export const MAX_JSON_DEPTH = 32;

/**
 * A decompression bomb (a small file that declares a huge canvas) is refused from its header
 * before any pixel is decoded. 40 megapixels is above any phone camera's default photo
 * (IMAGE_MAX_PIXELS).
 */
export const DEFAULT_MAX_INPUT_PIXELS = 40_000_000;
