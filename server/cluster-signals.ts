/**
 * Signals between the nodes of a cluster (issue 28: "anything that must reach a live room reaches
 * its owner"; docs/decisions/0056-forwarding-and-signals.md). An HTTP request may land on any node,
 * but a game's room lives on the one that owns it: what such a request changes that a live room
 * holds in memory is said on one PostgreSQL channel (LISTEN/NOTIFY, db/notifications.server.ts),
 * and every node does its share (server/game-hub.ts, `receiveSignal`).
 *
 * - `host-seats-released`: someone signed in or out on a browser; its sockets on every node leave
 *   their host seats and reopen (docs/decisions/0044-shared-browsers.md).
 * - `game-keys-replaced`: a game's display and remote links were made anew; its owner reads the
 *   new keys from the database and closes the displays and remotes of the old ones
 *   (docs/decisions/0032-display-and-remote.md). The keys themselves never travel on the channel.
 *
 * A signal says what changed, the database says what it is now; a node that misses one (its
 * listening connection was down) is no worse off than before the cluster: see the decision.
 * On SQLite there is one node and no channel: the hub does it all itself.
 */
import { z } from "zod";
import type { DB } from "#db/connection.server";
import { listenForNotifications, notify, type NotificationListener } from "#db/notifications.server";
import { GAME_CODE_LENGTH } from "#app/game/rules";
import { silentLogger, type Logger } from "./logger";

/** The one channel every node listens on. */
export const CLUSTER_SIGNAL_CHANNEL = "quiz_night_signals";

const GameCode = z.string().regex(new RegExp(`^[A-Z0-9]{${GAME_CODE_LENGTH}}$`));

export const ClusterSignalSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("host-seats-released"), clientId: z.string().min(1).max(100) }).strict(),
  z.object({ type: z.literal("game-keys-replaced"), gameCode: GameCode, gameId: z.number().int().positive() }).strict(),
]);

export type ClusterSignal = z.infer<typeof ClusterSignalSchema>;

/** What travels: the signal and the node that sent it, which does its own share at once and skips its echo. */
const SignalEnvelopeSchema = z.object({ from: z.string().min(1).max(200), signal: ClusterSignalSchema }).strict();

/** What the hub needs: telling the other nodes. */
export interface SignalPublisher {
  /** Resolves once the database took the signal; every other listening node gets it right after. */
  publish(signal: ClusterSignal): Promise<void>;
}

export interface ClusterSignals extends SignalPublisher {
  /** What to do with a signal from another node (the hub's `receiveSignal`); one that comes before is dropped (no room is open yet). */
  onSignal(listener: (signal: ClusterSignal) => void | Promise<void>): void;
  close(): Promise<void>;
}

export interface ClusterSignalOptions {
  databaseUrl: string;
  /** The app's database: a NOTIFY is one short statement on its pool. */
  db: DB;
  nodeId: string;
  logger?: Logger;
  reconnectMs?: number;
}

/** Reads a payload from the channel: the signal, or null for one that is not ours or not valid. */
export function readSignalPayload(payload: string): { from: string; signal: ClusterSignal } | null {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return null;
  }
  const parsed = SignalEnvelopeSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** Listens on the channel (resolving once it does) and publishes on it, on PostgreSQL. */
export async function startClusterSignals(options: ClusterSignalOptions): Promise<ClusterSignals> {
  const logger = (options.logger ?? silentLogger).child({ nodeId: options.nodeId });
  let listener: ((signal: ClusterSignal) => void | Promise<void>) | null = null;
  const notifications: NotificationListener = await listenForNotifications({
    databaseUrl: options.databaseUrl,
    channel: CLUSTER_SIGNAL_CHANNEL,
    reconnectMs: options.reconnectMs,
    onPayload(payload) {
      const read = readSignalPayload(payload);
      if (!read) {
        logger.warn({ event: "cluster_signal_invalid" }, "a cluster signal that is not one was ignored");
        return;
      }
      if (read.from === options.nodeId) return;
      Promise.resolve()
        .then(() => listener?.(read.signal))
        .catch((error: unknown) =>
          logger.error({ event: "cluster_signal_failed", type: read.signal.type, err: error }, "a cluster signal could not be handled"),
        );
    },
    onConnectionLost(error) {
      logger.error({ event: "cluster_signals_lost", err: error ?? undefined }, "the cluster signals' connection was lost; opening it again");
    },
    onReconnected() {
      logger.info({ event: "cluster_signals_back" }, "listening for cluster signals again");
    },
  });
  return {
    async publish(signal) {
      await notify(options.db, CLUSTER_SIGNAL_CHANNEL, JSON.stringify({ from: options.nodeId, signal: ClusterSignalSchema.parse(signal) }));
    },
    onSignal(next) {
      listener = next;
    },
    close: () => notifications.close(),
  };
}
