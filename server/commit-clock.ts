/**
 * The one timer every game's waiting group commit runs on (issue 18, docs/decisions/0035-one-writer.md).
 *
 * A game that has answers to store waits up to the commit interval so it stores them together. With
 * a timer per game, hundreds of games fall due at scattered moments and the shared writer sees a few
 * of them per transaction; on one clock, every game due in an interval flushes in the same turn of
 * the event loop, so their batches share one transaction (one COMMIT, one fsync). A game's wait is at
 * most the interval, as before, and shorter when it joins a tick already under way.
 */
export class CommitClock {
  private readonly due = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly intervalMs: number) {}

  /** Runs `flush` at the clock's next tick, together with every other flush due then; once however often it is asked. */
  schedule(flush: () => void): void {
    this.due.add(flush);
    this.timer ??= setTimeout(this.tick, this.intervalMs);
  }

  /** `flush` no longer runs at the next tick. */
  cancel(flush: () => void): void {
    if (!this.due.delete(flush) || this.due.size > 0 || !this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
  }

  private readonly tick = (): void => {
    this.timer = null;
    const due = [...this.due];
    this.due.clear();
    for (const flush of due) flush();
  };
}
