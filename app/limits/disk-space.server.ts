/**
 * The free space on the database's disk (issue 26, hole 7): uploads are refused while it is below
 * a floor (MIN_FREE_DISK_MB), so pictures can never take the room a game's commits need. Game
 * commits never ask (docs/decisions/0042-limits-that-mean-what-they-say.md).
 */
import { statfs } from "node:fs/promises";

/** Bytes an unprivileged process may still write on the file system holding `dir`. */
export type FreeBytesReader = (dir: string) => Promise<number>;

export const readFreeBytes: FreeBytesReader = async (dir) => {
  const stats = await statfs(dir);
  return stats.bavail * stats.bsize;
};

/** How long one reading is trusted: uploads in a burst ask the disk once. */
const READING_TTL_MS = 5_000;

export class DiskSpace {
  private reading: { at: number; freeBytes: number } | null = null;

  /** `floorBytes` 0: never refuses. */
  constructor(
    private readonly dir: string,
    readonly floorBytes: number,
    private readonly read: FreeBytesReader = readFreeBytes,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the disk has more than the floor free; a disk that cannot be read is given the benefit of the doubt. */
  async hasRoomForUploads(): Promise<boolean> {
    if (this.floorBytes <= 0) return true;
    const now = this.now();
    if (!this.reading || now - this.reading.at > READING_TTL_MS) {
      try {
        this.reading = { at: now, freeBytes: await this.read(this.dir) };
      } catch {
        return true;
      }
    }
    return this.reading.freeBytes >= this.floorBytes;
  }
}
