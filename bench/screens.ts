/**
 * The projector's display and the host's phone (the remote) attached to the benchmarked game
 * (docs/decisions/0032-display-and-remote.md): what each receives over the game, and how long a
 * question takes to reach it, measured as for the players (the server's `serverNow` in the message to
 * its arrival). They run in bench/run.ts's own process, which has little else to do during the game.
 */
import WebSocket from "ws";
import { HOST_NICKNAME } from "#app/game/rules";
import { summarize, type LatencySummary } from "./stats";
import { withCookies } from "./cookie-jar";

export interface ScreenFigures {
  frames: number;
  bytes: number;
  /** Frames by message type, most first. */
  framesByType: Record<string, number>;
  delivery: LatencySummary;
  questionsSeen: number;
  errors: string[];
  sawGameOver: boolean;
}

/** The display's and remote's keys, read from the host's lobby page as the host's browser gets them (its loader's data). */
export async function fetchScreenKeys(url: string, gameCode: string, hostClientId: string): Promise<{ displayKey: string; remoteKey: string }> {
  const response = await fetch(`${url}/waiting/${gameCode}`, { headers: withCookies(hostClientId, { "x-client-id": hostClientId }) });
  if (!response.ok) throw new Error(`/waiting/${gameCode}: ${response.status}`);
  const html = await response.text();
  const keyOf = (which: "display" | "remote") => new RegExp(`/${which}/${gameCode}\\?key=([A-Za-z0-9_-]+)`).exec(html)?.[1];
  const displayKey = keyOf("display");
  const remoteKey = keyOf("remote");
  if (!displayKey || !remoteKey) throw new Error(`the host's lobby page for ${gameCode} has no display or remote link`);
  return { displayKey, remoteKey };
}

/** One screen's socket: counts every frame it receives and times each QUESTION_STARTED. */
export class Screen {
  private frames = 0;
  private bytes = 0;
  private readonly framesByType = new Map<string, number>();
  private readonly deliveries: number[] = [];
  private readonly errors: string[] = [];
  private sawGameOver = false;
  private readonly snapshot: Promise<void>;
  readonly gameOver: Promise<void>;

  private constructor(
    readonly name: string,
    readonly socket: WebSocket,
  ) {
    let snapshotSeen!: () => void;
    let overSeen!: () => void;
    this.snapshot = new Promise((resolve) => (snapshotSeen = resolve));
    this.gameOver = new Promise((resolve) => (overSeen = resolve));
    socket.on("message", (data: Buffer) => {
      const receivedAt = Date.now();
      this.frames++;
      this.bytes += data.length;
      const type = /^\{"type":"([A-Z_]+)"/.exec(data.toString("latin1", 0, 40))?.[1] ?? "?";
      this.framesByType.set(type, (this.framesByType.get(type) ?? 0) + 1);
      if (type === "QUESTION_STARTED") this.deliveries.push(receivedAt - JSON.parse(data.toString()).payload.serverNow);
      else if (type === "ERROR") this.errors.push(`${name}: ${JSON.parse(data.toString()).payload.message}`);
      else if (type === "GAME_SNAPSHOT") snapshotSeen();
      else if (type === "GAME_OVER") {
        this.sawGameOver = true;
        overSeen();
      }
    });
  }

  /** Its socket names the game as the browser's does (`&game=CODE`), by which a cluster's proxy sends it to the game's node. */
  static async open(name: string, wsUrl: string, clientId: string, gameCode: string): Promise<Screen> {
    const socket = new WebSocket(`${wsUrl}?clientId=${clientId}&game=${gameCode}`, { perMessageDeflate: false });
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    return new Screen(name, socket);
  }

  /** WATCH_GAME with the display key (a display), or JOIN_GAME as host with the remote key (a remote); waits for its snapshot. */
  async join(gameCode: string, as: { display: string } | { remote: string }): Promise<void> {
    const message =
      "display" in as
        ? { type: "WATCH_GAME", payload: { gameCode, key: as.display } }
        : { type: "JOIN_GAME", payload: { gameCode, nickname: HOST_NICKNAME, key: as.remote } };
    this.socket.send(JSON.stringify(message));
    await this.snapshot;
  }

  send(type: string, payload: unknown): void {
    this.socket.send(JSON.stringify({ type, payload }));
  }

  figures(): ScreenFigures {
    return {
      frames: this.frames,
      bytes: this.bytes,
      framesByType: Object.fromEntries([...this.framesByType].sort((a, b) => b[1] - a[1])),
      delivery: summarize(this.deliveries),
      questionsSeen: this.deliveries.length,
      errors: this.errors,
      sawGameOver: this.sawGameOver,
    };
  }

  close(): void {
    this.socket.terminate();
  }
}

/** "1,234 frames, 56.7 KiB (LOBBY_UPDATE 10, ...)": what a screen received over the game. */
export function formatScreen(figures: ScreenFigures, topTypes = 4): string {
  const types = Object.entries(figures.framesByType)
    .slice(0, topTypes)
    .map(([type, count]) => `${type} ${count}`)
    .join(", ");
  return `${figures.frames} frames, ${(figures.bytes / 1024).toFixed(1)} KiB (${types})`;
}
