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
import zlib from "node:zlib";

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

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer, crc = 0): number {
  crc = ~crc >>> 0;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}

interface ZipEntry {
  name: string;
  data: Buffer;
  /** The size the entry unpacks to, and its checksum. */
  size: number;
  crc: number;
}

/** A zip archive of deflated entries, written by hand so an entry can unpack to far more than it holds. */
function zipArchive(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(entry.crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(entry.crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

function deflatedEntry(name: string, text: string): ZipEntry {
  const data = Buffer.from(text);
  return { name, data: zlib.deflateRawSync(data), size: data.length, crc: crc32(data) };
}

/**
 * Deflated data of `head`, then `repeat` written `times` times, then `tail`, never whole in memory:
 * the repeated piece is deflated once with a sync flush (a stream that does not end and refers to
 * nothing before it), so its bytes can be written again and again, and the tail ends the stream.
 */
function deflatedRepeat(head: Buffer, repeat: Buffer, times: number, tail: Buffer): { data: Buffer; size: number; crc: number } {
  const open = { finishFlush: zlib.constants.Z_SYNC_FLUSH, level: 9 };
  const piece = zlib.deflateRawSync(repeat, open);
  const parts = [zlib.deflateRawSync(head, open)];
  let crc = crc32(head);
  for (let i = 0; i < times; i++) {
    parts.push(piece);
    crc = crc32(repeat, crc);
  }
  parts.push(zlib.deflateRawSync(tail));
  crc = crc32(tail, crc);
  return { data: Buffer.concat(parts), size: head.length + repeat.length * times + tail.length, crc };
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Questions" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;

/**
 * A spreadsheet (.xlsx) whose one sheet is millions of tiny cells: under a megabyte packed, about
 * `unpackedMegabytes` unpacked. `honest` false writes a central directory that claims a small size,
 * as an attacker would to pass a check of the directory alone.
 */
export function zipBombSpreadsheet(unpackedMegabytes = 400, honest = true): Buffer {
  const cell = '<c r="A1" t="inlineStr"><is><t>x</t></is></c>';
  const cells = Buffer.from(cell.repeat(Math.floor((1 << 20) / cell.length)));
  const sheet: ZipEntry = {
    name: "xl/worksheets/sheet1.xml",
    ...deflatedRepeat(
      Buffer.from(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">',
      ),
      cells,
      unpackedMegabytes,
      Buffer.from("</row></sheetData></worksheet>"),
    ),
  };
  const claimed = honest ? sheet : { ...sheet, size: 4096 };
  return zipArchive([
    deflatedEntry("[Content_Types].xml", CONTENT_TYPES),
    deflatedEntry("_rels/.rels", ROOT_RELS),
    deflatedEntry("xl/workbook.xml", WORKBOOK),
    deflatedEntry("xl/_rels/workbook.xml.rels", WORKBOOK_RELS),
    claimed,
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG of `side` × `side` black pixels (400 megapixels by default) in a few hundred kilobytes:
 * decoding it whole takes as many bytes as it has pixels.
 */
export function decompressionBombPng(side = 20_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  // Every row is its filter byte and its pixels, all zero.
  const row = Buffer.alloc(side + 1);
  const rows = deflatedRepeat(Buffer.alloc(0), row, side, Buffer.alloc(0)).data;
  // The zlib wrapper around the raw stream: its header, then Adler-32 of the data, which for n zero
  // bytes is a = 1, b = n mod 65521.
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((((row.length * side) % 65521) << 16) | 1) >>> 0);
  const idat = Buffer.concat([Buffer.from([0x78, 0xda]), rows, adler]);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk("IHDR", header), pngChunk("IDAT", idat), pngChunk("IEND", Buffer.alloc(0))]);
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

export function zipBombUpload(): HostileRequest {
  return {
    ...multipartFile("file", "questions.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", zipBombSpreadsheet()),
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
