/**
 * The composition root: configuration, database, game hub, Express with Remix, and the /ws
 * game transport on one HTTP server. `npm run dev` and `npm run serve` both start here.
 */
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import { migrateToLatest, openDatabase, type DB } from "#db/connection.server";
import { seedDemoQuizzes } from "#db/seed.server";
import { CloseCode } from "#app/game/protocol";
import { describeAiConfig, isAiConfigured, QuizGenerator, type AiConfig } from "#app/ai/quiz-generator.server";
import { Billing, billingPageOrigins, describeBillingConfig, isBillingConfigured, type BillingConfig } from "#app/billing/billing.server";
import { aiConfigOf, billingConfigOf, parseEnv, publicFirebaseConfig, resolveSessionSecret } from "#app/utils/env.server";
import { SESSION_COOKIE } from "#app/utils/session.server";
import { GameHub, type HubOptions } from "#server/game-hub";
import { attachGameTransport } from "#server/ws";

const ROOT = path.dirname(fileURLToPath(import.meta.url));

export interface ServerConfig {
  port: number;
  host: string;
  databasePath: string;
  seedDemo: boolean;
  allowedOrigins: string[];
  sessionSecret: string;
  /** Behind a reverse proxy, trust its X-Forwarded-For for client addresses. */
  trustProxy?: boolean;
  mode: "production" | "development";
  /** AI quiz generation; off when absent or without a key and a base URL. */
  ai?: AiConfig;
  /** Stripe billing; off when absent or without a secret key. */
  billing?: BillingConfig;
  game?: HubOptions;
  heartbeatIntervalMs?: number;
  log?: (message: string) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  db: DB;
  hub: GameHub;
  /** Commits pending game writes, closes sockets with `closeCode`, and stops listening. */
  close(closeCode?: number): Promise<void>;
}

export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const log = config.log ?? ((message: string) => console.log(message));
  const db = openDatabase(config.databasePath);
  await migrateToLatest(db);
  if (config.seedDemo) {
    const seeded = await seedDemoQuizzes(db);
    if (seeded) log(`Seeded ${seeded} demo quizzes.`);
  }
  const hub = new GameHub(db, config.game);
  const quizGenerator = isAiConfigured(config.ai) ? new QuizGenerator(config.ai) : null;
  log(describeAiConfig(config.ai));
  const billing = isBillingConfigured(config.billing) ? new Billing(config.billing) : null;
  log(describeBillingConfig(config.billing));

  const firebase = publicFirebaseConfig();
  const app = express();
  app.disable("x-powered-by");
  if (config.trustProxy) app.set("trust proxy", true);
  const httpServer = http.createServer(app);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          // Remix hydrates with inline scripts; connect-src allows the game socket (and Vite's in dev).
          "script-src": ["'self'", "'unsafe-inline'", ...(firebase ? ["https://apis.google.com"] : [])],
          "connect-src": [
            "'self'",
            "ws:",
            "wss:",
            ...(firebase ? ["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"] : []),
          ],
          "frame-src": firebase ? [`https://${firebase.authDomain}`] : ["'none'"],
          // Subscribe and Manage billing post forms that the server redirects to Stripe's pages.
          "form-action": ["'self'", ...billingPageOrigins(config.billing)],
          "upgrade-insecure-requests": null,
        },
      },
      // Served over plain http on a LAN as often as behind TLS.
      strictTransportSecurity: false,
      // "no-referrer" makes browsers send `Origin: null` on form posts, which Remix's origin check refuses.
      referrerPolicy: { policy: "same-origin" },
      // Google sign-in opens a Firebase popup that must be able to report back to this page.
      crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
    }),
  );
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
    const clientDir = path.join(ROOT, "build/client");
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y" }));
    app.use(
      express.static(clientDir, {
        maxAge: "1h",
        // The service worker and the manifest are checked for a new version on every load.
        setHeaders: (res, file) => {
          if (/[\\/](sw\.js|manifest\.webmanifest)$/.test(file)) res.setHeader("Cache-Control", "no-cache");
        },
      }),
    );
    build = (await import(pathToFileURL(path.join(ROOT, "build/server/index.js")).href)) as ServerBuild;
  }
  // A signed-in browser's pages carry its user's data: no cache, the service worker's included, keeps them.
  app.use((req, res, next) => {
    if (req.headers.cookie?.includes(`${SESSION_COOKIE}=`)) res.setHeader("Cache-Control", "private, no-store");
    next();
  });
  app.all(
    "*",
    createRequestHandler({
      build,
      getLoadContext: (req) => ({ db, hub, quizGenerator, billing, sessionSecret: config.sessionSecret, clientIp: req.ip ?? "" }),
      mode: config.mode,
    }),
  );

  const transport = attachGameTransport(httpServer, hub, {
    allowedOrigins: config.allowedOrigins,
    heartbeatIntervalMs: config.heartbeatIntervalMs,
    rejectOtherUpgrades: config.mode === "production",
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(config.port, config.host, resolve);
  });
  const address = httpServer.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const shownHost = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;

  return {
    url: `http://${shownHost}:${port}`,
    port,
    db,
    hub,
    async close(closeCode = CloseCode.SERVER_RESTARTING) {
      await hub.close(closeCode, "Server restarting");
      await transport.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      await vite?.close();
      await db.destroy();
    },
  };
}

async function main(): Promise<void> {
  const env = parseEnv();
  const sessionSecret = resolveSessionSecret(env.SESSION_SECRET, env.DATABASE_PATH, console.log);
  const server = await startServer({
    sessionSecret,
    trustProxy: env.TRUST_PROXY,
    port: env.PORT,
    host: env.HOST,
    databasePath: env.DATABASE_PATH,
    seedDemo: env.SEED_DEMO,
    allowedOrigins: env.ALLOWED_ORIGINS,
    mode: env.NODE_ENV === "production" ? "production" : "development",
    ai: aiConfigOf(env),
    billing: billingConfigOf(env),
    game: {
      settings: {
        resultsDelayMs: env.RESULTS_DELAY_MS,
        nextQuestionSeconds: env.NEXT_QUESTION_SECONDS,
        lobbyGraceMs: env.LOBBY_GRACE_SECONDS * 1000,
      },
    },
  });
  console.log(`Quiz Night is running at ${server.url} (database ${env.DATABASE_PATH})`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: saving games and closing connections...`);
    setTimeout(() => process.exit(1), 10_000).unref();
    server.close().then(
      () => process.exit(0),
      (error) => {
        console.error("Shutdown failed", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
