import type { Actor } from "#app/game/engine/index";
import { gameKeyMatches } from "#app/models/game-keys.server";
import type { Connection, Members } from "../game-delivery";

/** A host connection let in by the remote key alone (a phone), not as the host's browser. */
type Binding = { role: "host"; byRemoteKey: boolean } | { role: "display" } | { role: "player"; playerId: number };

/**
 * Who is in a live game and by which right: its host seats, displays and players' connections, and
 * the game's keys that let a display or a remote in (docs/decisions/0032-display-and-remote.md).
 * It decides nothing of the game; the room seats and unseats, and asks it who a connection is.
 */
export class RoomMembership {
  readonly hosts = new Set<Connection>();
  readonly displays = new Set<Connection>();
  readonly players = new Map<number, Connection>();
  /** The sets the outbox addresses messages by. */
  readonly members: Members = { hosts: this.hosts, displays: this.displays, players: this.players };
  private readonly bindings = new Map<Connection, Binding>();

  /** The game's capabilities (docs/decisions/0032-display-and-remote.md): watch it, or run it from another device. */
  constructor(
    private displayKey: string | null,
    private remoteKey: string | null,
  ) {}

  get size(): number {
    return this.bindings.size;
  }

  connections(): IterableIterator<Connection> {
    return this.bindings.keys();
  }

  remoteKeyMatches(key: string | undefined): boolean {
    return key !== undefined && gameKeyMatches(this.remoteKey, key);
  }

  displayKeyMatches(key: string): boolean {
    return gameKeyMatches(this.displayKey, key);
  }

  /** The player this connection plays as now, if it does. */
  playerIdOf(connection: Connection): number | undefined {
    const binding = this.bindings.get(connection);
    return binding?.role === "player" ? binding.playerId : undefined;
  }

  actorOf(connection: Connection): Actor {
    const binding = this.bindings.get(connection);
    if (!binding) return { role: "guest" };
    return binding.role === "player" ? { role: "player", playerId: binding.playerId } : { role: binding.role };
  }

  /** `byRemoteKey`: let in by the remote key alone, so new links end its seat. */
  seatHost(connection: Connection, byRemoteKey: boolean): void {
    this.hosts.add(connection);
    this.bindings.set(connection, { role: "host", byRemoteKey });
  }

  seatDisplay(connection: Connection): void {
    this.displays.add(connection);
    this.bindings.set(connection, { role: "display" });
  }

  /** The player's connection is this one now; the one it had before, if another, is forgotten and returned for closing. */
  seatPlayer(connection: Connection, playerId: number): Connection | undefined {
    const previous = this.players.get(playerId);
    const replaced = previous && previous !== connection ? previous : undefined;
    if (replaced) this.bindings.delete(replaced);
    this.players.set(playerId, connection);
    this.bindings.set(connection, { role: "player", playerId });
    return replaced;
  }

  /**
   * The connection leaves its seat. Returns whether it was seated, and for a player's current
   * connection, the player, who is now disconnected.
   */
  unseat(connection: Connection): { seated: boolean; disconnected?: number } {
    const binding = this.bindings.get(connection);
    if (!binding) return NOT_SEATED;
    this.bindings.delete(connection);
    if (binding.role === "host") {
      this.hosts.delete(connection);
      return SEATED;
    }
    if (binding.role === "display") {
      this.displays.delete(connection);
      return SEATED;
    }
    if (this.players.get(binding.playerId) !== connection) return SEATED;
    this.players.delete(binding.playerId);
    return { seated: true, disconnected: binding.playerId };
  }

  /** A kicked player: its connection (already sent its last message) is forgotten at once. */
  forgetPlayer(playerId: number): void {
    const connection = this.players.get(playerId);
    if (!connection) return;
    this.players.delete(playerId);
    this.bindings.delete(connection);
  }

  /** The host seats of this browser taken as the host's browser (not a phone's, by the remote key). Scans the host seats only, never the players. */
  browserHostSeatsOf(clientId: string): Connection[] {
    return [...this.hosts].filter((connection) => {
      const binding = this.bindings.get(connection);
      return binding?.role === "host" && !binding.byRemoteKey && connection.clientId === clientId;
    });
  }

  /** New keys; the displays and remotes that came in with the old ones, to be told and closed. */
  replaceKeys(keys: { displayKey: string; remoteKey: string }): Connection[] {
    this.displayKey = keys.displayKey;
    this.remoteKey = keys.remoteKey;
    return [...this.bindings]
      .filter(([, binding]) => binding.role === "display" || (binding.role === "host" && binding.byRemoteKey))
      .map(([connection]) => connection);
  }

  /** Someone sees the live answer count: a host or a display. */
  hasScreens(): boolean {
    return this.hosts.size > 0 || this.displays.size > 0;
  }

  clear(): void {
    this.bindings.clear();
    this.hosts.clear();
    this.displays.clear();
    this.players.clear();
  }
}

const NOT_SEATED = { seated: false } as const;
const SEATED = { seated: true } as const;
