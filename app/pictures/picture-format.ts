/**
 * What an upload is, by its first bytes, never its name or declared type. Without sharp, so that
 * checking an imported quiz file's pictures (in a worker thread) does not load it.
 */

export type PictureFormat = "png" | "jpeg" | "gif" | "webp";

export const UNSUPPORTED_PICTURE_MESSAGE = "Pictures must be PNG, JPEG, WebP or GIF.";

/** The format the content's magic bytes announce, or null for anything else. */
export function sniffPictureFormat(data: Uint8Array): PictureFormat | null {
  const startsWith = (bytes: number[], at = 0) => data.length >= at + bytes.length && bytes.every((byte, i) => data[at + i] === byte);
  const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith([0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(ascii("GIF87a")) || startsWith(ascii("GIF89a"))) return "gif";
  if (startsWith(ascii("RIFF")) && startsWith(ascii("WEBP"), 8)) return "webp";
  return null;
}
