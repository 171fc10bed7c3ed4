import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { CloseCode, MAX_MESSAGE_BYTES, WS_PATH, encodeServerMessage, parseClientMessage, type ClientMessage, type ErrorValues } from "#app/game/protocol";
import { HOST_NICKNAME } from "#app/game/rules";
import { addressKey } from "#app/utils/address-key";
import { ClientIdSchema } from "#app/utils/validation";
import { CODE_LOOKUPS_CODE, type CodeLookups } from "../code-lookups";
import { HOST_SECRET_COOKIE, hostSecretOf } from "#app/utils/host-secret.server";
import type { GameHub } from "../game-hub";
import { HeartbeatRounds } from "../heartbeat";
import { isAllowedOrigin } from "../http-security";
import { silentLogger, type Logger } from "../logger";
import { WindowCounter } from "../window-counter";
import { DeliverySlot, type Connection, type GameRoom, type OutgoingData } from "../game-room";

/** A client this far behind is too slow to keep: it is dropped and may rejoin, instead of buffering without bound. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface TransportOptions {
  /** Origins allowed besides the server's own; a request without Origin (a script) is always allowed. */
  allowedOrigins: string[];
  heartbeatIntervalMs?: number;
  /** Messages a socket may send per second on average before it is closed. */
  maxMessagesPerSecond?: number;
  /** In production nothing else upgrades; in dev Vite's HMR socket shares the server. */
  rejectOtherUpgrades: boolean;
  /** Limits on new players (rejoins never count). */
  joinLimits?: Partial<JoinLimits>;
  /**
   * The signed-in user a socket's cookies (those named in `hostCookieNames`) show, for a host seat
   * of a game made signed in (docs/decisions/0044-shared-browsers.md); none when absent.
   */
  signedInUserOf?: (cookieHeader: string) => Promise<number | null>;
  /** The cookies a socket keeps from its upgrade for `signedInUserOf` (the session's); the host secret's is always kept. */
  hostCookieNames?: string[];
  /** The client's address, found as for HTTP requests (TRUST_PROXY); the socket's peer when absent. */
  clientAddressOf?: (request: IncomingMessage) => string | undefined;
  /** An IPv6 client counts by the network of this prefix (IPV6_PREFIX_LENGTH; app/utils/address-key.ts). */
  ipv6PrefixLength?: number;
  /** Sockets one address may hold open at once; past it an upgrade is refused with 429 (SOCKETS_PER_IP). */
  maxSocketsPerAddress?: number;
  /** Failed game-code lookups per address (server/code-lookups.ts); none counted when absent. */
  codeLookups?: CodeLookups;
  logger?: Logger;
  metrics?: TransportMetrics;
}

/** Messages counted by type for /metrics; `invalid` stands for any message the protocol refuses, so a client cannot invent labels. */
export interface TransportMetrics {
  received(type: ClientMessage["type"] | "invalid"): void;
  sent(type: "ERROR", count: number): void;
}

const noMetrics: TransportMetrics = { received: () => {}, sent: () => {} };

/**
 * How many new players may come in. A classroom or an assembly joins one game from one address
 * (a school's NAT), so the per-address limits are per game and sized for a crowd; a flood from one
 * address is still held to that, and can never bring more than `playersPerIpPerGame` into a game.
 */
export interface JoinLimits {
  /** New players one address may add to one game per minute (JOIN_LIMIT_PER_IP). */
  joinsPerIpPerGamePerMinute: number;
  /** New players one address may add across all games per minute (JOIN_LIMIT_PER_IP_ALL_GAMES). */
  joinsPerIpPerMinute: number;
  /** Players one address may bring into one game in all (PLAYERS_PER_IP_PER_GAME). */
  playersPerIpPerGame: number;
  /** New players one game may take per minute, from everywhere (JOIN_LIMIT_PER_GAME). */
  joinsPerGamePerMinute: number;
}

/**
 * Open sockets per address: twice the players one address may bring into a game, so a school's
 * assembly behind one NAT fits with its reconnecting phones (an old socket lingers until the
 * heartbeat ends it).
 */
export const DEFAULT_MAX_SOCKETS_PER_ADDRESS = 2000;

export const DEFAULT_JOIN_LIMITS: JoinLimits = {
  joinsPerIpPerGamePerMinute: 300,
  joinsPerIpPerMinute: 1000,
  playersPerIpPerGame: 1000,
  joinsPerGamePerMinute: 20_000,
};

export const JOIN_LIMIT_MESSAGES = {
  ipGame: "Too many players joined this game from your network in the last minute. Please wait a moment and try again.",
  ip: "Too many players joined from your network in the last minute. Please wait a moment and try again.",
  game: "Too many players are joining this game right now. Please try again in a few seconds.",
  ipGameTotal: "This game has taken all the players it can from your network.",
} as const;

/** How long the count of players an address brought into a game is kept: longer than any game lasts. */
const PLAYERS_PER_IP_WINDOW_SECONDS = 24 * 60 * 60;

const SOCKET_CLOSED = Symbol("socket closed");

/** The last broadcast framed, and its frame: a broadcast is written to all its sockets one after another. */
let framedPayload: Buffer | null = null;
let lastFrame: Buffer = Buffer.alloc(0);
/** Frames of payloads written to sockets in turn rather than in a run: the acknowledgements one answer option shares (server/shared-acks.ts). */
const framesOf = new WeakMap<Buffer, Buffer>();

const headerLengthOf = (length: number) => (length < 126 ? 2 : length < 65_536 ? 4 : 10);

/** An unmasked, final text frame's header (RFC 6455, section 5.2: a server's frames are never masked). */
function writeTextHeader(frame: Buffer, length: number): void {
  frame[0] = 0x81; // FIN, text
  if (length < 126) frame[1] = length;
  else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
}

/**
 * `payload` as one WebSocket text frame, built once for every socket it is written to, rather than
 * a header, an options object and two writes per socket.
 */
export function textFrame(payload: Buffer): Buffer {
  if (payload === framedPayload) return lastFrame;
  let frame = framesOf.get(payload);
  if (!frame) {
    const length = payload.length;
    const headerLength = headerLengthOf(length);
    frame = Buffer.allocUnsafe(headerLength + length);
    writeTextHeader(frame, length);
    payload.copy(frame, headerLength);
    framesOf.set(payload, frame);
  }
  framedPayload = payload;
  lastFrame = frame;
  return frame;
}

/**
 * A message of one socket as one text frame: one buffer and one write, where `ws` would make a
 * buffer of the text, a header and an options object and write twice (issue 18,
 * docs/decisions/0039-heap-growth.md).
 */
export function ownTextFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const headerLength = headerLengthOf(length);
  const frame = Buffer.allocUnsafe(headerLength + length);
  writeTextHeader(frame, length);
  frame.write(text, headerLength);
  return frame;
}

/** Where a connection's close listener finds the address its open sockets are counted under. */
const ADDRESS = Symbol("address");
type AddressedStream = Duplex & { [ADDRESS]: string };

/** Where a socket's listeners, shared by every socket, find its client. */
const CLIENT = Symbol("client");
type ClientSocket = WebSocket & { [CLIENT]: Client };

/**
 * One game socket: the room's `Connection` and what the transport keeps of it, in one object whose
 * methods and listeners are shared by every socket. Closures made per socket cost each player about
 * half a kilobyte (issue 18, docs/decisions/0037-no-object-per-message.md).
 */
class Client implements Connection {
  readonly slot = new DeliverySlot();
  room: GameRoom | null = null;
  alive = true;
  /**
   * Messages of one socket are handled in order, even when one waits for the database (a join
   * loads its game): while one does, those arriving behind it wait here, and `SOCKET_CLOSED` marks
   * where the socket closed. Null when nothing waits, the case of nearly every message: it is then
   * handled at once, with no promise made for it (issue 18).
   */
  waiting: Array<string | typeof SOCKET_CLOSED> | null = null;
  lastRefill = Date.now();

  /** `stream` is the connection under the WebSocket: corked, several frames leave in one write. `address` is for the join limits, never logged. */
  constructor(
    readonly socket: WebSocket,
    private readonly stream: Duplex,
    readonly clientId: string,
    readonly address: string,
    public tokens: number,
    /** The upgrade's host secret and session cookies, if it had any (`hostCookiesOf`). */
    readonly cookie: string | null,
  ) {}

  send(...messages: OutgoingData[]): void {
    const socket = this.socket;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.terminate();
      return;
    }
    if (messages.length === 1) {
      this.write(messages[0]);
      return;
    }
    this.stream.cork();
    try {
      for (const message of messages) this.write(message);
    } finally {
      this.stream.uncork();
    }
  }

  /**
   * Every message is written straight to the connection as one frame: a broadcast's (a Buffer,
   * encoded once for all its sockets) built once for all of them, a socket's own text framed on its
   * own. `ws` still writes its pings, pongs and close frames; it writes each at once when nothing is
   * compressed (`perMessageDeflate: false`), so ours and its never overtake each other (issue 18,
   * docs/decisions/0037-no-object-per-message.md).
   */
  private write(message: OutgoingData): void {
    this.stream.write(typeof message === "string" ? ownTextFrame(message) : textFrame(message));
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }
}

export interface GameTransport {
  close(): Promise<void>;
  readonly clientCount: number;
  /** Closes the sockets of the browser with this client id with 4007: they reopen with its cookies as they are now (a sign-in or sign-out there). */
  reopenSocketsOf(clientId: string): void;
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
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
  const maxSocketsPerAddress = options.maxSocketsPerAddress ?? DEFAULT_MAX_SOCKETS_PER_ADDRESS;
  const socketsPerAddress = new Map<string, number>();
  const codeLookups = options.codeLookups;

  /** A connection's listener, shared by every connection (`this`): its address holds one socket fewer. */
  function releaseAddress(this: AddressedStream): void {
    const address = this[ADDRESS];
    const left = (socketsPerAddress.get(address) ?? 1) - 1;
    if (left > 0) socketsPerAddress.set(address, left);
    else socketsPerAddress.delete(address);
  }

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname !== WS_PATH) {
      if (options.rejectOtherUpgrades) refuse(socket, 404, "Not Found");
      return;
    }
    if (!isAllowedOrigin(request, options.allowedOrigins)) {
      refuse(socket, 403, "Forbidden");
      return;
    }
    const address = addressKey(options.clientAddressOf?.(request) || request.socket.remoteAddress, options.ipv6PrefixLength);
    const open = socketsPerAddress.get(address) ?? 0;
    if (open >= maxSocketsPerAddress) {
      refuse(socket, 429, "Too Many Requests");
      return;
    }
    // Counted from the upgrade to the connection's end, whether or not the handshake completes.
    socketsPerAddress.set(address, open + 1);
    (socket as AddressedStream)[ADDRESS] = address;
    // `on`, not `once` (a wrapper per socket): a connection closes once.
    socket.on("close", releaseAddress);
    const parsedId = ClientIdSchema.safeParse(url.searchParams.get("clientId") ?? undefined);
    const clientId = parsedId.success ? parsedId.data : `anon-${randomUUID()}`;
    const cookie = hostCookiesOf(request.headers.cookie);
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws, socket, clientId, address, cookie));
  };
  server.on("upgrade", onUpgrade);

  const limits: JoinLimits = { ...DEFAULT_JOIN_LIMITS, ...options.joinLimits };
  const joinsPerAddressPerGame = new WindowCounter(60);
  const joinsPerAddress = new WindowCounter(60);
  const joinsPerGame = new WindowCounter(60);
  const playersPerAddressPerGame = new WindowCounter(PLAYERS_PER_IP_WINDOW_SECONDS);

  /**
   * Spends one new-player join from the address's and the game's allowances; false (and an ERROR
   * sent) when one is used up. The per-minute ones count attempts; the address's total in a game
   * counts players admitted (see `countAdmitted`).
   */
  function allowNewPlayer(client: Client, gameCode: string): boolean {
    const addressInGame = `${gameCode}|${client.address}`;
    if (playersPerAddressPerGame.count(addressInGame) >= limits.playersPerIpPerGame) {
      replyError(client, JOIN_LIMIT_MESSAGES.ipGameTotal, "JOIN_RATE_LIMITED");
      return false;
    }
    for (const [counter, key, limit, message] of [
      [joinsPerAddressPerGame, addressInGame, limits.joinsPerIpPerGamePerMinute, JOIN_LIMIT_MESSAGES.ipGame],
      [joinsPerAddress, client.address, limits.joinsPerIpPerMinute, JOIN_LIMIT_MESSAGES.ip],
      [joinsPerGame, gameCode, limits.joinsPerGamePerMinute, JOIN_LIMIT_MESSAGES.game],
    ] as const) {
      if (!counter.take(key, limit)) {
        replyError(client, message, "JOIN_RATE_LIMITED");
        return false;
      }
    }
    return true;
  }

  /** A new player from this address is in the game; over the cap already, the next one from there is refused before it joins. */
  function countAdmitted(client: Client, gameCode: string): void {
    playersPerAddressPerGame.add(`${gameCode}|${client.address}`);
  }

  /** Only the cookies a host seat needs, and only when there are any: most sockets are players' and keep nothing. */
  const keptCookies = new Set([HOST_SECRET_COOKIE, ...(options.hostCookieNames ?? [])]);
  function hostCookiesOf(header: string | undefined): string | null {
    if (!header) return null;
    const kept = header
      .split(";")
      .map((part) => part.trim())
      .filter((part) => keptCookies.has(part.slice(0, part.indexOf("="))));
    return kept.length > 0 ? kept.join("; ") : null;
  }

  /** Who the socket's browser is, as its upgrade's cookies say: its host secret and signed-in user. */
  async function hostClaimOf(client: Client): Promise<{ hostSecret: string | null; userId: number | null }> {
    if (!client.cookie) return { hostSecret: null, userId: null };
    return { hostSecret: hostSecretOf(client.cookie), userId: options.signedInUserOf ? await options.signedInUserOf(client.cookie) : null };
  }

  function accept(socket: WebSocket, stream: Duplex, clientId: string, address: string, cookie: string | null): void {
    const client = new Client(socket, stream, clientId, address, burst, cookie);
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
    replyError(client, "Something went wrong handling that message.", "MESSAGE_FAILED");
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
   * Every ERROR has a code, and the values of a message that has them, which the browser translates
   * its message by (docs/decisions/0029-languages.md).
   */
  function replyError(client: Client, message: string, code: string, values?: ErrorValues): void {
    client.send(encodeServerMessage("ERROR", values ? { message, code, values } : { message, code }));
    metrics.sent("ERROR", 1);
  }

  /** A promise only for the messages that wait for the database: joining and watching. */
  function handle(client: Client, text: string): void | Promise<void> {
    const parsed = parseClientMessage(text);
    metrics.received(parsed.ok ? parsed.message.type : "invalid");
    if (!parsed.ok) {
      replyError(client, parsed.error, "BAD_MESSAGE", parsed.values);
      return;
    }
    const message = parsed.message;
    if (message.type === "JOIN_GAME") return join(client, message);
    if (message.type === "WATCH_GAME") return watch(client, message);
    const room = client.room;
    if (message.type === "LEAVE_GAME" && !room) return;
    if (!room || room.gameCode !== message.payload.gameCode) {
      replyError(client, "Join the game first.", "NOT_JOINED");
      return;
    }
    switch (message.type) {
      case "START_GAME":
        room.start(client);
        return;
      case "NEXT_QUESTION":
        room.next(client);
        return;
      case "SUBMIT_ANSWER": {
        const { answerIndex, answerIndexes, text, number } = message.payload;
        room.answer(client, message.payload.playerId, { answerIndex, answerIndexes, text, number });
        return;
      }
      case "PLAY_AGAIN":
        room.playAgain(client);
        return;
      case "KICK_PLAYER":
        room.kick(client, message.payload.playerId);
        return;
      case "LOCK_GAME":
        room.lock(client, message.payload.locked);
        return;
      case "ACCEPT_ANSWER":
        room.acceptTypedAnswer(client, message.payload.questionNumber, message.payload.text);
        return;
      case "PAUSE_QUESTION":
        room.pause(client);
        return;
      case "RESUME_QUESTION":
        room.resume(client);
        return;
      case "END_GAME":
        room.end(client);
        return;
      case "SET_PICTURES_ON_PLAYERS":
        room.setPicturesOnPlayers(client, message.payload.enabled);
        return;
      case "SET_TEAM_MODE":
        room.setTeamMode(client, message.payload.enabled);
        return;
      case "ADD_TEAM":
        room.addTeam(client, message.payload.name);
        return;
      case "REMOVE_TEAM":
        room.removeTeam(client, message.payload.teamId);
        return;
      case "CHOOSE_TEAM":
        room.chooseTeam(client, message.payload.team);
        return;
      case "SET_BREAK_TIMER":
        room.setBreakTimer(client, message.payload.minutes);
        return;
      case "LEAVE_GAME":
        room.leave(client);
        client.room = null;
        return;
    }
  }

  /**
   * The live game of a code, looked up within the address's failed lookups: null (and an ERROR
   * sent) for an address past them, whatever the code, or for a code no live game has, which
   * counts as one more.
   */
  async function lookUpRoom(client: Client, gameCode: string): Promise<GameRoom | null> {
    const refusal = codeLookups?.refusal(client.address);
    if (refusal) {
      replyError(client, refusal.message, CODE_LOOKUPS_CODE, { wait: refusal.wait });
      return null;
    }
    const room = await hub.getRoom(gameCode);
    if (!room) {
      codeLookups?.failed(client.address);
      replyError(client, "Game not found. Check the code and try again.", "GAME_NOT_FOUND");
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
    if (isNew && !allowNewPlayer(client, gameCode)) return;
    if (client.room && client.room !== room) client.room.drop(client);
    client.room = room;
    if (isHost) {
      await room.joinAsHost(client, message.payload.key, await hostClaimOf(client));
      return;
    }
    room.joinAsPlayer(client, nickname, message.payload.team);
    if (isNew && room.hasClient(client.clientId)) countAdmitted(client, gameCode);
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
      for (const counter of [joinsPerAddressPerGame, joinsPerAddress, joinsPerGame, playersPerAddressPerGame]) counter.stop();
      server.off("upgrade", onUpgrade);
      for (const client of clients) client.socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
