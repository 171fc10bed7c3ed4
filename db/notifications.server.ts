/**
 * PostgreSQL's LISTEN/NOTIFY: what one node says reaches every node listening on the same database
 * (server/cluster-signals.ts, docs/decisions/0056-forwarding-and-signals.md). The listener keeps a
 * `pg` connection of its own, since a LISTEN lives as long as its session and a pool's connections
 * come and go; a lost connection is opened again after a pause. Driver specifics stay in db/.
 */
import { sql } from "kysely";
import pg from "pg";
import type { DB } from "./connection.server";

/** Sends `payload` on `channel` to every session listening on it, once the statement commits (at once outside a transaction). */
export async function notify(db: DB, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channel}, ${payload})`.execute(db);
}

export interface NotificationListenerOptions {
  databaseUrl: string;
  channel: string;
  onPayload(payload: string): void;
  /** The connection failed or ended; it is opened again `reconnectMs` later. */
  onConnectionLost?(error: Error | null): void;
  /** Listening again after a lost connection: what was sent meanwhile did not arrive. */
  onReconnected?(): void;
  reconnectMs?: number;
}

export interface NotificationListener {
  /** Stops listening and closes the connection. */
  close(): Promise<void>;
}

const DEFAULT_RECONNECT_MS = 1000;

/** Listens on `channel`; resolves once the first LISTEN is in place (throws when the database cannot be reached then). */
export async function listenForNotifications(options: NotificationListenerOptions): Promise<NotificationListener> {
  const reconnectMs = options.reconnectMs ?? DEFAULT_RECONNECT_MS;
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  async function open(): Promise<void> {
    const next = new pg.Client({ connectionString: options.databaseUrl });
    // Only the connection in use is watched: a failure while opening is `open`'s to throw.
    const onLost = (error: Error | null) => {
      if (client !== next || closed) return;
      client = null;
      next.removeAllListeners("notification");
      void next.end().catch(() => {});
      options.onConnectionLost?.(error);
      retry = setTimeout(() => void reopen(), reconnectMs);
      retry.unref();
    };
    // Without an error listener, a dropped connection would end the process.
    next.on("error", (error) => onLost(error));
    next.on("end", () => onLost(null));
    next.on("notification", (message) => {
      if (message.channel === options.channel && message.payload !== undefined) options.onPayload(message.payload);
    });
    try {
      await next.connect();
      await next.query(`listen ${next.escapeIdentifier(options.channel)}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await next.end();
      return;
    }
    client = next;
  }

  async function reopen(): Promise<void> {
    retry = null;
    if (closed) return;
    try {
      await open();
      options.onReconnected?.();
    } catch (error) {
      options.onConnectionLost?.(error as Error);
      if (!closed) {
        retry = setTimeout(() => void reopen(), reconnectMs);
        retry.unref();
      }
    }
  }

  await open();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
