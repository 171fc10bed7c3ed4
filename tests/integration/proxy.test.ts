/**
 * Behind a proxy (issue 15): docs/deploy's nginx and Caddy files, run by the real nginx and Caddy
 * in front of the real server. The test reads the files themselves and changes only what a test
 * must (ports, certificate paths, Caddy's site address and global options), so what a self-hoster
 * copies is what passed here. Through each proxy: the health check, a page and its script, a game
 * over /ws (with the server's pings passing both ways), the visitor's address as the server's
 * limits see it, X-Forwarded-Proto, and a body the size of a picture upload. The timeouts and the
 * body limit are read from the files and compared with the server's own figures.
 *
 * Without nginx (and openssl, for its certificate) or Caddy, that proxy's tests are skipped, saying
 * so; with REQUIRE_PROXY_TESTS=1 (CI) they fail instead.
 */
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "#tests/free-port";
import { parseEnv } from "#app/env/env.server";
import { MAX_IMPORT_REQUEST_BYTES } from "#app/quiz-files/quiz-file";
import { MAX_UPLOAD_REQUEST_BYTES } from "#app/pictures/storage-limits";
import { JOIN_LIMIT_MESSAGES } from "#server/socket/join-limits";
import { DEFAULT_HEARTBEAT_INTERVAL_MS } from "#server/socket/transport";
import { TestClient, createGameFixture, startTestServer, type TestServer } from "./harness";
import { findProgram, makeCertificate, readDeployFile, replaceIn, startChild, stopChild, waitUntilServing, runNginxWithSite } from "./deploy-files";

const REQUIRED = process.env.REQUIRE_PROXY_TESTS === "1";
/** The test server pings this often, so a socket kept for a second sees several pings through the proxy. */
const TEST_HEARTBEAT_MS = 200;
const JOINS_PER_ADDRESS = 3;

/** Replaces `from` in a docs/deploy file, insisting it occurs `count` times: a reworded file fails here, not mysteriously later. */
/** The file without its comments, for reading settings. */
const withoutComments = (text: string) => text.replace(/#.*$/gm, "");

function secondsOf(value: string): number {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(value);
  if (!match) throw new Error(`not a duration: ${value}`);
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600 }[match[2] ?? "s"]!;
  return Number(match[1]) * unit;
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An HTTP(S) request from a chosen local address (every 127.x.y.z is this machine), trusting the test's own certificate. */
function request(url: string, init: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {}): Promise<Reply> {
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  const headers: Record<string, string | number> = { ...init.headers };
  if (init.body !== undefined) headers["content-length"] = Buffer.byteLength(init.body);
  return new Promise((resolve, reject) => {
    const outgoing = client.request(
      target,
      { method: init.method ?? "GET", headers, localAddress: init.localAddress, rejectUnauthorized: false, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(init.body);
  });
}

/** A proxy running as a child process of the test, in a directory of its own. */
interface RunningProxy {
  /** Where browsers reach the app through it, e.g. https://127.0.0.1:41234. */
  url: string;
  /** Plain HTTP, when it is not `url`. */
  httpUrl?: string;
  /** What the proxy wrote in its access log so far, when the file asks for one. */
  accessLog?: () => string;
  stop(): Promise<void>;
}

/** Waits until /healthz answers 200 through the proxy; fails with the proxy's own words if it exits or never does. */
async function startNginx(appPort: number): Promise<RunningProxy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-nginx-"));
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const { cert, key } = makeCertificate(dir);

  const file = "nginx.conf";
  let site = readDeployFile(file);
  site = replaceIn(file, site, "server 127.0.0.1:3000;", `server 127.0.0.1:${appPort};`);
  site = replaceIn(file, site, "listen 80;", `listen 127.0.0.1:${httpPort};`);
  site = replaceIn(file, site, "listen [::]:80;", "");
  site = replaceIn(file, site, "listen 443 ssl;", `listen 127.0.0.1:${httpsPort} ssl;`);
  site = replaceIn(file, site, "listen [::]:443 ssl;", "");
  site = replaceIn(file, site, "/etc/letsencrypt/live/quiz.example.com/fullchain.pem", cert);
  site = replaceIn(file, site, "/etc/letsencrypt/live/quiz.example.com/privkey.pem", key);
  const accessLog = path.join(dir, "quiz-night.access.log");
  site = replaceIn(file, site, "/var/log/nginx/quiz-night.access.log", accessLog, 2);
  const { child, log } = runNginxWithSite(dir, site);
  const url = `https://127.0.0.1:${httpsPort}`;
  const running: RunningProxy = {
    url,
    httpUrl: `http://127.0.0.1:${httpPort}`,
    accessLog: () => (fs.existsSync(accessLog) ? fs.readFileSync(accessLog, "utf8") : ""),
    async stop() {
      await stopChild(child, "SIGQUIT");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitUntilServing(`${url}/healthz`, async (at) => (await request(at)).status, child, log);
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}

async function startCaddy(appPort: number): Promise<RunningProxy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-caddy-"));
  const port = await freePort();
  const file = "Caddyfile";
  let site = readDeployFile(file);
  // Loopback only; the site and the app come from the file's placeholders, as in compose.yaml.
  site = replaceIn(file, site, "{$QUIZ_NIGHT_DOMAIN:quiz.example.com} {", "{$QUIZ_NIGHT_DOMAIN:quiz.example.com} {\n\tbind 127.0.0.1");
  expect(site).toContain("reverse_proxy {$QUIZ_NIGHT_UPSTREAM:127.0.0.1:3000}");
  const global = `{\n\tadmin off\n\tauto_https off\n\tstorage file_system {\n\t\troot ${dir}/storage\n\t}\n}\n\n`;
  const config = path.join(dir, "Caddyfile");
  fs.writeFileSync(config, global + site);

  const { child, output } = startChild(findProgram("caddy")!, ["run", "--config", config, "--adapter", "caddyfile"], {
    cwd: dir,
    env: {
      ...process.env,
      // Plain HTTP on a test port instead of a domain with a certificate from Let's Encrypt.
      QUIZ_NIGHT_DOMAIN: `http://127.0.0.1:${port}`,
      QUIZ_NIGHT_UPSTREAM: `127.0.0.1:${appPort}`,
      HOME: dir,
      XDG_DATA_HOME: path.join(dir, "data"),
      XDG_CONFIG_HOME: path.join(dir, "config"),
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const running: RunningProxy = {
    url,
    async stop() {
      await stopChild(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitUntilServing(`${url}/healthz`, async (at) => (await request(at)).status, child, output);
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}

let serverStarted: Promise<TestServer> | null = null;
/** One server behind both proxies, trusting one hop: the proxy in front. */
function theServer(): Promise<TestServer> {
  serverStarted ??= startTestServer({
    trustProxy: parseEnv({ TRUST_PROXY: "1" }).TRUST_PROXY,
    heartbeatIntervalMs: TEST_HEARTBEAT_MS,
    limits: { joinsPerIpPerGamePerMinute: JOINS_PER_ADDRESS },
  });
  return serverStarted;
}

afterAll(async () => {
  if (serverStarted) await (await serverStarted).stop();
});

describe("docs/deploy's settings suit the server", () => {
  const heartbeatSeconds = DEFAULT_HEARTBEAT_INTERVAL_MS / 1000;
  const aiSeconds = parseEnv({}).OPENAI_TIMEOUT_SECONDS;
  const largestBody = 2 * Math.max(MAX_IMPORT_REQUEST_BYTES, MAX_UPLOAD_REQUEST_BYTES);

  it("nginx: read and send timeouts well past the heartbeat (and an AI generation); a body limit above the largest upload", () => {
    const conf = withoutComments(readDeployFile("nginx.conf"));
    for (const directive of ["proxy_read_timeout", "proxy_send_timeout"]) {
      const value = new RegExp(`^\\s*${directive}\\s+(\\S+);`, "m").exec(conf)?.[1];
      expect(value, `${directive} is set`).toBeDefined();
      // A ping every heartbeat keeps the socket busy; twice the interval leaves room for a late one.
      expect(secondsOf(value!)).toBeGreaterThan(2 * heartbeatSeconds);
      expect(secondsOf(value!)).toBeGreaterThan(aiSeconds);
    }
    const size = /^\s*client_max_body_size\s+(\d+)([km]?);/im.exec(conf);
    expect(size, "client_max_body_size is set").not.toBeNull();
    const bytes = Number(size![1]) * { "": 1, k: 1024, m: 1024 * 1024 }[size![2].toLowerCase() as "" | "k" | "m"];
    expect(bytes).toBeGreaterThanOrEqual(largestBody);
    expect(conf).toMatch(/proxy_set_header\s+Upgrade\s+\$http_upgrade;/);
    expect(conf).toMatch(/proxy_set_header\s+X-Forwarded-For\s+\$proxy_add_x_forwarded_for;/);
    expect(conf).toMatch(/proxy_set_header\s+X-Forwarded-Proto\s+\$scheme;/);
  });

  it("nginx: HSTS on what it serves over TLS; an access log without query strings (a display's or remote's key)", () => {
    const conf = withoutComments(readDeployFile("nginx.conf"));
    const tls = conf.slice(conf.indexOf("listen 443 ssl;"));
    expect(tls).toMatch(/^\s*add_header\s+Strict-Transport-Security\s+"max-age=(\d+)[^"]*"\s+always;/m);
    expect(Number(/max-age=(\d+)/.exec(tls)![1])).toBeGreaterThanOrEqual(180 * 24 * 60 * 60);
    const format = /^\s*log_format\s+(\w+)\s+([^;]+);/m.exec(conf);
    expect(format, "a log_format of its own").not.toBeNull();
    expect(format![2]).not.toMatch(/\$request\b|\$request_uri|\$args|\$query_string|\$http_referer/);
    const logs = [...conf.matchAll(/^\s*access_log\s+(\S+)(?:\s+(\w+))?;/gm)];
    // Each server block (the redirect's and the site's) logs in that format.
    expect(logs.map((match) => match[2])).toEqual([format![1], format![1]]);
  });

  it("Caddy: HSTS on what it serves", () => {
    const file = withoutComments(readDeployFile("Caddyfile"));
    expect(file).toMatch(/Strict-Transport-Security\s+"max-age=(\d+)[^"]*"/);
    expect(Number(/max-age=(\d+)/.exec(file)![1])).toBeGreaterThanOrEqual(180 * 24 * 60 * 60);
  });

  it("Caddy: a read timeout well past the heartbeat (and an AI generation); no body limit below the largest upload", () => {
    const file = withoutComments(readDeployFile("Caddyfile"));
    const value = /^\s*read_timeout\s+(\S+)/m.exec(file)?.[1];
    expect(value, "read_timeout is set").toBeDefined();
    expect(secondsOf(value!)).toBeGreaterThan(2 * heartbeatSeconds);
    expect(secondsOf(value!)).toBeGreaterThan(aiSeconds);
    expect(file).not.toMatch(/max_size/);
  });

  it("the systemd unit uses variables the server reads and stops after the server's own shutdown deadline", () => {
    const unit = withoutComments(readDeployFile("quiz-night.service"));
    const variables = [...unit.matchAll(/^Environment=(\w+)=/gm)].map((match) => match[1]).filter((name) => !/^(HOME|npm_config_\w+)$/.test(name));
    expect(variables).toEqual(["NODE_ENV", "DATABASE_PATH"]);
    expect(() => parseEnv({ NODE_ENV: "production", DATABASE_PATH: "/var/lib/quiz-night/quiz.sqlite" })).not.toThrow();
    expect(unit).toMatch(/^ExecStart=\S*node --enable-source-maps build\/node\/server.js$/m);
    expect(unit).toMatch(/^EnvironmentFile=\/etc\/quiz-night\/env$/m);
    expect(unit).toMatch(/^StateDirectory=quiz-night$/m);
    expect(unit).toMatch(/^Environment=DATABASE_PATH=\/var\/lib\/quiz-night\//m);
    // server.ts gives up waiting for its graceful shutdown after 10 s.
    expect(secondsOf(/^TimeoutStopSec=(\S+)$/m.exec(unit)![1])).toBeGreaterThan(10);
  });
});

const PROXIES = [
  { name: "nginx", programs: ["nginx", "openssl"], start: startNginx, https: true, clients: ["127.0.0.2", "127.0.0.3"] },
  { name: "Caddy", programs: ["caddy"], start: startCaddy, https: false, clients: ["127.0.0.4", "127.0.0.5"] },
] as const;

for (const proxy of PROXIES) {
  const absent = proxy.programs.filter((program) => !findProgram(program));
  const install = `apt-get install -y ${absent.join(" ")}`;
  if (absent.length > 0 && REQUIRED) {
    describe(`behind ${proxy.name}`, () => {
      it("has the proxy installed (REQUIRE_PROXY_TESTS=1)", () => {
        throw new Error(`${absent.join(", ")} not found on PATH or in /usr/sbin: ${install}`);
      });
    });
    continue;
  }
  const title =
    absent.length > 0
      ? `behind ${proxy.name}: SKIPPED, ${absent.join(" and ")} not installed (${install}; REQUIRE_PROXY_TESTS=1 makes this a failure)`
      : `behind ${proxy.name} (docs/deploy)`;
  if (absent.length > 0) console.warn(title);

  describe.skipIf(absent.length > 0)(title, () => {
    let server: TestServer;
    let running: RunningProxy;
    const [visitor, neighbour] = proxy.clients;
    const clients: TestClient[] = [];

    beforeAll(async () => {
      server = await theServer();
      running = await proxy.start(server.port);
    });

    afterAll(async () => {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      await running?.stop();
    });

    /** A browser at `from` with the page open: its socket carries the page's Origin, as a browser's does. */
    async function connect(from: string, clientId?: string, headers: Record<string, string> = {}): Promise<TestClient> {
      const client = await TestClient.connect(running, clientId, { origin: running.url, ...headers }, { localAddress: from, rejectUnauthorized: false });
      clients.push(client);
      return client;
    }

    it("answers GET /healthz", async () => {
      const reply = await request(`${running.url}/healthz`, { localAddress: visitor });
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toMatchObject({ status: "ok" });
    });

    it("serves a page and its script", async () => {
      const page = await request(`${running.url}/`, { localAddress: visitor });
      expect(page.status).toBe(200);
      expect(page.headers["content-type"]).toMatch(/text\/html/);
      const script = /\/assets\/[\w.-]+\.js/.exec(page.body)?.[0];
      expect(script).toBeDefined();
      const asset = await request(`${running.url}${script}`, { localAddress: visitor });
      expect(asset.status).toBe(200);
      expect(asset.headers["content-type"]).toMatch(/javascript/);
    });

    if (proxy.https) {
      it("sends plain HTTP to HTTPS", async () => {
        const reply = await request(`${running.httpUrl}/join`, { localAddress: visitor });
        expect(reply.status).toBe(301);
        expect(reply.headers.location).toMatch(/^https:\/\/[^/]+\/join$/);
      });
    }

    it("upgrades /ws: a host opens a game, a player joins and answers, and the server's pings pass both ways", async () => {
      const { gameCode, hostClientId } = await createGameFixture(server);
      const host = await connect(visitor, hostClientId);
      expect(await host.joinAsHost(gameCode)).toMatchObject({ gameCode, role: "host", phase: "lobby" });
      const player = await connect(neighbour);
      const playerId = await player.joinAsPlayer(gameCode, "Ann");
      expect(await host.next("PLAYER_JOINED")).toEqual({ player: { id: playerId, nickname: "Ann" } });

      host.send("START_GAME", { gameCode });
      expect(await player.next("GAME_STARTED")).toEqual({ questionCount: 3 });
      expect(await player.next("QUESTION_STARTED")).toMatchObject({ questionNumber: 1 });
      player.send("SUBMIT_ANSWER", { gameCode, playerId, answerIndex: 1 });
      expect(await player.next("ANSWER_ACCEPTED")).toEqual({ questionNumber: 1, answerIndex: 1 });

      // Quiet sockets for five heartbeats: the server pings them through the proxy and ends a
      // socket whose pong does not come back within one interval.
      let pings = 0;
      player.socket.on("ping", () => pings++);
      await new Promise((resolve) => setTimeout(resolve, 5 * TEST_HEARTBEAT_MS));
      expect(pings).toBeGreaterThanOrEqual(3);
      expect([host.closeCode, player.closeCode]).toEqual([null, null]);
    });

    it("the server sees the visitor's address: not the proxy's, nor one the visitor wrote in X-Forwarded-For", async () => {
      // HTTP: failed logins are limited per account and address; each attempt claims a new address.
      const email = `proxy-${proxy.name.toLowerCase()}@example.com`;
      const login = (from: string, attempt: number) =>
        request(`${running.url}/auth`, {
          method: "POST",
          localAddress: from,
          headers: { origin: running.url, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": `10.9.${attempt}.1` },
          body: new URLSearchParams({ intent: "login", email, password: `guess-${attempt}` }).toString(),
        });
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 11; attempt++) statuses.push((await login(visitor, attempt)).status);
      expect(statuses).toEqual([...Array(10).fill(401), 429]);
      // Another visitor behind the same proxy is another address.
      expect((await login(neighbour, 99)).status).toBe(401);

      // The socket: new players per address per game are limited, whatever X-Forwarded-For says.
      const { gameCode } = await createGameFixture(server);
      const outcomes: string[] = [];
      for (let i = 0; i <= JOINS_PER_ADDRESS; i++) {
        const client = await connect(visitor, undefined, { "x-forwarded-for": `10.20.${i}.1` });
        client.send("JOIN_GAME", { gameCode, nickname: `P${i}` });
        outcomes.push(await Promise.race([client.next("PLAYER_JOINED").then(() => "joined"), client.next("ERROR").then((error) => error.message)]));
      }
      expect(outcomes).toEqual([...Array(JOINS_PER_ADDRESS).fill("joined"), JOIN_LIMIT_MESSAGES.ipGame]);
      expect(await (await connect(neighbour)).joinAsPlayer(gameCode, "Neighbour")).toBeGreaterThan(0);
    });

    it(`passes X-Forwarded-Proto: the cookie a new browser gets is ${proxy.https ? "Secure over HTTPS" : "not Secure over plain HTTP"}`, async () => {
      const reply = await request(`${running.url}/api/quizzes`, {
        method: "POST",
        localAddress: visitor,
        headers: { origin: running.url, "content-type": "application/json" },
        body: JSON.stringify({ title: "Through the proxy", description: "", timeLimit: 30, isPublic: false }),
      });
      expect(reply.status).toBe(201);
      const cookie = [reply.headers["set-cookie"] ?? []].flat().find((line) => line.includes("Max-Age=31536000"));
      expect(cookie).toBeDefined();
      if (proxy.https) expect(cookie).toMatch(/; Secure/);
      else expect(cookie).not.toMatch(/Secure/);
    });

    it(`sends Strict-Transport-Security${proxy.https ? " over HTTPS" : " (a browser heeds it over HTTPS only; the test runs Caddy on plain HTTP)"}`, async () => {
      for (const pathname of ["/", "/join", "/healthz"]) {
        const reply = await request(`${running.url}${pathname}`, { localAddress: visitor });
        expect(reply.headers["strict-transport-security"], pathname).toMatch(/^max-age=\d+/);
      }
    });

    if (proxy.name === "nginx") {
      it("keeps a display's or remote's key out of its access log", async () => {
        const secret = "Ks3cr3tDisplayKeyFromTheQrCode";
        const paths = [`/display/ABCDEF?key=${secret}`, `/remote/ABCDEF?key=${secret}&x=1`, `/join?code=ABC&key=${secret}`];
        for (const pathname of paths) await request(`${running.url}${pathname}`, { localAddress: visitor });
        // The plain-HTTP redirect logs too.
        await request(`${running.httpUrl}${paths[0]}`, { localAddress: visitor });
        const log = running.accessLog!();
        expect(log).toContain("/display/ABCDEF");
        expect(log).toContain("/remote/ABCDEF");
        expect(log).not.toContain(secret);
        expect(log).not.toContain("key=");
      });
    }

    it("lets a body larger than a picture upload reach the app (nginx's default stops at 1 MB)", async () => {
      const body = "x".repeat(MAX_UPLOAD_REQUEST_BYTES + 1024 * 1024);
      const reply = await request(`${running.url}/api/quizzes/import`, {
        method: "POST",
        localAddress: visitor,
        headers: { origin: running.url, "content-type": "application/json" },
        body,
      });
      // The app read all of it and found it is not a quiz file.
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body)).toMatchObject({ error: "This quiz file is not valid JSON." });
    });
  });
}
