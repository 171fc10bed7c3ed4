/**
 * A node's drain: what it does between SIGTERM and its exit (issue 28, rolling deploys;
 * docs/decisions/0054-limits-across-nodes.md, "Drain"). From the signal on:
 *
 * 1. `/readyz` answers 503, so the balancer sends the node no new work (`/healthz`, liveness, is
 *    unchanged: the node is not dead, and must not be restarted for draining);
 * 2. a new socket for a game the node does not hold is closed with 4000 ("server restarting") as
 *    soon as it opens, and its browser reconnects, to another node;
 * 3. the node keeps serving its live games while `handOverGames` runs, within DRAIN_SECONDS;
 * 4. then the shutdown of every stop (server.ts, `close`) saves what is pending and closes the
 *    sockets with 4000, within SHUTDOWN_SECONDS.
 *
 * The exit deadline is their sum: DRAIN_SECONDS + SHUTDOWN_SECONDS must fit the grace period the
 * process gets after SIGTERM (docs/configuration.md).
 */

/** What the drain needs of the game hub: how many games this node holds, whether it holds one, and how to hand them over. */
export interface DrainingHub {
  readonly roomCount: number;
  liveRoom(gameCode: string): unknown;
  /** Whether another node can take this node's games (a cluster on PostgreSQL). */
  readonly clustered: boolean;
  /** Hands every game over at its next safe point, `deadlineMs` from now at the latest (server/game-hub.ts). */
  handOverAll(deadlineMs: number): Promise<void>;
}

/**
 * The longest the save-and-close of a stop takes before the process exits anyway: 8 s, inside the
 * 10 s Docker and systemd give by default, as before issue 28.
 */
export const SHUTDOWN_SECONDS = 8;

/**
 * DRAIN_SECONDS by default: 20 in a cluster (DATABASE_URL), so 20 + SHUTDOWN_SECONDS = 28 s fits
 * the 30 s Kubernetes and most orchestrators give; 0 for one node on SQLite, which has no other
 * node to hand its games to and stops at once, as before (within Docker's 10 s).
 */
export function defaultDrainSeconds(clustered: boolean): number {
  return clustered ? 20 : 0;
}

/** How often a node alone looks whether games are left. */
const DRAIN_POLL_MS = 250;

/**
 * THE place where a draining node hands its games over, and the only one: the rest of the drain
 * (readiness, refusing new sockets, the shutdown after it) does not change when this does.
 *
 * In a cluster, each game is handed over at its next safe point (not mid-question where it can
 * wait: `GameHub.handOverAll`, docs/decisions/0052-game-ownership-and-fencing.md): its writes
 * committed, its ownership released so that another node claims it at once, its sockets closed
 * with 4000 so they land on that node; this resolves once every game is handed over, by
 * `deadline` (epoch ms) at the latest. A node alone has nobody to hand a game to: it serves its
 * games until none is left (each one's last socket gone and the room swept) or `deadline`; the
 * shutdown then saves and closes those left. `signal` ends it early (a second signal, a test); the
 * shutdown that follows hands over what is left at once.
 */
export async function handOverGames(hub: DrainingHub, deadline: number, signal?: AbortSignal): Promise<void> {
  if (hub.clustered) {
    const aborted = new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve(), { once: true }));
    if (!signal?.aborted) await Promise.race([hub.handOverAll(Math.max(0, deadline - Date.now())), aborted]);
    return;
  }
  while (hub.roomCount > 0 && Date.now() < deadline && !signal?.aborted) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(DRAIN_POLL_MS, Math.max(0, deadline - Date.now()))));
  }
}

/** How long `/readyz` waits for the database's answer before it says the node is not ready. */
export const READINESS_DATABASE_TIMEOUT_MS = 2000;

/** `/readyz`'s answer: ready, or why not (its JSON `reason`). */
export type Readiness = { ready: true } | { ready: false; reason: "draining" | "database did not answer" | "database failed" };

/** Whether the node is draining, and what follows from it for new sockets. One per server. */
export class NodeDrain {
  private since: number | null = null;

  constructor(private readonly hub: DrainingHub) {}

  /** True from `begin` on: `/readyz` answers 503, and new sockets go elsewhere. */
  get draining(): boolean {
    return this.since !== null;
  }

  /** Starts the drain (SIGTERM); a second call changes nothing. */
  begin(): void {
    this.since ??= Date.now();
  }

  /**
   * Whether the node takes new work (`/readyz`, the `quiz_night_ready` gauge): not while it drains,
   * nor while its database does not answer `ping` within `timeoutMs` (a database that hangs,
   * rather than fails, must not hang the balancer's probe).
   */
  async readiness(ping: () => Promise<unknown>, timeoutMs = READINESS_DATABASE_TIMEOUT_MS): Promise<Readiness> {
    if (this.draining) return { ready: false, reason: "draining" };
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), timeoutMs)));
    try {
      const answer = await Promise.race([ping().then(() => "ok" as const), late]);
      return answer === "ok" ? { ready: true } : { ready: false, reason: "database did not answer" };
    } catch {
      return { ready: false, reason: "database failed" };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Whether a new socket for `gameCode` (null: its URL named none) is taken: always until the
   * drain, then only for a game this node still holds, whose players must reach it until it is
   * handed over (the transport's `admitsSocket`).
   */
  readonly admitsSocket = (gameCode: string | null): boolean => !this.draining || (gameCode !== null && this.hub.liveRoom(gameCode) !== null);
}
