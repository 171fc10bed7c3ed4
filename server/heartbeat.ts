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
  private cursor: Iterator<T> = [].values();
  /** Ticks of the current round so far. */
  private ticksDone = 0;
  /** Members each tick of the current round visits: its members at its start over its ticks. */
  private share = 0;
  /** Ticks per interval: a round of visits takes exactly this many. */
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

  /**
   * Visits the next share of the members. A round starts every `ticksPerRound` ticks, so each member
   * is visited once per interval; its last tick visits whoever is left, members who joined during
   * the round included (a Set's iterator is live: removed members are skipped).
   */
  tick(): void {
    if (this.ticksDone === 0) {
      this.cursor = this.members.values();
      this.share = Math.ceil(this.members.size / this.ticksPerRound);
    }
    this.ticksDone++;
    const lastOfRound = this.ticksDone === this.ticksPerRound;
    if (lastOfRound) this.ticksDone = 0;
    for (let left = lastOfRound ? Infinity : this.share; left > 0; left--) {
      const next = this.cursor.next();
      if (next.done) return;
      this.visit(next.value);
    }
  }
}
