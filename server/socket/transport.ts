import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { CloseCode, MAX_MESSAGE_BYTES, encodeServerMessage, parseClientMessage, type ClientMessage, type ErrorValues } from "#app/game/protocol";
import { appError, type AppError } from "#app/i18n/app-error";
import { CLIENT_MESSAGE_ROUTES, type TransportMessageType } from "#app/game/protocol-routes";
import { HOST_NICKNAME } from "#app/game/rules";
import { hostSecretOf } from "#app/sessions/host-secret.server";
import { CODE_LOOKUPS_CODE, type CodeLookups } from "../code-lookups";
import { GameElsewhere, type GameHub } from "../game-hub";
import type { GameRoom } from "../game-room";
import { HeartbeatRounds } from "../heartbeat";
import { silentLogger, type Logger } from "../logger";
import { CLIENT, Client, SOCKET_CLOSED, type ClientSocket } from "./client";
import { JOIN_LIMIT_CODE, JOIN_LIMIT_KEYS, JOIN_LIMIT_MESSAGES, JoinLimiter, type JoinLimits, type SharedAllowance } from "./join-limits";
import { upgradeListener, type SocketIdentity, type UpgradeOptions } from "./upgrade";

export interface TransportOptions extends UpgradeOptions {
  heartbeatIntervalMs?: number;
  /** Messages a socket may send per second on average before it is closed. */
  maxMessagesPerSecond?: number;
  /** Limits on new players (rejoins never count). */
  joinLimits?: Partial<JoinLimits>;
  /**
   * The signed-in user a socket's cookies (those named in `hostCookieNames`) show, for a host seat
   * of a game made signed in (docs/decisions/0044-shared-browsers.md); none when absent.
   */
  signedInUserOf?: (cookieHeader: string) => Promise<number | null>;
  /** Failed game-code lookups per address (server/code-lookups.ts); none counted when absent. */
  codeLookups?: CodeLookups;
  logger?: Logger;
  metrics?: TransportMetrics;
  /**
   * Whether this node takes a new socket for the game its URL names (null: none named). A
   * draining node takes none for a game it does not hold (server/drain.ts): such a socket is
   * closed with 4000 ("server restarting") as soon as it opens, and its browser reconnects, to
   * another node. Every socket is taken when absent.
   */
  admitsSocket?: (gameCode: string | null) => boolean;
  /**
   * In a cluster, where the new players an address adds across games are counted for every node
   * (JOIN_LIMIT_PER_IP_ALL_GAMES; docs/decisions/0054-limits-across-nodes.md); counted here alone
   * when absent.
   */
  sharedJoinAllowance?: SharedAllowance;
}

/** Messages counted by type for /metrics; `invalid` stands for any message the protocol refuses, so a client cannot invent labels. */
export interface TransportMetrics {
  received(type: ClientMessage["type"] | "invalid"): void;
  sent(type: "ERROR", count: number): void;
}

const noMetrics: TransportMetrics = { received: () => {}, sent: () => {} };

export interface GameTransport {
  close(): Promise<void>;
  readonly clientCount: number;
  /** Closes the sockets of the browser with this client id with 4007: they reopen with its cookies as they are now (a sign-in or sign-out there). */
  reopenSocketsOf(clientId: string): void;
}

/**
 * How often the server pings every game socket (and ends one that did not answer the last ping),
 * spread over the interval (server/heartbeat.ts).
 * A proxy in front must allow a silence longer than this (docs/deploy/).
 */
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 30_000;

/** Mounts the game engine's WebSocket endpoint at /ws on an HTTP server. */
export function attachGameTransport(server: Server, hub: GameHub, options: TransportOptions): GameTransport {
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS;
  const logger = options.logger ?? silentLogger;
  const metrics = options.metrics ?? noMetrics;
  const maxRate = options.maxMessagesPerSecond ?? 20;
  const burst = maxRate * 2;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
  const clients = new Set<Client>();
  const codeLookups = options.codeLookups;
  const joinLimiter = new JoinLimiter(options.joinLimits, options.sharedJoinAllowance);

  const onUpgrade = upgradeListener(options, (request, socket, head, identity) =>
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws, socket, identity)),
  );
  server.on("upgrade", onUpgrade);

  /** Who the socket's browser is, as its upgrade's cookies say: its host secret and signed-in user. */
  async function hostClaimOf(client: Client): Promise<{ hostSecret: string | null; userId: number | null }> {
    if (!client.cookie) return { hostSecret: null, userId: null };
    return { hostSecret: hostSecretOf(client.cookie), userId: options.signedInUserOf ? await options.signedInUserOf(client.cookie) : null };
  }

  function accept(socket: WebSocket, stream: Duplex, identity: SocketIdentity): void {
    // Refused after the handshake, not before: only an open socket can be told 4000, which a
    // browser reconnects after, where an HTTP refusal reads as a failure (app/game/client/socket.ts).
    if (options.admitsSocket && !options.admitsSocket(identity.gameCode)) {
      socket.close(CloseCode.SERVER_RESTARTING, "Server restarting");
      return;
    }
    const client = new Client(socket, stream, identity, burst);
    (socket as ClientSocket)[CLIENT] = client;
    clients.add(client);
    socket.on("pong", onPong);
    socket.on("message", onMessage);
    socket.on("close", onClose);
    socket.on("error", onError);
  }

  // The listeners every socket shares: `this` is the socket.
  function onPong(this: WebSocket): void {
    (this as ClientSocket)[CLIENT].alive = true;
  }

  function onMessage(this: WebSocket, data: RawData, isBinary: boolean): void {
    const client = (this as ClientSocket)[CLIENT];
    client.alive = true;
    if (!takeToken(client)) {
      this.close(CloseCode.RATE_LIMITED, "Too many messages");
      return;
    }
    const text = isBinary ? "" : data.toString();
    if (client.waiting) client.waiting.push(text);
    else run(client, text);
  }

  function onClose(this: WebSocket): void {
    const client = (this as ClientSocket)[CLIENT];
    clients.delete(client);
    if (client.waiting) client.waiting.push(SOCKET_CLOSED);
    else client.room?.drop(client);
  }

  function onError(this: WebSocket, error: Error): void {
    // Oversized or malformed frames land here; ws closes the socket itself.
    const client = (this as ClientSocket)[CLIENT];
    logger.warn({ event: "socket_error", gameCode: client.room?.gameCode, reason: error.message }, "socket error");
  }

  /** Handles one message; one that waits holds back those behind it until it is done. */
  function run(client: Client, text: string): void {
    let handled: void | Promise<void>;
    try {
      handled = handle(client, text);
    } catch (error) {
      failed(client, error);
      return;
    }
    if (!handled) return;
    client.waiting = [];
    handled.catch((error) => failed(client, error)).finally(() => runWaiting(client));
  }

  function runWaiting(client: Client): void {
    const waiting = client.waiting ?? [];
    client.waiting = null;
    for (const [index, next] of waiting.entries()) {
      if (client.waiting) {
        // The one before waits in turn: the rest stay behind it, in order.
        (client.waiting as Array<string | typeof SOCKET_CLOSED>).push(...waiting.slice(index));
        return;
      }
      if (next === SOCKET_CLOSED) client.room?.drop(client);
      else run(client, next);
    }
  }

  function failed(client: Client, error: unknown): void {
    logger.error({ event: "message_failed", gameCode: client.room?.gameCode, err: error }, "a message handler failed");
    replyError(client, "Something went wrong handling that message.", "MESSAGE_FAILED", appError("MESSAGE_FAILED"));
  }

  function takeToken(client: Client): boolean {
    const now = Date.now();
    client.tokens = Math.min(burst, client.tokens + ((now - client.lastRefill) / 1000) * maxRate);
    client.lastRefill = now;
    if (client.tokens < 1) return false;
    client.tokens -= 1;
    return true;
  }

  /**
   * Every ERROR has its English `message`, its family `code`, and the `errors` catalog key and
   * values it is raised with (`error`), which the browser says it in its language by
   * (docs/decisions/0047-errors-as-codes.md).
   */
  function replyError(client: Client, message: string, code: string, error: AppError): void {
    // The socket's values are flat: a message type, a field, a wait.
    client.send(encodeServerMessage("ERROR", { message, code, key: error.code, ...(error.values ? { values: error.values as ErrorValues } : {}) }));
    metrics.sent("ERROR", 1);
  }

  /**
   * The transport's own messages, those that choose the socket's room (a promise: they wait for the
   * database); every other one goes to the room (protocol-routes.ts).
   */
  const ownMessages: { [T in TransportMessageType]: (client: Client, message: Extract<ClientMessage, { type: T }>) => Promise<void> } = {
    JOIN_GAME: join,
    WATCH_GAME: watch,
  };

  /** A promise only for the messages that wait for the database: joining and watching. */
  function handle(client: Client, text: string): void | Promise<void> {
    const parsed = parseClientMessage(text);
    metrics.received(parsed.ok ? parsed.message.type : "invalid");
    if (!parsed.ok) {
      replyError(client, parsed.error, "BAD_MESSAGE", appError(parsed.key, parsed.values));
      return;
    }
    const message = parsed.message;
    const route = CLIENT_MESSAGE_ROUTES[message.type];
    if (route.by === "transport") return ownMessages[message.type as TransportMessageType](client, message as never);
    const room = client.room;
    if (!room && "withoutRoom" in route && route.withoutRoom === "ignore") return;
    if (!room || room.gameCode !== message.payload.gameCode) {
      replyError(client, "Join the game first.", "NOT_JOINED", appError("NOT_JOINED"));
      return;
    }
    if (!room.handle(client, message as Exclude<ClientMessage, { type: TransportMessageType }>)) client.room = null;
  }

  /**
   * The live game of a code, looked up within the address's failed lookups: null (and an ERROR
   * sent) for an address past them, whatever the code, or for a code no live game has, which
   * counts as one more.
   */
  async function lookUpRoom(client: Client, gameCode: string): Promise<GameRoom | null> {
    // A socket whose URL named another game (or none) still joins: with one node every game is
    // here. Once nodes forward by the URL's game (issue 28), such a message may reach a node that
    // does not own its game; logged so that can be seen before it matters.
    if (client.gameCode !== null && client.gameCode !== gameCode) {
      logger.debug({ event: "socket_game_mismatch", gameCode, urlGameCode: client.gameCode }, "a socket joins another game than its URL names");
    }
    const refusal = codeLookups?.refusal(client.address);
    if (refusal) {
      replyError(client, refusal.message, CODE_LOOKUPS_CODE, appError(CODE_LOOKUPS_CODE, { wait: refusal.wait }));
      return null;
    }
    const room = await hub.getRoom(gameCode);
    if (room instanceof GameElsewhere) {
      // Another node runs this game (or this one is leaving): the client reconnects and lands on it (docs/decisions/0052).
      client.close(CloseCode.SERVER_RESTARTING, "The game is on another server");
      return null;
    }
    if (!room) {
      codeLookups?.failed(client.address);
      replyError(client, "Game not found. Check the code and try again.", "GAME_NOT_FOUND", appError("GAME_NOT_FOUND"));
    }
    return room;
  }

  async function join(client: Client, message: Extract<ClientMessage, { type: "JOIN_GAME" }>): Promise<void> {
    const { gameCode, nickname } = message.payload;
    const room = await lookUpRoom(client, gameCode);
    if (!room) return;
    const isHost = nickname === HOST_NICKNAME;
    // Limits count new players only: a player coming back after a drop or a restart is never refused.
    const isNew = !isHost && !room.hasClient(client.clientId);
    if (isNew) {
      const refusal = await joinLimiter.refusalOf(client.address, gameCode);
      if (refusal) {
        replyError(client, JOIN_LIMIT_MESSAGES[refusal], JOIN_LIMIT_CODE, appError(JOIN_LIMIT_KEYS[refusal]));
        return;
      }
    }
    if (client.room && client.room !== room) client.room.drop(client);
    client.room = room;
    if (isHost) {
      await room.joinAsHost(client, message.payload.key, await hostClaimOf(client));
      return;
    }
    room.joinAsPlayer(client, nickname, message.payload.team);
    if (isNew && room.hasClient(client.clientId)) joinLimiter.countAdmitted(client.address, gameCode);
  }

  /** A display: never a new player, so no join limit applies; a wrong key is refused by the room. */
  async function watch(client: Client, message: Extract<ClientMessage, { type: "WATCH_GAME" }>): Promise<void> {
    const { gameCode, key } = message.payload;
    const room = await lookUpRoom(client, gameCode);
    if (!room) return;
    if (client.room && client.room !== room) client.room.drop(client);
    client.room = room;
    room.joinAsDisplay(client, key);
  }

  const rounds = new HeartbeatRounds(clients, heartbeatIntervalMs, (client) => {
    if (!client.alive) {
      client.socket.terminate();
      return;
    }
    client.alive = false;
    client.socket.ping();
  });
  const heartbeat = setInterval(() => rounds.tick(), rounds.tickMs);
  heartbeat.unref();

  return {
    get clientCount() {
      return clients.size;
    },
    reopenSocketsOf(clientId: string) {
      for (const client of clients) if (client.clientId === clientId) client.close(CloseCode.SIGN_IN_CHANGED, "Signed in or out");
    },
    async close() {
      clearInterval(heartbeat);
      joinLimiter.stop();
      server.off("upgrade", onUpgrade);
      for (const client of clients) client.socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
