import type { BrowserContext } from "@playwright/test";

/**
 * Holds a context's game screen still while a test looks at it. A reveal shows for a second and a
 * half before the server moves everyone on (RESULTS_DELAY_MS in tests/e2e/worker-server.ts), a
 * leaderboard for three: less than axe needs for two themes, or than a test needs to read several
 * screens at once while two workers share two cores. So the server's messages to the context's pages
 * can be held from a message of a given type on, and released in order once the checks are done. The screen
 * checked is the real one, drawn from the real messages; it only stays up longer. What the page sends
 * goes straight through.
 */
export class ScreenHold {
  private triggers: readonly string[] = [];
  private held: { type: string; deliver: () => void }[] = [];
  private holding = false;

  /** Routes the game socket of every page of `context` through a new hold (before the pages open it). */
  static async on(context: BrowserContext): Promise<ScreenHold> {
    const hold = new ScreenHold();
    await context.routeWebSocket(/\/ws(\?|$)/, (page) => {
      const server = page.connectToServer();
      server.onMessage((message) => hold.pass(typeOf(message), () => page.send(message)));
    });
    return hold;
  }

  /** From the next server message of one of `types` on (that one included), the pages get nothing until `release`. */
  holdFrom(...types: string[]): void {
    this.triggers = types;
  }

  /**
   * Stops holding: sends the pages what was held, in order, and returns the types it sent. A
   * `holdFrom` not reached yet is forgotten; `holdAgainFrom` arms a new one at once, so a message of
   * those types among the held ones is held again, with what follows it.
   */
  release(...holdAgainFrom: string[]): string[] {
    const held = this.held;
    this.held = [];
    this.holding = false;
    this.triggers = holdAgainFrom;
    return held.filter((message) => this.pass(message.type, message.deliver)).map((message) => message.type);
  }

  /** Delivers the message, or holds it; true when delivered. */
  private pass(type: string, deliver: () => void): boolean {
    if (!this.holding && this.triggers.includes(type)) {
      this.holding = true;
      this.triggers = [];
    }
    if (this.holding) this.held.push({ type, deliver });
    else deliver();
    return !this.holding;
  }
}

function typeOf(message: string | Buffer): string {
  try {
    return String((JSON.parse(String(message)) as { type?: unknown }).type);
  } catch {
    return "";
  }
}
