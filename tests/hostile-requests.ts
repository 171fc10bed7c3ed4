/**
 * The hostile request shapes of issue 26, built once and sent as a stranger's curl would: the route
 * guard (tests/integration/hostile-requests.test.ts) sends each to every route, and the attack
 * benchmark (bench/attacks.ts) sends them twenty at a time beside a live game.
 *
 * The routes come from the route files themselves (Remix's flat-routes names), so a new route is
 * covered without being listed here.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { decompressionBombPng, zipBombXlsx } from "./integration/hostile-files";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** A route file's URL under Remix's flat-routes convention, its dynamic segments filled from `params`. */
export function routePath(fileName: string, params: Record<string, string>): string {
  const name = fileName.replace(/\.(tsx|ts)$/, "");
  const segments: string[] = [];
  // Dots separate segments, except inside [ ] (an escaped literal dot).
  let current = "";
  let escaped = false;
  for (const character of name) {
    if (character === "[") escaped = true;
    else if (character === "]") escaped = false;
    else if (character === "." && !escaped) {
      segments.push(current);
      current = "";
    } else current += character;
  }
  segments.push(current);
  const parts = segments
    .filter((segment) => segment !== "_index" && !segment.startsWith("_"))
    .map((segment) => segment.replace(/_$/, ""))
    .map((segment) => {
      if (segment === "$") return params.$ ?? "anything";
      if (segment.startsWith("$")) return params[segment.slice(1)] ?? "1";
      return segment;
    });
  return "/" + parts.join("/");
}

/** Every route of the app, as a path with its parameters filled in. */
export function appRoutes(params: Record<string, string>): string[] {
  const files = fs.readdirSync(path.join(ROOT, "app/routes")).filter((file) => /\.(tsx|ts)$/.test(file));
  return [...new Set(files.map((file) => routePath(file, params)))].sort();
}

export interface HostileRequest {
  /** What it tries, for a test name or a figure's label. */
  name: string;
  contentType: string;
  body: Buffer;
  /** Sent chunked, without a Content-Length. */
  chunked?: boolean;
}

/** 20,000 fields of one name: conform copies its list each time a name repeats. */
export function repeatedFields(count = 20_000): HostileRequest {
  return { name: `${count} repeated fields`, contentType: "application/x-www-form-urlencoded", body: Buffer.from("a=&".repeat(count)) };
}

/** Array indexes near 2^32: a validator would walk (or allocate) that many elements. */
export function hugeIndexes(): HostileRequest {
  const body = "title=Quiz&questions[4294967294]=x&questions[4294967294].text=x&rounds[4294967294].quizId=1&answers[4294967294]=x";
  return { name: "array indexes near 2^32", contentType: "application/x-www-form-urlencoded", body: Buffer.from(body) };
}

/**
 * A 300,000-character number where forms and the closest-number reader take one: a regular
 * expression with overlapping quantifiers takes minutes on it.
 */
export function longFields(length = 300_000): HostileRequest {
  const digits = "1".repeat(length);
  const fields = ["title", "text", "correct", "timeLimit", "nickname", "gameCode", "email", "answer"].map((name) => `${name}=${digits}`);
  return { name: `${length}-character fields`, contentType: "application/x-www-form-urlencoded", body: Buffer.from(fields.join("&")) };
}

/** JSON nested 100,000 arrays deep: a recursive walk overflows the stack. */
export function deepJson(depth = 100_000): HostileRequest {
  return { name: `JSON ${depth} levels deep`, contentType: "application/json", body: Buffer.from("[".repeat(depth) + "]".repeat(depth)) };
}

/** A body far past any form's size, declared up front. */
export function oversizedBody(bytes = 5 * 1024 * 1024): HostileRequest {
  return { name: `${bytes / 1024 / 1024} MB form`, contentType: "application/x-www-form-urlencoded", body: Buffer.alloc(bytes, "a") };
}

/** The same body, chunked: its size is known only by reading it. */
export function chunkedOversizedBody(bytes = 5 * 1024 * 1024): HostileRequest {
  return { ...oversizedBody(bytes), name: `${bytes / 1024 / 1024} MB form, chunked`, chunked: true };
}

/** A multipart/form-data body of one file field (and text fields), as a browser posts it. */
export function multipartFile(name: string, fileName: string, fileType: string, data: Buffer, fields: Record<string, string> = {}): HostileRequest {
  const boundary = "----quiz-night-hostile-boundary";
  const parts: Buffer[] = [];
  for (const [field, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: ${fileType}\r\n\r\n`));
  parts.push(data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { name: `${fileName} (${Math.round(data.length / 1024)} KB)`, contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
}

/** A spreadsheet (.xlsx) of millions of tiny cells: about a megabyte packed, 400 MB unpacked. */
export function zipBombUpload(): HostileRequest {
  return {
    ...multipartFile("file", "questions.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", zipBombXlsx({ unpackedMb: 400 })),
    name: "zip bomb spreadsheet",
  };
}

export function imageBombUpload(): HostileRequest {
  return { ...multipartFile("file", "picture.png", "image/png", decompressionBombPng()), name: "decompression bomb picture" };
}

/**
 * A 40 MB quiz file of JSON (one question whose text is almost all of it): the import's own cap,
 * parsed and validated whole.
 */
export function largeQuizFile(bytes = 40 * 1024 * 1024 - 64 * 1024): HostileRequest {
  const head = '{"format":"quiz-night","version":1,"quiz":{"title":"Big","questions":[{"kind":"multiple-choice","text":"';
  const tail = '","answers":["a","b"],"correctAnswerIndex":0}]}}';
  const body = Buffer.alloc(bytes, "x");
  body.write(head, 0);
  body.write(tail, bytes - tail.length);
  return { name: `${Math.round(bytes / 1024 / 1024)} MB quiz file`, contentType: "application/json", body };
}

/** How long a hostile request waits for its answer before it counts as unanswered. */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface SentRequest {
  status: number;
  /** From the first byte sent to the whole answer read. */
  ms: number;
  body: string;
}

/**
 * Sends `request` as curl would (no Origin, optional cookie, a connection of its own, from
 * `localAddress` when given), with node:http so a chunked body and a server that answers before
 * reading it all are both handled as on the wire.
 */
export function sendHostile(
  baseUrl: string,
  pathname: string,
  request: HostileRequest,
  headers: Record<string, string> = {},
  localAddress?: string,
): Promise<SentRequest> {
  const url = new URL(pathname, baseUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      url,
      {
        method: "POST",
        localAddress,
        agent: false,
        headers: {
          "content-type": request.contentType,
          ...(request.chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(request.body.length) }),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started, body: Buffer.concat(chunks).toString() }));
        response.on("error", reject);
      },
    );
    // A server that refuses early may close the connection while the body is still going out.
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE" || error.code === "ECONNRESET") resolve({ status: 0, ms: performance.now() - started, body: error.code });
      else reject(error);
    });
    // A server whose loop is blocked answers nothing: after this long, the request counts as failed.
    outgoing.setTimeout(REQUEST_TIMEOUT_MS, () => outgoing.destroy(Object.assign(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`), { code: "TIMEOUT" })));
    if (request.chunked) {
      for (let offset = 0; offset < request.body.length; offset += 64 * 1024) outgoing.write(request.body.subarray(offset, offset + 64 * 1024));
      outgoing.end();
    } else outgoing.end(request.body);
  });
}
