/**
 * A room's own timers, which die with it: each lobby player's grace period to come back after a
 * drop, and the phase's deadline (a question's end, the results', the leaderboard's).
 */
export class RoomTimers {
  private readonly graceTimers = new Map<number, NodeJS.Timeout>();
  private phaseTimer: NodeJS.Timeout | null = null;

  constructor(
    /** A player's grace ran out (the room checks whether it came back). */
    private readonly onGraceOver: (playerId: number) => void,
    /** The phase's deadline came. */
    private readonly onDeadline: () => void,
  ) {}

  startGrace(playerId: number, graceMs: number): void {
    this.cancelGrace(playerId);
    const timer = setTimeout(() => {
      this.graceTimers.delete(playerId);
      this.onGraceOver(playerId);
    }, graceMs);
    timer.unref?.();
    this.graceTimers.set(playerId, timer);
  }

  cancelGrace(playerId: number): void {
    const timer = this.graceTimers.get(playerId);
    if (timer) clearTimeout(timer);
    this.graceTimers.delete(playerId);
  }

  /** The game started: nobody leaves the lobby by a grace running out any more. */
  cancelAllGrace(): void {
    for (const playerId of this.graceTimers.keys()) this.cancelGrace(playerId);
  }

  /** The phase timer, set again for the state's deadline (none: no timer). */
  armPhase(deadline: number | null, now: number): void {
    if (this.phaseTimer) clearTimeout(this.phaseTimer);
    this.phaseTimer = null;
    if (deadline === null) return;
    this.phaseTimer = setTimeout(this.onDeadline, Math.max(0, deadline - now));
  }

  cancel(): void {
    if (this.phaseTimer) clearTimeout(this.phaseTimer);
    this.phaseTimer = null;
    for (const timer of this.graceTimers.values()) clearTimeout(timer);
    this.graceTimers.clear();
  }
}
