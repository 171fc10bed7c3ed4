/**
 * Runs `fn` at most once per `intervalMs`, at the trailing edge: many `request()` calls within
 * one interval cost one run. Used for lobby updates and the host's live answer counts.
 */
export class Throttle {
  private timer: NodeJS.Timeout | null = null;
  private lastRun = -Infinity;

  constructor(
    private readonly intervalMs: number,
    private readonly fn: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  request(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastRun + this.intervalMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.lastRun = this.now();
      this.fn();
    }, wait);
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
