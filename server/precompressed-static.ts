/**
 * The build's static files, served in the smallest form the browser accepts: `npm run build`
 * writes a brotli (quality 11) and a gzip (level 9) copy beside each text file
 * (scripts/precompress.ts), far smaller than what `compression` makes on the fly at its fast
 * settings, and free to serve. A browser that takes neither gets the file itself.
 *
 * Only files found beside their copies when the server starts are served compressed, so nothing
 * outside that list is ever looked up, and a copy older than its file is never sent.
 */
import fs from "node:fs";
import path from "node:path";
import express, { type RequestHandler, type Response } from "express";

/** The encodings written beside each file, best first, with their file extension. */
export const PRECOMPRESSED_ENCODINGS = [
  { encoding: "br", extension: ".br" },
  { encoding: "gzip", extension: ".gz" },
] as const;

export type PrecompressedEncoding = (typeof PRECOMPRESSED_ENCODINGS)[number]["encoding"];

/** Text worth compressing ahead of time; pictures and fonts are compressed already. */
export const COMPRESSIBLE_FILE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml|map)$/i;

/**
 * Which of `available` (best first) an `Accept-Encoding` header takes: the first one it lists, or
 * covers with `*`, at a weight above zero. Browsers weigh the encodings they list alike, so the
 * server's order decides, as `compression` does.
 */
export function chooseEncoding<Encoding extends string>(acceptEncoding: string | undefined, available: readonly Encoding[]): Encoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...parameters] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  let best: Encoding | null = null;
  let bestWeight = 0;
  for (const encoding of available) {
    const weight = weights.get(encoding) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

/** Each file under `root` (as a URL path, `/assets/x.js`) that has compressed copies, with their encodings, best first. */
export function findPrecompressed(root: string): Map<string, PrecompressedEncoding[]> {
  const found = new Map<string, PrecompressedEncoding[]>();
  if (!fs.existsSync(root)) return found;
  const files = new Set(fs.readdirSync(root, { recursive: true, encoding: "utf8" }).map((file) => file.split(path.sep).join("/")));
  for (const file of files) {
    const encodings = PRECOMPRESSED_ENCODINGS.filter(({ extension }) => files.has(file + extension)).map(({ encoding }) => encoding);
    if (encodings.length > 0) found.set(`/${file}`, encodings);
  }
  return found;
}

/**
 * A copy is sent only while it is at least as new as its file: one gone since the server started,
 * or left behind by a file changed in place (sw.js edited by hand, a deploy copied over a running
 * server), would send what is no longer there.
 */
async function isCurrentCopy(file: string, copy: string): Promise<boolean> {
  try {
    const [original, compressed] = await Promise.all([fs.promises.stat(file), fs.promises.stat(copy)]);
    return compressed.mtimeMs >= original.mtimeMs;
  } catch {
    return false;
  }
}

export interface StaticFilesOptions {
  /** As express.static's: how long browsers keep a file. */
  maxAge?: string | number;
  immutable?: boolean;
  /** Headers of one file, by its path (the uncompressed one's), set before it is sent. */
  setHeaders?: (res: Response, file: string) => void;
}

/**
 * express.static for `root`, with each file that has compressed copies sent as the best one the
 * request accepts (`Content-Encoding`, the file's own `Content-Type`, `Vary: Accept-Encoding`),
 * with the same cache headers.
 */
export function staticFiles(directory: string, options: StaticFilesOptions = {}): RequestHandler {
  const root = path.resolve(directory);
  const precompressed = findPrecompressed(root);
  const { setHeaders, ...cache } = options;
  const plain = express.static(root, { ...cache, setHeaders: setHeaders && ((res, file) => setHeaders(res, file)) });
  return (req, res, next) => {
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(req.path);
    } catch {
      return plain(req, res, next);
    }
    const encodings = req.method === "GET" || req.method === "HEAD" ? precompressed.get(urlPath) : undefined;
    if (!encodings) return plain(req, res, next);
    res.vary("Accept-Encoding");
    const encoding = chooseEncoding(req.headers["accept-encoding"], encodings);
    if (!encoding) return plain(req, res, next);
    const file = path.join(root, urlPath);
    const copy = file + PRECOMPRESSED_ENCODINGS.find((entry) => entry.encoding === encoding)!.extension;
    void isCurrentCopy(file, copy).then((current) => {
      if (!current) return plain(req, res, next);
      res.type(path.extname(file));
      res.setHeader("Content-Encoding", encoding);
      setHeaders?.(res, file);
      res.sendFile(copy, cache, (error?: NodeJS.ErrnoException) => {
        // Sent, or the browser went away meanwhile.
        if (!error || res.headersSent || error.code === "ECONNABORTED") return;
        res.removeHeader("Content-Encoding");
        res.removeHeader("Content-Type");
        next(error);
      });
    });
  };
}
