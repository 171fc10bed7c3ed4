/**
 * Files a stranger could send to make the server do work out of all proportion to their size,
 * written by hand so that making them costs the test almost nothing: a zip bomb dressed as an
 * .xlsx (a sheet of millions of tiny cells) and a decompression-bomb PNG (a huge canvas in a small
 * file). Both use the same trick: deflate one block of the repeated content once, with a full
 * flush so it depends on nothing before it, and repeat its bytes.
 */
import { constants, deflateRawSync } from "node:zlib";

/** Raw deflate of `prefix`, then `chunk` `times` times, then `suffix`, without ever holding the whole. */
function repeatedDeflate(prefix: Buffer, chunk: Buffer, times: number, suffix: Buffer): Buffer {
  const flush = { finishFlush: constants.Z_FULL_FLUSH };
  const head = deflateRawSync(prefix, flush);
  const body = deflateRawSync(chunk, flush);
  const tail = deflateRawSync(suffix);
  return Buffer.concat([head, ...Array.from({ length: times }, () => body), tail]);
}

interface ZipPart {
  name: string;
  /** Raw deflate data. */
  packed: Buffer;
  /** What the index says it unpacks to. */
  declaredSize: number;
}

/** A zip archive of deflated parts (CRCs left zero: the readers refuse or die before they check them). */
function zipOf(parts: ZipPart[]): Buffer {
  const chunks: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(part.packed.length, 18);
    local.writeUInt32LE(part.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(part.packed.length, 20);
    central.writeUInt32LE(part.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    chunks.push(local, name, part.packed);
    directory.push(central, name);
    offset += local.length + name.length + part.packed.length;
  }
  const size = directory.reduce((sum, chunk) => sum + chunk.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, ...directory, end]);
}

const part = (name: string, text: string): ZipPart => ({ name, packed: deflateRawSync(text), declaredSize: Buffer.byteLength(text) });

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELS = "http://schemas.openxmlformats.org/package/2006/relationships";

/**
 * An .xlsx whose one sheet unpacks to about `unpackedMb` MB of one-cell rows (about 25 bytes each:
 * twelve million cells for 300 MB), packed about a thousand to one. With `lie`, its index says the
 * sheet is 10 KB, as a bomb made to pass a check of the index would.
 */
export function zipBombXlsx({ unpackedMb, lie = false }: { unpackedMb: number; lie?: boolean }): Buffer {
  const row = '<row r="1"><c r="A1"><v>1</v></c></row>';
  const chunk = Buffer.from(row.repeat(Math.floor((1024 * 1024) / row.length)));
  const prefix = Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${MAIN}"><sheetData>`);
  const suffix = Buffer.from("</sheetData></worksheet>");
  const sheet = repeatedDeflate(prefix, chunk, unpackedMb, suffix);
  const sheetSize = prefix.length + chunk.length * unpackedMb + suffix.length;
  return zipOf([
    part(
      "[Content_Types].xml",
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    ),
    part(
      "_rels/.rels",
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    part(
      "xl/workbook.xml",
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Quiz" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    part(
      "xl/_rels/workbook.xml.rels",
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    { name: "xl/worksheets/sheet1.xml", packed: sheet, declaredSize: lie ? 10 * 1024 : sheetSize },
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** CRC-32 as PNG chunks use it. */
function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A PNG of `side` x `side` black pixels (one bit each): 20,000 x 20,000 is 400 megapixels, 1.2 GB
 * once decoded to RGB, in about 50 KB.
 */
export function decompressionBombPng(side = 20_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  // Each row: a filter byte and side / 8 bytes of pixels, all zero.
  const rowBytes = 1 + Math.ceil(side / 8);
  const rowsPerChunk = 100;
  const raw = repeatedDeflate(Buffer.alloc(0), Buffer.alloc(rowBytes * rowsPerChunk), Math.ceil(side / rowsPerChunk), Buffer.alloc(0));
  // zlib's wrapper: its header, and the Adler-32 of all those zeros (a = 1, b = their count).
  const total = rowBytes * rowsPerChunk * Math.ceil(side / rowsPerChunk);
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((total % 65521) << 16) | 1) >>> 0);
  const idat = Buffer.concat([Buffer.from([0x78, 0x9c]), raw, adler]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", idat),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}
