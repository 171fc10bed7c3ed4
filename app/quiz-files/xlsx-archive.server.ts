/**
 * An .xlsx file is a zip archive. Before any spreadsheet library reads one, its central directory
 * (the index at the end of the file) is checked: how many entries, how large they unpack and how
 * tightly they are packed, so a zip bomb (a small file that unpacks to gigabytes) is refused from
 * the index alone, before a byte is inflated. The parts a reader needs are then inflated here, each
 * no larger than the index says (a lying index is refused too), and handed on as a new, stored
 * archive in the order a streaming reader wants them (docs/decisions/0041-heavy-work-off-the-loop.md).
 */
import { crc32, inflateRawSync } from "node:zlib";

export interface ArchiveLimits {
  /** The sum of every entry's unpacked size. */
  maxUnpackedBytes: number;
}

/** More entries than any workbook has (a few dozen for one with many sheets and pictures). */
export const MAX_ARCHIVE_ENTRIES = 2_000;
/**
 * Sheet XML packs about ten to one, rarely past a hundred; deflate's ceiling is about a thousand,
 * which is what a bomb uses. Checked on entries past RATIO_CHECK_FROM_BYTES only (a small part's
 * ratio says nothing).
 */
export const MAX_PACKING_RATIO = 200;
const RATIO_CHECK_FROM_BYTES = 1024 * 1024;

interface Entry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

export type ArchiveRefusal = { ok: false; reason: "unreadable" } | { ok: false; reason: "too-large"; unpackedBytes: number };
export type ArchiveCheck = { ok: true; entries: Entry[]; unpackedBytes: number } | ArchiveRefusal;

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record's fixed part, and the longest comment that may follow it. */
const END_RECORD_BYTES = 22;
const MAX_COMMENT_BYTES = 0xffff;

/** The archive's index, checked against the limits; nothing is inflated. */
export function checkArchive(bytes: Uint8Array, limits: ArchiveLimits): ArchiveCheck {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const unreadable = { ok: false, reason: "unreadable" } as const;
  // The end record is the last thing in the file, before a comment of at most 64 KiB.
  let end = -1;
  for (let at = view.length - END_RECORD_BYTES; at >= Math.max(0, view.length - END_RECORD_BYTES - MAX_COMMENT_BYTES); at--) {
    if (view.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return unreadable;
  const count = view.readUInt16LE(end + 10);
  const directorySize = view.readUInt32LE(end + 12);
  const directoryOffset = view.readUInt32LE(end + 16);
  // 0xffff/0xffffffff mark a zip64 archive: no workbook within our size needs one.
  if (count === 0xffff || directoryOffset === 0xffffffff || directoryOffset + directorySize > end) return unreadable;
  if (count > MAX_ARCHIVE_ENTRIES) return { ok: false, reason: "too-large", unpackedBytes: Number.POSITIVE_INFINITY };

  const entries: Entry[] = [];
  let unpackedBytes = 0;
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || view.readUInt32LE(at) !== DIRECTORY_ENTRY) return unreadable;
    const nameLength = view.readUInt16LE(at + 28);
    const entry: Entry = {
      flags: view.readUInt16LE(at + 8),
      method: view.readUInt16LE(at + 10),
      compressedSize: view.readUInt32LE(at + 20),
      uncompressedSize: view.readUInt32LE(at + 24),
      localHeaderOffset: view.readUInt32LE(at + 42),
      name: view.toString("utf8", at + 46, Math.min(end, at + 46 + nameLength)),
    };
    if (entry.compressedSize === 0xffffffff || entry.uncompressedSize === 0xffffffff) return unreadable;
    unpackedBytes += entry.uncompressedSize;
    const ratioTooHigh = entry.uncompressedSize > RATIO_CHECK_FROM_BYTES && entry.uncompressedSize > MAX_PACKING_RATIO * Math.max(1, entry.compressedSize);
    if (unpackedBytes > limits.maxUnpackedBytes || ratioTooHigh) return { ok: false, reason: "too-large", unpackedBytes };
    entries.push(entry);
    at += 46 + nameLength + view.readUInt16LE(at + 30) + view.readUInt16LE(at + 32);
  }
  return { ok: true, entries, unpackedBytes };
}

/** One entry's bytes, inflated to at most the size the index gives it; null when they are not what the index says. */
function inflateEntry(view: Buffer, entry: Entry): Buffer | null {
  const at = entry.localHeaderOffset;
  if (at + 30 > view.length || view.readUInt32LE(at) !== LOCAL_HEADER) return null;
  // Encrypted entries cannot be read.
  if (entry.flags & 0x1) return null;
  const start = at + 30 + view.readUInt16LE(at + 26) + view.readUInt16LE(at + 28);
  if (start + entry.compressedSize > view.length) return null;
  const packed = view.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return entry.compressedSize === entry.uncompressedSize ? packed : null;
  if (entry.method !== 8) return null;
  try {
    // A stream that would inflate past its declared size stops there and is refused.
    const data = inflateRawSync(packed, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
    return data.length === entry.uncompressedSize ? data : null;
  } catch {
    return null;
  }
}

const SHEET = /^xl\/worksheets\/sheet(\d{1,4})\.xml$/;
const WORKBOOK_RELS = "xl/_rels/workbook.xml.rels";
const WORKBOOK = "xl/workbook.xml";
const STYLES = "xl/styles.xml";
const SHARED_STRINGS = "xl/sharedStrings.xml";
const EMPTY_RELS = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>';
const EMPTY_SHARED_STRINGS =
  '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>';

/**
 * The parts a workbook reader needs (the workbook, its relations, styles, shared strings and each
 * sheet, in sheet order), inflated within the index's sizes and written again as a stored archive:
 * relations, workbook, styles and shared strings first, so exceljs's streaming reader reads each
 * sheet as it comes instead of spooling it to a temporary file. Every other part (pictures,
 * drawings, macros) is left out.
 */
export function workbookPartsArchive(bytes: Uint8Array, checked: { entries: Entry[] }): Buffer | ArchiveRefusal {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const byName = new Map(checked.entries.map((entry) => [entry.name, entry]));
  const sheets = checked.entries
    .map((entry) => ({ entry, number: Number(SHEET.exec(entry.name)?.[1] ?? Number.NaN) }))
    .filter((sheet) => Number.isInteger(sheet.number))
    .sort((a, b) => a.number - b.number);
  if (!byName.has(WORKBOOK) || sheets.length === 0) return { ok: false, reason: "unreadable" };

  const parts: [string, Buffer][] = [];
  const add = (name: string, fallback?: string): boolean => {
    const entry = byName.get(name);
    if (!entry) {
      if (fallback !== undefined) parts.push([name, Buffer.from(fallback)]);
      return true;
    }
    const data = inflateEntry(view, entry);
    if (data) parts.push([name, data]);
    return data !== null;
  };
  for (const [name, fallback] of [
    [WORKBOOK_RELS, EMPTY_RELS],
    [WORKBOOK, undefined],
    [STYLES, undefined],
    [SHARED_STRINGS, EMPTY_SHARED_STRINGS],
  ] as const) {
    if (!add(name, fallback)) return { ok: false, reason: "unreadable" };
  }
  for (const { entry } of sheets) if (!add(entry.name)) return { ok: false, reason: "unreadable" };
  return storedArchive(parts);
}

/** A zip archive of `parts`, stored (not compressed). */
function storedArchive(parts: [string, Buffer][]): Buffer {
  const chunks: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of parts) {
    const fileName = Buffer.from(name, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(DIRECTORY_ENTRY, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    chunks.push(local, fileName, data);
    directory.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directorySize = directory.reduce((sum, chunk) => sum + chunk.length, 0);
  const end = Buffer.alloc(END_RECORD_BYTES);
  end.writeUInt32LE(END_OF_DIRECTORY, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, ...directory, end]);
}
