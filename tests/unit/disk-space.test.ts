/** Uploads are refused below a free-disk floor, read with statfs at most every 5 s (app/limits/disk-space.server.ts). */
import os from "node:os";
import { describe, expect, it } from "vitest";
import { DiskSpace, readFreeBytes } from "#app/limits/disk-space.server";

describe("DiskSpace", () => {
  it("reads the real free space of a directory's file system", async () => {
    expect(await readFreeBytes(os.tmpdir())).toBeGreaterThan(0);
  });

  it("has room while the disk's free space is at or above the floor, and not below it", async () => {
    let free = 1000;
    const clock = { now: 0 };
    const disk = new DiskSpace(
      "/data",
      500,
      async () => free,
      () => clock.now,
    );
    expect(await disk.hasRoomForUploads()).toBe(true);
    free = 499;
    // One reading serves a burst of uploads.
    expect(await disk.hasRoomForUploads()).toBe(true);
    clock.now += 5_001;
    expect(await disk.hasRoomForUploads()).toBe(false);
  });

  it("never refuses with a floor of 0, nor when the disk cannot be read", async () => {
    const unreadable = async () => {
      throw new Error("EACCES");
    };
    expect(await new DiskSpace("/data", 0, async () => 0).hasRoomForUploads()).toBe(true);
    expect(await new DiskSpace("/data", 500, unreadable).hasRoomForUploads()).toBe(true);
  });
});
