/**
 * The heartbeat's rounds (issue 18). Every socket is pinged once per heartbeat interval, and a socket
 * that did not answer the last ping is ended. Pinging every socket at once is one write each: 19,000
 * sockets held the event loop for half a second every 30 s, and answers arriving meanwhile waited
 * unread. The round is spread over the interval instead: every tick (about a second) visits the next
 * share of the sockets, so each socket is still visited once per interval.
 */

/** How often a round advances: each tick visits 1/N of the sockets of an interval of N ticks. */
export const HEARTBEAT_TICK_MS = 1000;

export class HeartbeatRounds<T> {
  private cursor: Iterator<T> | null = null;
  /** Ticks per interval: each visits this share of the members. */
  readonly ticksPerRound: number;
  /** How long between ticks: the interval over the ticks per round. */
  readonly tickMs: number;

  constructor(
    private readonly members: Set<T>,
    intervalMs: number,
    private readonly visit: (member: T) => void,
  ) {
    this.ticksPerRound = Math.max(1, Math.round(intervalMs / HEARTBEAT_TICK_MS));
    this.tickMs = intervalMs / this.ticksPerRound;
  }

  /** Visits the next share of the members; a round ends when every member has been visited. */
  tick(): void {
    let left = Math.ceil(this.members.size / this.ticksPerRound);
    // A Set's iterator is live: members added during a round are visited in it, removed ones skipped.
    this.cursor ??= this.members.values();
    while (left > 0) {
      const next = this.cursor.next();
      if (next.done) {
        this.cursor = null;
        return;
      }
      this.visit(next.value);
      left--;
    }
  }
}
