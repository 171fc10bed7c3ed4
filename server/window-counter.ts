/**
 * Counts per key in fixed windows, for the game socket's join limits (server/socket/join-limits.ts) and the failed
 * game-code lookups of an address (server/code-lookups.ts): one map and one
 * sweep for every key. rate-limiter-flexible's memory store, used here before, arms a timer with a
 * closure for each key; with every phone on its own address that was about a kilobyte per player,
 * held for as long as the window (issue 18, docs/decisions/0037-no-object-per-message.md). The HTTP
 * limits keep the library and its SQLite store (app/limits/rate-limits.server.ts).
 */

/** A key's count and the end of its window, in whole seconds since the counter began (small integers). */
interface Window {
  count: number;
  endsAt: number;
}

export class WindowCounter {
  private readonly windows = new Map<string, Window>();
  private readonly startedAt: number;
  private readonly sweeper: NodeJS.Timeout;

  /** Each key's window opens at its first count and lasts `windowSeconds`. */
  constructor(
    private readonly windowSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
    // Ended windows leave the map once per window length; an ended window still there counts as empty.
    this.sweeper = setInterval(() => this.sweep(), windowSeconds * 1000);
    this.sweeper.unref();
  }

  private seconds(): number {
    return Math.floor((this.now() - this.startedAt) / 1000);
  }

  /** The key's count in its current window (0 when it has none). */
  count(key: string): number {
    const window = this.windows.get(key);
    return window && window.endsAt > this.seconds() ? window.count : 0;
  }

  /** Seconds until the key's window ends (0 when it has none): how long a refused caller waits. */
  secondsLeft(key: string): number {
    const window = this.windows.get(key);
    return window ? Math.max(0, window.endsAt - this.seconds()) : 0;
  }

  /** Counts one for `key` when it is under `limit` in its window; false, counting nothing, when it is not. */
  take(key: string, limit: number): boolean {
    const now = this.seconds();
    const window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      if (limit < 1) return false;
      this.windows.set(key, { count: 1, endsAt: now + this.windowSeconds });
      return true;
    }
    if (window.count >= limit) return false;
    window.count++;
    return true;
  }

  /** Counts one for `key` whatever its count. */
  add(key: string): void {
    const now = this.seconds();
    const window = this.windows.get(key);
    if (!window || window.endsAt <= now) this.windows.set(key, { count: 1, endsAt: now + this.windowSeconds });
    else window.count++;
  }

  /** Keys with a window, ended or not (for tests). */
  get size(): number {
    return this.windows.size;
  }

  sweep(): void {
    const now = this.seconds();
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }

  stop(): void {
    clearInterval(this.sweeper);
  }
}
