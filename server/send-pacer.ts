/**
 * Sockets written between two looks at the event loop during a large delivery (some 50 ms of work
 * on a small machine). A broadcast to 10,000 sockets takes a few hundred milliseconds; in slices,
 * the answers that arrive meanwhile are timed when they arrive and acknowledged before it ends.
 * Smaller slices cost the broadcast itself more (measured with `npm run bench`).
 */
export const SEND_SLICE = 2000;

/**
 * The slice of socket writes shared by every game of the process (issue 18). When hundreds of games
 * open or close a question at the same moment, their deliveries follow one shared commit; each is
 * small, but together they are as large as one 10,000-player broadcast. Counting the writes of all
 * games against one slice lets the event loop read the answers arriving meanwhile, so they are
 * timed when they arrive and acknowledged, instead of waiting until every game has been served.
 */
export class SendPacer {
  private written = 0;
  private resetScheduled = false;
  private turn: Promise<void> | null = null;

  constructor(private readonly slice = SEND_SLICE) {}

  /** This turn of the event loop has written its slice: the next write waits for `nextTurn()`. */
  get sliceSpent(): boolean {
    return this.written >= this.slice;
  }

  /** One socket written; the count starts again in the next turn of the event loop. */
  wrote(): void {
    this.written++;
    if (this.resetScheduled) return;
    this.resetScheduled = true;
    setImmediate(this.reset);
  }

  /** Resolves in the next turn of the event loop, once the I/O waiting meanwhile has been read. */
  nextTurn(): Promise<void> {
    this.turn ??= new Promise((resolve) =>
      setImmediate(() => {
        this.turn = null;
        resolve();
      }),
    );
    return this.turn;
  }

  private readonly reset = (): void => {
    this.written = 0;
    this.resetScheduled = false;
  };
}
