/**
 * Every request body the app reads, read within its route's limits (body-limits.ts, the one table
 * Express caps bodies by too; docs/decisions/0040-bounded-bodies.md).
 *
 * A body is read as a stream and refused as soon as it passes its cap, whatever Content-Length
 * says (or does not say). A form's fields are counted, and their names, lengths, repeats and list
 * indexes checked, before conform sees them: conform copies a field's list each time its name
 * repeats (20,000 repeats blocked the loop for seconds), and `questions[4294967294]=x` makes it
 * build, and zod walk, a list of four billion elements. A JSON body's nesting is measured before
 * `JSON.parse`. A refusal is a 413 (too large) or a 400, raised with its code in the `errors`
 * catalog (api.server.ts answers with it).
 */
import { MaxPartSizeExceededError, unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { appError, type AppError, type ErrorCode } from "#app/i18n/app-error";
import { bodyCapOf, isMultipart, JSON_API, limitsFor, type BodyLimits, type RouteBody } from "#app/limits/body-limits";

// ------------------------------------------------------------------------------ refusals

/**
 * Each refusal's English words by its code, the `errors` catalog's text word for word
 * (tests/unit/request-body.test.ts): a refusal is raised by its code, and these words answer for
 * it in front of Remix (server/form-precheck.ts), whose bundle does not load the catalogs
 * (docs/decisions/0047-errors-as-codes.md).
 */
export const BODY_REFUSAL_TEXTS = {
  BODY_TOO_LARGE: "Request body is too large.",
  FORM_TOO_MANY_FIELDS: "The form has too many fields.",
  FORM_FIELD_REPEATED: "A field of the form is sent too many times.",
  FORM_FIELD_NAME_TOO_LONG: "A field of the form has too long a name.",
  FORM_FIELD_TOO_LONG: "A field of the form is too long.",
  FORM_INDEX_TOO_LARGE: "A field of the form names a list position past what the form can hold.",
  FORM_FILES_REFUSED: "This form takes no files.",
  FORM_UNREADABLE: "The form could not be read.",
  FORM_CONTENT_TYPE: "Send the form as application/x-www-form-urlencoded or multipart/form-data.",
  JSON_TOO_DEEP: "The JSON body is nested too deeply.",
} as const satisfies Partial<Record<ErrorCode, string>>;

export type BodyRefusalCode = keyof typeof BODY_REFUSAL_TEXTS;

/** A body refused by its limits: 413 for its size, 400 for its shape, 415 for its type; raised by its code. */
export class BodyRefusal extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    readonly code: BodyRefusalCode,
  ) {
    super(BODY_REFUSAL_TEXTS[code]);
  }

  /** The refusal as the errors catalog names it. */
  get error(): AppError {
    return appError(this.code);
  }
}

// ------------------------------------------------------------------------------ bytes

/**
 * Reads what is left of a refused body and drops it, unparsed, up to what Express let through for
 * its route (bodyCapOf) and past that cancels it: left unread, it would stall the refusal's answer
 * and the next request on the same keep-alive connection.
 */
function discardRest(request: Request, reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number): void {
  const cap = bodyCapOf(new URL(request.url).pathname, request.headers.get("content-type"));
  void (async () => {
    let size = alreadyRead;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      if ((size += read.value.byteLength) > cap) return reader.cancel();
    }
  })().catch(() => undefined);
}

/** Drops a body a route refuses without reading it (its type is wrong), as discardRest does. */
export function discardBody(request: Request): void {
  if (request.body && !request.bodyUsed) discardRest(request, request.body.getReader(), 0);
}

/**
 * The body's chunks as they came, read as a stream and refused once past `max` however it is sent
 * (a declared length may be absent or wrong); what is left of a refused body is dropped
 * (discardRest). Not joined: a 40 MB import's copy would hold the game's thread for tens of ms.
 */
export async function readBodyChunks(request: Request, max: number): Promise<Uint8Array[]> {
  if (!request.body) return [];
  const reader = request.body.getReader();
  if (Number(request.headers.get("content-length") ?? "0") > max) {
    discardRest(request, reader, 0);
    throw new BodyRefusal(413, "BODY_TOO_LARGE");
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      discardRest(request, reader, size);
      throw new BodyRefusal(413, "BODY_TOO_LARGE");
    }
    chunks.push(value);
  }
  return chunks;
}

/** The body's bytes, read as a stream and refused once past `max` however it is sent. */
export async function readBodyBytes(request: Request, max: number): Promise<Buffer> {
  return Buffer.concat(await readBodyChunks(request, max));
}

/**
 * Pieces the multipart parser is handed at most: it copies what is left of its current piece at
 * every part, so a 64 KiB chunk of a thousand tiny parts costs it 64 MB of copying; 4 KiB pieces
 * (views, not copies) keep that to a few.
 */
const MULTIPART_PIECE_BYTES = 4 * 1024;

/**
 * The body as a stream of small pieces that fails with a 413 refusal once past `max`; `discard`
 * drops what is left of it (see discardRest).
 */
function cappedStream(request: Request, body: ReadableStream<Uint8Array>, max: number): { stream: ReadableStream<Uint8Array>; discard(): void } {
  const reader = body.getReader();
  let size = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      size += value.byteLength;
      if (size > max) {
        discardRest(request, reader, size);
        controller.error(new BodyRefusal(413, "BODY_TOO_LARGE"));
        return;
      }
      for (let at = 0; at < value.byteLength; at += MULTIPART_PIECE_BYTES) controller.enqueue(value.subarray(at, at + MULTIPART_PIECE_BYTES));
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { stream, discard: () => discardRest(request, reader, size) };
}

// ------------------------------------------------------------------------------ forms

/** Names conform gives its own meaning; the server reads none of them (no action uses its intents). */
const CONFORM_NAMES = new Set(["__intent__", "__state__"]);

/** The largest list index a field name gives conform: every run of digits after `[` or `.`. */
export function largestIndexOf(name: string): number {
  let largest = -1;
  for (let i = 0; i < name.length; i++) {
    const before = name.charCodeAt(i - 1);
    if (i > 0 && before !== 0x5b /* [ */ && before !== 0x2e /* . */) continue;
    let end = i;
    while (end < name.length && name.charCodeAt(end) >= 0x30 && name.charCodeAt(end) <= 0x39) end++;
    // A name is at most maxNameLength long, so Number() of the run is cheap (Infinity for a huge one).
    if (end > i) largest = Math.max(largest, Number(name.slice(i, end)));
    i = end > i ? end - 1 : i;
  }
  return largest;
}

/** Counts a form's fields as they are read and refuses the first one past a limit. */
class FieldCounter {
  private fields = 0;
  private readonly repeats = new Map<string, number>();

  constructor(private readonly limits: BodyLimits) {}

  /** Checks one field's name; false for a name of conform's own, which is left out. */
  add(name: string): boolean {
    const { limits } = this;
    if (++this.fields > limits.maxFields) throw new BodyRefusal(400, "FORM_TOO_MANY_FIELDS");
    if (name.length > limits.maxNameLength) throw new BodyRefusal(400, "FORM_FIELD_NAME_TOO_LONG");
    const seen = (this.repeats.get(name) ?? 0) + 1;
    if (seen > limits.maxRepeats) throw new BodyRefusal(400, "FORM_FIELD_REPEATED");
    this.repeats.set(name, seen);
    if (largestIndexOf(name) > limits.maxIndex) throw new BodyRefusal(400, "FORM_INDEX_TOO_LARGE");
    return !CONFORM_NAMES.has(name);
  }

  value(text: string): string {
    if (text.length > this.limits.maxValueLength) throw new BodyRefusal(400, "FORM_FIELD_TOO_LONG");
    return text;
  }
}

/** How many `&`-separated pieces an urlencoded body has, counted on its bytes before any decoding. */
function countPieces(bytes: Buffer): number {
  let pieces = 1;
  for (let at = bytes.indexOf(0x26); at !== -1; at = bytes.indexOf(0x26, at + 1)) pieces++;
  return pieces;
}

/**
 * An urlencoded body's fields within `limits` (conform's own names left out), or a BodyRefusal for
 * the first past one. Also run in front of Remix on a page's form post (server/form-precheck.ts).
 */
export function urlEncodedFieldsWithin(bytes: Buffer, limits: BodyLimits): [string, string][] {
  // Before URLSearchParams makes a string of each: empty pieces (`a&&b`) are no fields, so this
  // counts generously; the fields themselves are counted below.
  if (countPieces(bytes) > 2 * limits.maxFields) throw new BodyRefusal(400, "FORM_TOO_MANY_FIELDS");
  const counter = new FieldCounter(limits);
  const fields: [string, string][] = [];
  for (const [name, value] of new URLSearchParams(bytes.toString("utf8"))) {
    if (counter.add(name)) fields.push([name, counter.value(value)]);
  }
  return fields;
}

async function readUrlEncoded(request: Request, limits: BodyLimits): Promise<FormData> {
  const form = new FormData();
  for (const [name, value] of urlEncodedFieldsWithin(await readBodyBytes(request, limits.maxBytes), limits)) form.append(name, value);
  return form;
}

/** Parts read before the event loop gets a turn. */
const PARTS_PER_TURN = 16;

/** What a route's own file reader threw, passed on to the route as it was. */
class RouteFileError extends Error {
  constructor(cause: unknown) {
    super("a route's file reader failed", { cause });
  }
}

/**
 * Each part counted and checked as it comes, then read within its limits: text up to the value
 * length, a file up to the file size, or by `readFile` (a route's own, for its pictures or quiz
 * files) when given.
 */
function boundedUploads(limits: BodyLimits, readFile?: UploadHandler): UploadHandler {
  const counter = new FieldCounter(limits);
  let files = 0;
  let parts = 0;
  return async (part) => {
    const { name, filename, contentType, data } = part;
    const keep = counter.add(name);
    // The parser runs from part to part without giving the event loop a turn; the games get one.
    if (++parts % PARTS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    const isFile = typeof filename === "string";
    if (isFile && limits.maxFiles === 0) throw new BodyRefusal(400, "FORM_FILES_REFUSED");
    // An empty file input sends a part without a file name; a file past the allowance is left out.
    if (!keep || (isFile && filename !== "" && ++files > limits.maxFiles)) return undefined;
    if (isFile && readFile) {
      try {
        return await readFile(part);
      } catch (error) {
        throw new RouteFileError(error);
      }
    }
    const max = isFile ? limits.maxFileBytes : limits.maxValueLength * 3;
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of data) {
      size += chunk.byteLength;
      if (size > max) {
        if (isFile) throw new MaxPartSizeExceededError(name, max);
        throw new BodyRefusal(400, "FORM_FIELD_TOO_LONG");
      }
      chunks.push(chunk);
    }
    if (isFile) return new File(chunks as BlobPart[], filename, { type: contentType });
    return counter.value(Buffer.concat(chunks, size).toString("utf8"));
  };
}

/**
 * A multipart form read as it streams, refused once past its size, each part counted and checked
 * before it is read; `readFile` reads the files where a route has its own way (see boundedUploads).
 */
export async function readMultipart(request: Request, limits: BodyLimits, readFile?: UploadHandler): Promise<FormData> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!request.body) throw new BodyRefusal(400, "FORM_UNREADABLE");
  const { stream, discard } = cappedStream(request, request.body, limits.maxBytes);
  // Remix finds the boundary with a regular expression; a header of a sane length keeps it quick.
  const refusal =
    Number(request.headers.get("content-length") ?? "0") > limits.maxBytes
      ? new BodyRefusal(413, "BODY_TOO_LARGE")
      : contentType.length > 200
        ? new BodyRefusal(400, "FORM_UNREADABLE")
        : null;
  if (refusal) {
    discard();
    throw refusal;
  }
  const capped = new Request(request.url, { method: request.method, headers: { "content-type": contentType }, body: stream, duplex: "half" } as RequestInit);
  try {
    return await unstable_parseMultipartFormData(capped, boundedUploads(limits, readFile));
  } catch (error) {
    discard();
    if (error instanceof RouteFileError) throw error.cause;
    if (error instanceof BodyRefusal || error instanceof MaxPartSizeExceededError) throw error;
    // The parser's own: a body that is not the multipart it says.
    throw new BodyRefusal(400, "FORM_UNREADABLE");
  }
}

/**
 * A posted form (urlencoded or multipart) within `route`'s limits, for `parseForm`; past them, a
 * BodyRefusal (routes call `readForm` in api.server.ts, which throws it as its response). A
 * multipart picture past its size throws Remix's MaxPartSizeExceededError, for the route to say
 * so in its words.
 */
export async function readFormWithin(request: Request, route: RouteBody): Promise<FormData> {
  const contentType = request.headers.get("content-type");
  const limits = limitsFor(route, contentType);
  if (isMultipart(contentType)) return readMultipart(request, limits);
  const type = (contentType ?? "").trimStart().toLowerCase();
  // A post without a type (a script's bodiless fetch) is read as the form it would be.
  if (type.startsWith("application/x-www-form-urlencoded") || type === "") return readUrlEncoded(request, limits);
  discardBody(request);
  throw new BodyRefusal(415, "FORM_CONTENT_TYPE");
}

// ------------------------------------------------------------------------------ JSON

/**
 * The deepest nesting of arrays and objects in a JSON text, stopping as soon as it passes `max`:
 * one pass over the characters, brackets inside strings not counted.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/** A JSON body's text within `limits` (its size, then its nesting); JSON.parse comes after. */
export async function readJsonText(request: Request, limits: BodyLimits = JSON_API): Promise<string> {
  const text = (await readBodyBytes(request, limits.maxBytes)).toString("utf8");
  if (jsonDepthExceeds(text, limits.maxJsonDepth)) throw new BodyRefusal(400, "JSON_TOO_DEEP");
  return text;
}
