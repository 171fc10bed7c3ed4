/**
 * Uploads are recognised by content and re-encoded into two upright, metadata-free WebP
 * renditions; anything else is refused with a message. Inputs are real pictures made by sharp.
 */
import zlib from "node:zlib";
import sharp, { type Colour } from "sharp";
import { describe, expect, it } from "vitest";
import {
  MAX_INPUT_PIXELS,
  processPicture,
  sniffPictureFormat,
  UNREADABLE_PICTURE_MESSAGE,
  UNSUPPORTED_PICTURE_MESSAGE,
  type ProcessedPicture,
} from "#app/pictures/image-processing.server";
import { describeBytes, overStorageMessage, pictureTooLargeMessage, storageLimitFor } from "#app/pictures/storage-limits";

const red = { r: 200, g: 30, b: 30 };

function canvas(width: number, height: number, background: Colour = red) {
  return sharp({ create: { width, height, channels: 3, background } });
}

/** Random pixels: they do not compress, so the file is long enough to cut in half meaningfully. */
function noise(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: red, noise: { type: "gaussian", mean: 128, sigma: 40 } } });
}

async function processed(data: Uint8Array): Promise<ProcessedPicture> {
  const result = await processPicture(data);
  if (result.status !== "ok") throw new Error(`expected a picture, got: ${result.message}`);
  return result.value;
}

describe("sniffPictureFormat", () => {
  it("knows PNG, JPEG, GIF and WebP by their first bytes", async () => {
    expect(sniffPictureFormat(await canvas(4, 4).png().toBuffer())).toBe("png");
    expect(sniffPictureFormat(await canvas(4, 4).jpeg().toBuffer())).toBe("jpeg");
    expect(sniffPictureFormat(await canvas(4, 4).gif().toBuffer())).toBe("gif");
    expect(sniffPictureFormat(await canvas(4, 4).webp().toBuffer())).toBe("webp");
    expect(sniffPictureFormat(Buffer.from("GIF87a"))).toBe("gif");
  });

  it("knows nothing else, whatever the file is called", async () => {
    expect(sniffPictureFormat(Buffer.from("just some text, saved as notes.png\n"))).toBeNull();
    expect(sniffPictureFormat(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffPictureFormat(await canvas(4, 4).tiff().toBuffer())).toBeNull();
    // A RIFF container that is not WebP (a WAV sound).
    expect(sniffPictureFormat(Buffer.from("RIFF\x24\x00\x00\x00WAVEfmt ", "latin1"))).toBeNull();
    expect(sniffPictureFormat(new Uint8Array([0x89, 0x50, 0x4e]))).toBeNull();
    expect(sniffPictureFormat(new Uint8Array())).toBeNull();
  });
});

describe("processPicture", () => {
  it("fits a 3000x2000 PNG into a 1600x1067 WebP, and a 480x320 small one", async () => {
    const picture = await processed(await canvas(3000, 2000).png().toBuffer());
    expect([picture.width, picture.height]).toEqual([1600, 1067]);
    const large = await sharp(picture.large).metadata();
    const small = await sharp(picture.small).metadata();
    expect([large.format, large.width, large.height]).toEqual(["webp", 1600, 1067]);
    expect([small.format, small.width, small.height]).toEqual(["webp", 480, 320]);
    expect(sniffPictureFormat(picture.large)).toBe("webp");
  });

  it("never enlarges a small picture", async () => {
    const picture = await processed(await canvas(300, 200).png().toBuffer());
    expect([picture.width, picture.height]).toEqual([300, 200]);
    const small = await sharp(picture.small).metadata();
    expect([small.width, small.height]).toEqual([300, 200]);
  });

  it("takes JPEG, WebP and GIF too, keeping transparency", async () => {
    for (const input of [await canvas(800, 600).jpeg().toBuffer(), await canvas(800, 600).webp().toBuffer(), await canvas(800, 600).gif().toBuffer()]) {
      const picture = await processed(input);
      expect([picture.width, picture.height]).toEqual([800, 600]);
      expect((await sharp(picture.large).metadata()).format).toBe("webp");
    }
    const seeThrough = await processed(
      await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
        .png()
        .toBuffer(),
    );
    expect((await sharp(seeThrough.large).metadata()).hasAlpha).toBe(true);
  });

  it("keeps the first frame of an animated GIF", async () => {
    const frames = [await canvas(120, 80, red).png().toBuffer(), await canvas(120, 80, { r: 0, g: 0, b: 255 }).png().toBuffer()];
    const animated = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(2);
    const picture = await processed(animated);
    expect([picture.width, picture.height]).toEqual([120, 80]);
    const { pages } = await sharp(picture.large).metadata();
    expect(pages ?? 1).toBe(1);
    const { dominant } = await sharp(picture.large).stats();
    expect(dominant.r).toBeGreaterThan(dominant.b);
  });

  it("turns a phone photo upright by its EXIF orientation and drops its metadata", async () => {
    // Stored landscape with orientation 6: the camera was held upright, so it shows as portrait.
    const photo = await canvas(300, 100)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: "PhoneCo", Model: "Pocket 9" } })
      .toBuffer();
    expect((await sharp(photo).metadata()).orientation).toBe(6);
    const picture = await processed(photo);
    expect([picture.width, picture.height]).toEqual([100, 300]);
    const large = await sharp(picture.large).metadata();
    expect([large.width, large.height]).toEqual([100, 300]);
    expect(large.exif).toBeUndefined();
    expect(large.orientation).toBeUndefined();
  });

  it("refuses a text file renamed .png", async () => {
    expect(await processPicture(Buffer.from("not a picture at all, just a file called cat.png"))).toEqual({
      status: "invalid",
      message: UNSUPPORTED_PICTURE_MESSAGE,
      error: { code: "PICTURE_UNSUPPORTED" },
    });
  });

  it("refuses a truncated file", async () => {
    for (const whole of [await noise(400, 300).png().toBuffer(), await noise(400, 300).jpeg().toBuffer()]) {
      const cut = whole.subarray(0, Math.floor(whole.length / 2));
      expect(sniffPictureFormat(cut)).not.toBeNull();
      expect(await processPicture(cut)).toEqual({ status: "invalid", message: UNREADABLE_PICTURE_MESSAGE, error: { code: "PICTURE_UNREADABLE" } });
    }
  });

  it("refuses garbage behind a picture's magic bytes", async () => {
    const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 7)]);
    expect(await processPicture(fake)).toEqual({ status: "invalid", message: UNREADABLE_PICTURE_MESSAGE, error: { code: "PICTURE_UNREADABLE" } });
  });

  it("refuses a decompression bomb from its header, before decoding it", async () => {
    // A real 10x10 PNG whose header claims 10,000 x 10,000 pixels (100 megapixels).
    const png = Buffer.from(await canvas(10, 10).png().toBuffer());
    const ihdr = 8 + 4; // signature, then the IHDR chunk's length
    png.writeUInt32BE(10_000, ihdr + 4);
    png.writeUInt32BE(10_000, ihdr + 8);
    png.writeUInt32BE(zlib.crc32(png.subarray(ihdr, ihdr + 4 + 13)), ihdr + 4 + 13);
    expect(10_000 * 10_000).toBeGreaterThan(MAX_INPUT_PIXELS);
    const started = Date.now();
    expect(await processPicture(png)).toEqual({ status: "invalid", message: UNREADABLE_PICTURE_MESSAGE, error: { code: "PICTURE_UNREADABLE" } });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("storage limits", () => {
  const MB = 1024 * 1024;

  it("gives each plan its storage, and guests and browsers without an account 20 MB", () => {
    expect(storageLimitFor("free", false)).toBe(50 * MB);
    expect(storageLimitFor("Standard", false)).toBe(500 * MB);
    expect(storageLimitFor("premium", false)).toBe(2048 * MB);
    expect(storageLimitFor("premium", true)).toBe(20 * MB);
    expect(storageLimitFor(null, false)).toBe(20 * MB);
    // A tier whose plan was renamed or removed.
    expect(storageLimitFor("gold", false)).toBe(50 * MB);
  });

  it("describes sizes the way people read them", () => {
    expect(describeBytes(50 * MB)).toBe("50 MB");
    expect(describeBytes(49.8 * MB)).toBe("49.8 MB");
    expect(describeBytes(2048 * MB)).toBe("2 GB");
    expect(describeBytes(312 * 1024)).toBe("312 KB");
    expect(describeBytes(900)).toBe("900 bytes");
    expect(pictureTooLargeMessage()).toBe("Pictures can be at most 5 MB.");
    expect(overStorageMessage(49.8 * MB, 50 * MB)).toBe("Your pictures use 49.8 MB of your 50 MB. Delete a quiz with pictures or upgrade your plan.");
  });
});
