/**
 * The composition root: configuration, database, game hub, Express with Remix, and the /ws
 * game transport on one HTTP server. `npm run dev` and `npm run serve` both start here.
 */
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import pino from "pino";
import proxyaddr from "proxy-addr";
import { sql } from "kysely";
import { describeDatabaseUrl, migrateToLatest, openDatabase, type DB } from "#db/connection.server";
import { seedDemoQuizzes } from "#db/seed.server";
import { CloseCode } from "#app/game/protocol";
import { describeAiConfig, isAiConfigured, QuizGenerator, type AiConfig } from "#app/ai/quiz-generator.server";
import { Billing, billingPageOrigins, describeBillingConfig, isBillingConfigured, type BillingConfig } from "#app/billing/billing.server";
import { aiConfigOf, billingConfigOf, loadDotEnvFile, parseEnv, publicFirebaseConfig, resolveSessionSecret, type TrustProxy } from "#app/env/env.server";
import { limitsDatabasePath, RateLimits } from "#app/limits/rate-limits.server";
import { openLimitsPool } from "#db/limits-pool.server";
import { addressKey, DEFAULT_IPV6_PREFIX_LENGTH } from "#app/limits/address-key";
import { DiskSpace } from "#app/limits/disk-space.server";
import { getUser, SESSION_COOKIE } from "#app/sessions/session.server";
import { bodyCapOf } from "#app/limits/body-limits";
import { keepIdleConnectionsLongerThanProxies } from "#server/keep-alive";
import { GameHub, type HubOptions } from "#server/game-hub";
import { HeavyWork, type HeavyWorkOptions, type WorkerScript } from "#server/heavy-work";
import { DEFAULT_SPREADSHEET_LIMITS } from "#app/limits/heavy-limits";
import { limitHeapGrowth } from "#server/heap-growth";
import { requestLog, requestLogs } from "#server/http-log";
import { drainUnreadBodies, limitRequestBodies, privatePagesNoStore, requireAllowedOrigin, securityHeaders } from "#server/http-security";
import { createLogger, type Logger } from "#server/logger";
import { metricsEndpoint, ServerMetrics } from "#server/metrics";
import { staticFiles } from "#server/precompressed-static";
import { attachGameTransport } from "#server/socket/transport";
import { JOIN_WINDOW_SECONDS } from "#server/socket/join-limits";
import { defaultDrainSeconds, handOverGames, NodeDrain, SHUTDOWN_SECONDS } from "#server/drain";
import { nodeAddressOf, nodeIdOf } from "#server/ownership";
import { leaseTimings } from "#server/ownership-lease";
import { PostgresOwnership } from "#server/ownership-postgres";
import { liveOwnerOfCode, liveOwnersOfCodes } from "#app/models/game-owners.server";
import { startClusterSignals } from "#server/cluster-signals";
import { SocketForwarder } from "#server/socket/forward";
import { forwardingKeyOf } from "#server/socket/forward-auth";
import { limitRules, serverLimitsOf, type ServerLimits } from "#server/server-limits";
import { CodeLookups, DEFAULT_CODE_LOOKUP_LIMITS, guardCodeLookups } from "#server/code-lookups";
import { issueHostSecret } from "#server/host-secret-cookie";
import { precheckPageForms } from "#server/form-precheck";

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** build/: beside server.ts when run from source (`npm run dev`), this module's parent once compiled to build/node/. */
const BUILD_DIR = path.basename(HERE) === "node" && path.basename(path.dirname(HERE)) === "build" ? path.dirname(HERE) : path.join(HERE, "build");

export interface ServerConfig {
  port: number;
  host: string;
  /** The SQLite file (DATABASE_PATH); unused for the data when databaseUrl is set. */
  databasePath: string;
  /**
   * A PostgreSQL URL (DATABASE_URL): the data lives there instead (docs/decisions/0051-postgres-second-store.md),
   * the limits count there for every node (docs/decisions/0054-limits-across-nodes.md), and the games'
   * owners are recorded there (docs/decisions/0052-game-ownership-and-fencing.md).
   */
  databaseUrl?: string;
  /** PostgreSQL only: the connection pool's size (DATABASE_POOL_SIZE; db/connection.server.ts). */
  databasePoolSize?: number;
  seedDemo: boolean;
  allowedOrigins: string[];
  sessionSecret: string;
  /** Behind a reverse proxy: which hops of X-Forwarded-For to trust for client addresses (TRUST_PROXY). */
  trustProxy?: TrustProxy;
  /** Every per-address limit counts an IPv6 client by its network of this prefix (IPV6_PREFIX_LENGTH, 64). */
  ipv6PrefixLength?: number;
  /** FULL (default): an acknowledged answer survives a power cut; NORMAL: a process crash only (SQLITE_SYNCHRONOUS). */
  sqliteSynchronous?: "full" | "normal";
  mode: "production" | "development";
  /** AI quiz generation; off when absent or without a key and a base URL. */
  ai?: AiConfig;
  /** Stripe billing; off when absent or without a secret key. */
  billing?: BillingConfig;
  game?: HubOptions;
  heartbeatIntervalMs?: number;
  /** Abuse limits; see ServerLimits. */
  limits?: Partial<ServerLimits>;
  /** Structured logs; pino to stdout at `info` by default. */
  logger?: Logger;
  /** Serves GET /metrics to a scraper sending it as a bearer token (METRICS_TOKEN); absent, /metrics is a 404. */
  metricsToken?: string;
  /** Imports, pictures and reports: how many at once, the queue, the workers' heap; see HeavyWorkOptions. */
  heavyWork?: Partial<HeavyWorkOptions>;
  /**
   * This node's name (NODE_ID): in /metrics and the logs the machine's host name when absent; in a
   * cluster, where it names the owner of games, unique to the process when absent (server/ownership.ts).
   */
  nodeId?: string;
  /** In a cluster: where the other nodes reach this one, host:port (NODE_ADDRESS); this machine's host name and port when absent. */
  nodeAddress?: string;
  /** In a cluster: how often the node renews its heartbeat, and how old another node's may be before its games are claimed (NODE_HEARTBEAT_MS, NODE_LEASE_MS). */
  ownershipTimings?: { heartbeatMs?: number; leaseMs?: number };
  /** How long `drain` serves the node's games before the shutdown (DRAIN_SECONDS; server/drain.ts); 0 when absent. */
  drainSeconds?: number;
}

/** Megabytes in the configuration, bytes in the limits (server/server-limits.ts). */
const MB = 1024 * 1024;

/**
 * The worker thread's script: compiled beside this module in production (build/node/heavy-worker.js,
 * also what the integration tests run), the TypeScript source through tsx's loader in development.
 */
function heavyWorkerScript(mode: ServerConfig["mode"]): WorkerScript {
  if (mode === "production") return { file: path.join(BUILD_DIR, "node", "heavy-worker.js") };
  const source = pathToFileURL(path.join(HERE, "server", "heavy-worker.ts")).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  return { code: `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); });` };
}

export interface RunningServer {
  url: string;
  port: number;
  db: DB;
  hub: GameHub;
  /**
   * Starts the drain (SIGTERM; server/drain.ts): `/readyz` answers 503 from now on, new sockets of
   * games this node does not hold are closed with 4000, and the node serves its games until they
   * are handed over, `drainSeconds` at most. `close` comes after.
   */
  drain(signal?: AbortSignal): Promise<void>;
  /** Commits pending game writes, closes sockets with `closeCode`, and stops listening. */
  close(closeCode?: number): Promise<void>;
}

export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const logger = config.logger ?? createLogger();
  const log = (message: string) => logger.info(message);
  const db = openDatabase(config.databaseUrl ?? config.databasePath, {
    synchronous: config.sqliteSynchronous,
    poolSize: config.databasePoolSize,
    onConnectionError: (error) =>
      logger.warn({ event: "database_connection_error", err: error }, "A pooled PostgreSQL connection failed; the pool replaces it."),
  });
  await migrateToLatest(db);
  if (config.seedDemo) {
    const seeded = await seedDemoQuizzes(db);
    if (seeded) log(`Seeded ${seeded} demo quizzes.`);
  }
  const limits = serverLimitsOf(config);
  // In a cluster the limits count in Postgres, for every node; alone, in a SQLite file beside the database.
  const limitsPool = config.databaseUrl
    ? openLimitsPool(config.databaseUrl, (error) =>
        logger.warn({ event: "limits_connection_error", err: error }, "A PostgreSQL connection of the limits failed; the pool replaces it."),
      )
    : null;
  const rateLimits = limitsPool
    ? await RateLimits.onPostgres(limitsPool, limitRules(limits))
    : new RateLimits(limitsDatabasePath(config.databasePath), limitRules(limits));
  const codeLookups = new CodeLookups({
    failuresPerAddress: limits.codeLookupFailuresPerIp,
    windowSeconds: DEFAULT_CODE_LOOKUP_LIMITS.windowSeconds,
    teamListsPerAddressPerMinute: limits.teamsLookupsPerIpPerMinute,
  });
  const databaseDir = config.databaseUrl || config.databasePath === ":memory:" ? process.cwd() : path.dirname(path.resolve(config.databasePath));
  const diskSpace = new DiskSpace(databaseDir, limits.minFreeDiskBytes);
  // In a cluster each game has one owner node at a time, recorded in Postgres (docs/decisions/0052-game-ownership-and-fencing.md).
  const nodeId = config.databaseUrl ? nodeIdOf(config.nodeId) : (config.nodeId ?? os.hostname());
  let listeningPort = config.port;
  const timings = leaseTimings(config.ownershipTimings?.heartbeatMs, config.ownershipTimings?.leaseMs);
  const ownership = config.databaseUrl
    ? new PostgresOwnership({
        db,
        // The heartbeat and the node's advisory lock on one connection of their own, which their session lives on.
        heartbeatDb: openDatabase(config.databaseUrl, {
          poolSize: 1,
          onConnectionError: (error) => logger.warn({ event: "heartbeat_connection_error", err: error }, "the ownership heartbeat's connection failed"),
        }),
        nodeId,
        address: () => nodeAddressOf(config.nodeAddress, listeningPort),
        timings,
        logger,
      })
    : undefined;
  const metrics = new ServerMetrics({ nodeId });
  // In a cluster what a request on any node changes for a live room reaches the node that has it
  // (server/cluster-signals.ts, docs/decisions/0056-forwarding-and-signals.md); alone, the hub does it.
  const signals = config.databaseUrl ? await startClusterSignals({ databaseUrl: config.databaseUrl, db, nodeId, logger }) : null;
  const hub = new GameHub(db, {
    ...config.game,
    logger,
    metrics,
    onSharedCommit: (games, seconds) => metrics.sharedCommit(games, seconds),
    settings: { ...config.game?.settings, maxPlayers: limits.maxPlayersPerGame },
    ownership,
    ownershipEvents: { claimed: () => metrics.gameClaimed(), handedOver: () => metrics.gameHandedOver(), fencedCommit: () => metrics.commitFenced() },
    signals: signals ?? undefined,
  });
  signals?.onSignal((signal) => hub.receiveSignal(signal));
  const drain = new NodeDrain(hub);
  const readiness = () => drain.readiness(() => sql`select 1`.execute(db));
  const heavyWork = new HeavyWork(config.heavyWork ?? {}, heavyWorkerScript(config.mode), logger);
  const quizGenerator = isAiConfigured(config.ai) ? new QuizGenerator(config.ai) : null;
  log(describeAiConfig(config.ai));
  const billing = isBillingConfigured(config.billing) ? new Billing(config.billing) : null;
  log(describeBillingConfig(config.billing));

  const firebase = publicFirebaseConfig();
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy ?? false);
  // The socket upgrade finds the client's address exactly as Express does for HTTP.
  const clientAddressOf = (request: http.IncomingMessage) => proxyaddr(request, app.get("trust proxy fn"));
  // What every per-address limit counts a request by: IPv4, or an IPv6 client's network (app/limits/address-key.ts).
  const ipv6PrefixLength = config.ipv6PrefixLength ?? DEFAULT_IPV6_PREFIX_LENGTH;
  const limitKeyOf = (req: express.Request) => addressKey(req.ip, ipv6PrefixLength);
  const httpServer = http.createServer(app);
  keepIdleConnectionsLongerThanProxies(httpServer);
  app.use(requestLogs(logger));
  app.use(securityHeaders({ firebaseAuthDomain: firebase?.authDomain ?? null, formActionOrigins: billingPageOrigins(config.billing) }));
  // Stripe's webhooks come from Stripe's servers, without an Origin; browsers always send one on a POST.
  app.use(requireAllowedOrigin(config.allowedOrigins));
  // Each route's body cap, from the one table the app reads bodies by (64 KiB unless a route says why).
  app.use(limitRequestBodies(bodyCapOf));
  app.use(drainUnreadBodies());
  // A page's form refused here costs no rendering (server/form-precheck.ts).
  app.use(precheckPageForms());
  app.use(compression());

  let build: ServerBuild | (() => Promise<ServerBuild>);
  let vite: import("vite").ViteDevServer | undefined;
  if (config.mode === "development") {
    const { createServer } = await import("vite");
    vite = await createServer({ server: { middlewareMode: true, hmr: { server: httpServer } }, appType: "custom" });
    app.use(vite.middlewares);
    const devServer = vite;
    build = () => devServer.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
  } else {
    const clientDir = path.join(BUILD_DIR, "client");
    // Brotli or gzip written at build time where the browser takes it; HTML and JSON are compressed as they go.
    app.use("/assets", staticFiles(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y" }));
    app.use(
      staticFiles(clientDir, {
        maxAge: "1h",
        // The service worker and the manifest are checked for a new version on every load.
        setHeaders: (res, file) => {
          if (/[\\/](sw\.js|manifest\.webmanifest)$/.test(file)) res.setHeader("Cache-Control", "no-cache");
        },
      }),
    );
    build = (await import(pathToFileURL(path.join(BUILD_DIR, "server/index.js")).href)) as ServerBuild;
  }
  app.get("/healthz", async (_req, res) => {
    try {
      await sql`select 1`.execute(db);
      res
        .set("Cache-Control", "no-store")
        .json({ status: "ok", uptimeSeconds: Math.round(process.uptime()), games: hub.roomCount, connections: transport.clientCount });
    } catch (error) {
      requestLog(res, logger).error({ event: "healthz_failed", err: error }, "health check failed");
      res.status(503).json({ status: "error" });
    }
  });
  // Readiness, beside liveness: 503 once the node drains or while its database does not answer,
  // so a balancer sends it no new work; /healthz stays 200 while draining (server/drain.ts).
  app.get("/readyz", async (_req, res) => {
    const state = await readiness();
    res.set("Cache-Control", "no-store");
    if (state.ready) res.json({ status: "ready" });
    else res.status(503).json({ status: "not ready", reason: state.reason });
  });
  if (config.metricsToken) {
    metrics.collectProcessMetrics();
    app.get("/metrics", metricsEndpoint(metrics, config.metricsToken, logger));
  }
  app.use(privatePagesNoStore(SESSION_COOKIE, ["/images/", "/schema/", "/create/template."]));
  // A game's pages and API: refused for an address that swept codes, their 404s counted (server/code-lookups.ts).
  app.use(guardCodeLookups(codeLookups, limitKeyOf));
  app.use(issueHostSecret());
  app.all(
    "*",
    createRequestHandler({
      build,
      getLoadContext: (req, res) => ({
        db,
        hub,
        quizGenerator,
        billing,
        logger: requestLog(res, logger),
        metrics,
        cspNonce: res.locals.cspNonce as string,
        sessionSecret: config.sessionSecret,
        clientIp: limitKeyOf(req),
        limits: rateLimits,
        codeLookups,
        diskSpace,
        heavyWork,
      }),
      mode: config.mode,
    }),
  );

  // In a cluster a socket for a game another live node owns is passed on to it, one hop, its
  // player's address proven with a key from SESSION_SECRET (server/socket/forward.ts, docs/decisions/0056).
  const forwarder = config.databaseUrl
    ? new SocketForwarder({
        nodeId,
        key: forwardingKeyOf(config.sessionSecret),
        liveOwnerOf: (gameCode) => liveOwnerOfCode(db, gameCode, timings.leaseMs),
        liveOwnersOf: (gameCodes) => liveOwnersOfCodes(db, gameCodes, timings.leaseMs),
        logger,
        metrics,
      })
    : null;
  const transport = attachGameTransport(httpServer, hub, {
    allowedOrigins: config.allowedOrigins,
    heartbeatIntervalMs: config.heartbeatIntervalMs,
    joinLimits: limits,
    clientAddressOf,
    ipv6PrefixLength,
    maxSocketsPerAddress: limits.socketsPerIp,
    codeLookups,
    // A game made signed in gives its host seat to its account alone (docs/decisions/0044-shared-browsers.md).
    hostCookieNames: [SESSION_COOKIE],
    signedInUserOf: async (cookie) =>
      (await getUser({ db, sessionSecret: config.sessionSecret }, new Request("http://localhost/ws", { headers: { cookie } })))?.id ?? null,
    logger,
    metrics,
    rejectOtherUpgrades: config.mode === "production",
    admitsSocket: drain.admitsSocket,
    forwarding: forwarder
      ? {
          check: (request, gameCode) => forwarder.check(request, gameCode),
          // A draining node passes nothing on: its carried sockets would end with it. Its new sockets get 4000 and land elsewhere.
          forward: (request, socket, head, gameCode, clientAddress) =>
            drain.draining ? Promise.resolve(false) : forwarder.forward(request, socket, head, gameCode, clientAddress),
        }
      : undefined,
    onForwardRefused: (reason) => logger.warn({ event: "forward_refused", reason }, "an upgrade's forwarding headers did not check out"),
    sharedJoinAllowance: rateLimits.sharedAllowance("joinsAcrossGames", limits.joinsPerIpPerMinute, JOIN_WINDOW_SECONDS) ?? undefined,
  });
  metrics.watch({
    games: () => hub.roomCount,
    players: () => hub.playerCount,
    sockets: () => transport.clientCount,
    ready: async () => (await readiness()).ready,
  });
  // A sign-in or sign-out reopens that browser's sockets, so they carry its cookies as they are now (docs/decisions/0044).
  hub.onSignInChange((clientId) => transport.reopenSocketsOf(clientId));

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(config.port, config.host, resolve);
  });
  const address = httpServer.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  listeningPort = port;
  // Once it listens, so its row names the port the others reach it at; until then it claims no game.
  await ownership?.start();
  const shownHost = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;

  return {
    url: `http://${shownHost}:${port}`,
    port,
    db,
    hub,
    async drain(signal) {
      drain.begin();
      logger.info({ event: "drain_started", games: hub.roomCount }, "draining: no new work, serving the live games");
      await handOverGames(hub, Date.now() + (config.drainSeconds ?? 0) * 1000, signal);
    },
    async close(closeCode = CloseCode.SERVER_RESTARTING) {
      await hub.close(closeCode, "Server restarting");
      await signals?.close();
      await transport.close();
      forwarder?.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      await vite?.close();
      await db.destroy();
      rateLimits.close();
      await limitsPool?.end();
      codeLookups.stop();
      await heavyWork.close();
    },
  };
}

async function main(): Promise<void> {
  limitHeapGrowth();
  loadDotEnvFile();
  const env = parseEnv();
  const logger = createLogger({ level: env.LOG_LEVEL });
  const drainSeconds = env.DRAIN_SECONDS ?? defaultDrainSeconds(env.DATABASE_URL !== undefined);
  const sessionSecret = resolveSessionSecret(env.SESSION_SECRET, env.DATABASE_PATH, (message) => logger.info(message));
  const server = await startServer({
    sessionSecret,
    trustProxy: env.TRUST_PROXY,
    ipv6PrefixLength: env.IPV6_PREFIX_LENGTH,
    sqliteSynchronous: env.SQLITE_SYNCHRONOUS,
    port: env.PORT,
    host: env.HOST,
    databasePath: env.DATABASE_PATH,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    seedDemo: env.SEED_DEMO,
    allowedOrigins: env.ALLOWED_ORIGINS,
    mode: env.NODE_ENV === "production" ? "production" : "development",
    ai: aiConfigOf(env),
    billing: billingConfigOf(env),
    logger,
    metricsToken: env.METRICS_TOKEN,
    nodeId: env.NODE_ID,
    nodeAddress: env.NODE_ADDRESS,
    ownershipTimings: { heartbeatMs: env.NODE_HEARTBEAT_MS, leaseMs: env.NODE_LEASE_MS },
    drainSeconds,
    heavyWork: {
      concurrency: env.HEAVY_WORK_CONCURRENCY,
      queue: env.HEAVY_WORK_QUEUE,
      perAddress: env.HEAVY_WORK_PER_IP,
      workerMemoryMb: env.HEAVY_WORK_MEMORY_MB,
      maxInputPixels: env.IMAGE_MAX_PIXELS,
      spreadsheet: {
        maxRows: env.SPREADSHEET_MAX_ROWS ?? DEFAULT_SPREADSHEET_LIMITS.maxRows,
        maxUnpackedBytes:
          env.SPREADSHEET_MAX_UNPACKED_MB === undefined ? DEFAULT_SPREADSHEET_LIMITS.maxUnpackedBytes : env.SPREADSHEET_MAX_UNPACKED_MB * 1024 * 1024,
      },
    },
    limits: {
      joinsPerIpPerGamePerMinute: env.JOIN_LIMIT_PER_IP,
      joinsPerIpPerMinute: env.JOIN_LIMIT_PER_IP_ALL_GAMES,
      playersPerIpPerGame: env.PLAYERS_PER_IP_PER_GAME,
      joinsPerGamePerMinute: env.JOIN_LIMIT_PER_GAME,
      maxPlayersPerGame: env.MAX_PLAYERS_PER_GAME,
      guestsPerIpPerHour: env.GUEST_LIMIT_PER_IP,
      registrationsPerIpPerHour: env.REGISTER_LIMIT_PER_IP,
      aiQuizzesPerIpPerHour: env.AI_LIMIT_PER_IP,
      aiQuizzesPerDay: env.AI_DAILY_LIMIT,
      quizzesPerIpPerHour: env.QUIZ_LIMIT_PER_IP,
      questionsPerIpPerHour: env.QUESTION_LIMIT_PER_IP,
      gamesPerIpPerHour: env.GAME_LIMIT_PER_IP,
      imagesPerIpPerHour: env.IMAGE_LIMIT_PER_IP,
      imageBytesPerIpPerDay: env.IMAGE_MB_PER_IP_PER_DAY === undefined ? undefined : env.IMAGE_MB_PER_IP_PER_DAY * MB,
      imageBytesPerDay: env.IMAGE_MB_PER_DAY === undefined ? undefined : env.IMAGE_MB_PER_DAY * MB,
      minFreeDiskBytes: env.MIN_FREE_DISK_MB === undefined ? undefined : env.MIN_FREE_DISK_MB * MB,
      socketsPerIp: env.SOCKETS_PER_IP,
      codeLookupFailuresPerIp: env.CODE_LOOKUP_FAILURES_PER_IP,
      teamsLookupsPerIpPerMinute: env.TEAMS_LIMIT_PER_IP,
    },
    game: {
      settings: {
        resultsDelayMs: env.RESULTS_DELAY_MS,
        nextQuestionSeconds: env.NEXT_QUESTION_SECONDS,
        lobbyGraceMs: env.LOBBY_GRACE_SECONDS * 1000,
      },
      idleLobbyTtlMs: env.LOBBY_IDLE_MINUTES === undefined ? undefined : env.LOBBY_IDLE_MINUTES * 60_000,
      reportRetentionMs: env.REPORT_RETENTION_DAYS * 24 * 60 * 60_000,
    },
  });
  const database = env.DATABASE_URL ? `PostgreSQL ${describeDatabaseUrl(env.DATABASE_URL)}` : env.DATABASE_PATH;
  logger.info({ event: "server_started", url: server.url, database }, `Quiz Night is running at ${server.url} (database ${database})`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ event: "server_stopping", signal, drainSeconds }, `${signal} received: draining, then saving games and closing connections...`);
    // Within the grace period a container, an orchestrator or a systemd unit (TimeoutStopSec) waits
    // after SIGTERM before killing: DRAIN_SECONDS + SHUTDOWN_SECONDS (docs/configuration.md).
    setTimeout(() => process.exit(1), (drainSeconds + SHUTDOWN_SECONDS) * 1000).unref();
    // The drain ends by its own deadline; the shutdown's 8 s start when it does.
    server
      .drain()
      .then(() => server.close())
      .then(
        () => {
          logger.info({ event: "server_stopped" }, "stopped");
          logger.flush();
          process.exit(0);
        },
        (error) => {
          logger.error({ event: "shutdown_failed", err: error }, "shutdown failed");
          logger.flush();
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    // The configured logger may not exist yet (LOG_LEVEL is part of what failed to parse); written
    // synchronously so the reason is out before the process ends.
    const logger = createLogger({ destination: pino.destination({ dest: 1, sync: true }) });
    logger.fatal({ event: "server_failed", err: error }, error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
