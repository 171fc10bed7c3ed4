/**
 * Last step of `npm run build` for the browser's files: writes a brotli (quality 11) and a gzip
 * (level 9) copy beside each text file in build/client (after the service worker, so sw.js is one
 * of them), which server/precompressed-static.ts sends to browsers that accept them. Slow
 * settings cost nothing here and save a phone about a tenth of every script over `compression`'s
 * on-the-fly brotli at quality 4.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { COMPRESSIBLE_FILE, PRECOMPRESSED_ENCODINGS, type PrecompressedEncoding } from "#server/precompressed-static";

const CLIENT_DIR = path.resolve(process.argv[2] ?? "build/client");

const compressors: Record<PrecompressedEncoding, (data: Buffer) => Buffer> = {
  br: (data) =>
    zlib.brotliCompressSync(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gzip: (data) => zlib.gzipSync(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
};

let files = 0;
let before = 0;
let after = 0;
for (const entry of fs.readdirSync(CLIENT_DIR, { recursive: true, encoding: "utf8" })) {
  const file = path.join(CLIENT_DIR, entry);
  if (!COMPRESSIBLE_FILE.test(file) || !fs.statSync(file).isFile()) continue;
  const data = fs.readFileSync(file);
  for (const { encoding, extension } of PRECOMPRESSED_ENCODINGS) {
    const compressed = compressors[encoding](data);
    // A copy no smaller than the file (an empty chunk, a few bytes) would only cost a lookup.
    if (compressed.length >= data.length) continue;
    fs.writeFileSync(file + extension, compressed);
    if (encoding === "br") {
      files++;
      before += data.length;
      after += compressed.length;
    }
  }
}
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
console.log(`[precompress] ${files} files in ${path.relative(process.cwd(), CLIENT_DIR)}: ${kib(before)}, ${kib(after)} as brotli; gzip copies beside them`);
