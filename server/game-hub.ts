import type { DB } from "#db/connection.server";
import type { GameSettings } from "#app/game/engine/index";
import { commitGameBatch, findLiveGame, getHostClientId, loadGameForPlay } from "#app/models/game.server";
import { GameRoom, type RoomOptions } from "./game-room";
import { silentLogger, type Logger } from "./logger";

export interface HubOptions {
  settings?: Partial<GameSettings>;
  commitIntervalMs?: number;
  /** How long a finished game with nobody connected stays in memory. */
  finishedRoomTtlMs?: number;
  now?: () => number;
  logger?: Logger;
}

/** The live games of this process, loaded from the database on first use. */
export class GameHub {
  private readonly rooms = new Map<string, GameRoom>();
  private readonly loading = new Map<string, Promise<GameRoom | null>>();
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(
    private readonly db: DB,
    private readonly options: HubOptions = {},
  ) {
    this.sweepTimer = setInterval(() => this.sweep(), 30_000);
    this.sweepTimer.unref();
  }

  get roomCount(): number {
    return this.rooms.size;
  }

  /** The room of a live game, or null when no live game has this code. */
  async getRoom(gameCode: string): Promise<GameRoom | null> {
    const room = this.rooms.get(gameCode);
    if (room && !room.isFinished()) return room;
    if (room) {
      // A finished game's code may have been drawn again for a new game, which then takes precedence.
      const live = await findLiveGame(this.db, gameCode);
      if (!live || live.id === room.gameId) return room;
      this.rooms.delete(gameCode);
      void room.dispose();
    }
    let pending = this.loading.get(gameCode);
    if (!pending) {
      pending = this.load(gameCode).finally(() => this.loading.delete(gameCode));
      this.loading.set(gameCode, pending);
    }
    return pending;
  }

  private async load(gameCode: string): Promise<GameRoom | null> {
    const loaded = await loadGameForPlay(this.db, gameCode);
    if (!loaded) return null;
    const gameId = loaded.game.id;
    const roomOptions: RoomOptions = {
      settings: this.options.settings,
      commitIntervalMs: this.options.commitIntervalMs,
      now: this.options.now,
      logger: this.options.logger,
    };
    const room = new GameRoom(
      loaded,
      {
        commit: (batch) => commitGameBatch(this.db, gameId, batch),
        getHostClientId: () => getHostClientId(this.db, gameId),
      },
      roomOptions,
    );
    this.rooms.set(gameCode, room);
    const resumed = room.state.phase !== "lobby" || room.state.players.size > 0;
    (this.options.logger ?? silentLogger).info(
      { event: resumed ? "game_resumed" : "game_opened", gameCode, phase: room.state.phase, players: room.state.players.size },
      resumed ? "game resumed from the database" : "game opened",
    );
    return room;
  }

  private finishedSince = new Map<GameRoom, number>();

  /** Forgets finished games nobody is watching any more; their results stay in the database. */
  private sweep(): void {
    const now = (this.options.now ?? Date.now)();
    const ttl = this.options.finishedRoomTtlMs ?? 10 * 60_000;
    for (const [code, room] of this.rooms) {
      if (!room.isFinished() || room.connectionCount > 0) {
        this.finishedSince.delete(room);
        continue;
      }
      const since = this.finishedSince.get(room) ?? now;
      this.finishedSince.set(room, since);
      if (now - since >= ttl) {
        this.rooms.delete(code);
        this.finishedSince.delete(room);
        void room.dispose();
      }
    }
  }

  /** Commits every game's pending writes and closes every socket with `closeCode`. */
  async close(closeCode?: number, reason?: string): Promise<void> {
    clearInterval(this.sweepTimer);
    await Promise.all([...this.rooms.values()].map((room) => room.dispose(closeCode, reason)));
    this.rooms.clear();
  }
}
