/**
 * Pictures for questions: what an upload is (by its first bytes, never its name or declared type),
 * and its re-encoding into the two WebP renditions the app serves (docs/decisions/0019-pictures.md).
 * Only this module knows about sharp.
 */
import os from "node:os";
import sharp from "sharp";
import { DEFAULT_MAX_INPUT_PIXELS } from "#app/limits/heavy-limits";
import { sniffPictureFormat, UNSUPPORTED_PICTURE_MESSAGE } from "./picture-format";

export { sniffPictureFormat, UNSUPPORTED_PICTURE_MESSAGE, type PictureFormat } from "./picture-format";
import { appError, type AppError } from "#app/i18n/app-error";

export const UNREADABLE_PICTURE_MESSAGE = "This picture could not be read.";

/** The host's screen: fits inside this square, never enlarged. */
export const LARGE_MAX_SIDE = 1600;
/** Players' phones, on a venue's shared Wi-Fi. */
export const SMALL_MAX_SIDE = 480;
const LARGE_QUALITY = 80;
const SMALL_QUALITY = 70;
/** A picture's pixels past which it is refused from its header, by default (IMAGE_MAX_PIXELS; heavy-limits.ts). */
export const MAX_INPUT_PIXELS = DEFAULT_MAX_INPUT_PIXELS;

export interface ProcessedPicture {
  /** WebP fitting LARGE_MAX_SIDE. */
  large: Buffer;
  /** WebP fitting SMALL_MAX_SIDE. */
  small: Buffer;
  /** Of the large rendition, upright. */
  width: number;
  height: number;
}

/** A picture refused: its English words and its code (docs/decisions/0047-errors-as-codes.md). */
export type ProcessPictureResult = { status: "ok"; value: ProcessedPicture } | { status: "invalid"; message: string; error: AppError };

// libvips's operation cache keeps recent results for reuse; uploads never repeat, so it would only
// hold memory. One libvips thread per picture, and a few pictures at a time: the game's event loop
// keeps its cores while a host uploads a round of photos.
sharp.cache(false);
sharp.concurrency(1);
const MAX_PICTURES_AT_ONCE = Math.max(1, Math.floor(os.availableParallelism() / 2));
let running = 0;
const waiting: (() => void)[] = [];

async function withPictureSlot<T>(run: () => Promise<T>): Promise<T> {
  if (running >= MAX_PICTURES_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await run();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * Decodes an upload once (upright by its EXIF orientation, first frame of an animation), and
 * encodes the large and small WebP renditions without its metadata (a phone photo's GPS position
 * must not reach every player). A picture sharp cannot read, a truncated one, or one over
 * `maxInputPixels` (IMAGE_MAX_PIXELS, default MAX_INPUT_PIXELS) is invalid.
 */
export async function processPicture(data: Uint8Array, maxInputPixels = MAX_INPUT_PIXELS): Promise<ProcessPictureResult> {
  if (!sniffPictureFormat(data)) return { status: "invalid", message: UNSUPPORTED_PICTURE_MESSAGE, error: appError("PICTURE_UNSUPPORTED") };
  try {
    return await withPictureSlot(async () => {
      // "error" refuses truncated and corrupt pixel data; "warning" would also refuse the many
      // phone photos whose decoders grumble about harmless oddities.
      const decoded = await sharp(data, { limitInputPixels: maxInputPixels, failOn: "error", autoOrient: true, pages: 1 })
        .resize(LARGE_MAX_SIDE, LARGE_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
        .raw()
        .toBuffer({ resolveWithObject: true });
      const { width, height, channels } = decoded.info;
      const raw = { raw: { width, height, channels } };
      // Both renditions come from the same decoded pixels: the original is decoded once, and the
      // small one is not a re-compression of the large one's artefacts.
      const [large, small] = await Promise.all([
        sharp(decoded.data, raw).webp({ quality: LARGE_QUALITY }).toBuffer(),
        sharp(decoded.data, raw)
          .resize(SMALL_MAX_SIDE, SMALL_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
          .webp({ quality: SMALL_QUALITY })
          .toBuffer(),
      ]);
      return { status: "ok" as const, value: { large, small, width, height } };
    });
  } catch {
    // sharp's messages name libvips internals; the uploader needs to know only that it failed.
    return { status: "invalid", message: UNREADABLE_PICTURE_MESSAGE, error: appError("PICTURE_UNREADABLE") };
  }
}
