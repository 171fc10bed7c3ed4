/**
 * Routing by game (issue 28): docs/deploy's nginx-cluster.conf and haproxy.cfg, run by the real
 * nginx and HAProxy, and `npm run cluster`'s own proxy (scripts/cluster-proxy.ts), each in front of
 * three small backends that say which one they are and what X-Forwarded-For they got. Through each:
 * every socket and request naming one game lands on one backend, different games spread, requests
 * without a game go round robin, WebSocket frames pass both ways, the backend reads the visitor's
 * address as TRUST_PROXY=1 does, and removing a backend moves only the games that hashed to it
 * (consistent hashing). Through HAProxy and the cluster proxy, which poll /readyz, a backend that
 * starts draining loses its new sockets within seconds (HAProxy closes the ones it has, the cluster
 * proxy leaves them to the node), and a backend whose /readyz stops answering (hung) loses its
 * open sockets too, so that their clients reconnect to the next node.
 *
 * The test reads the shipped files and changes only ports, addresses and paths (replaceIn insists
 * on each), so what an operator copies is what passed here. Without nginx or HAProxy (or openssl,
 * for the certificate) that proxy's tests are skipped, saying so; REQUIRE_PROXY_TESTS=1 (CI) makes
 * that a failure.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import proxyaddr from "proxy-addr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { keepIdleConnectionsLongerThanProxies } from "#server/keep-alive";
import { freePort } from "#tests/free-port";
import { startClusterProxy } from "../../scripts/cluster-proxy";
import { DEPLOY, findProgram, makeCertificate, readDeployFile, replaceIn, startChild, stopChild, waitUntilServing, runNginxWithSite } from "./deploy-files";

const REQUIRED = process.env.REQUIRE_PROXY_TESTS === "1";
const BACKENDS = ["node-1", "node-2", "node-3"] as const;
/** Game codes as the server draws them; 30 of them reach each of three backends. */
const CODES = Array.from({ length: 30 }, (_, i) => `G${String(i).padStart(2, "0")}K7Q`);

/** Replaces `from` in a docs/deploy file, insisting it occurs `count` times: a reworded file fails here, not mysteriously later. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a backend saw of a request or a socket. */
interface Seen {
  backend: string;
  url: string;
  host: string;
  forwardedFor: string | null;
  forwardedProto: string | null;
  /** The client's address as the app reads it with TRUST_PROXY=1 (Express's `trust proxy` of one hop). */
  clientAddress: string;
}

/** A stand-in for a Quiz Night node: answers every request and socket with what it saw; /readyz with 200 until it drains. */
interface Backend {
  name: string;
  port: number;
  draining: boolean;
  /** Leaves /readyz unanswered, as a hung (SIGSTOPped) node does; the rest still answers, so only the check can tell. */
  hung: boolean;
  /** Closes its listener and every connection: a node that died. */
  stop(): Promise<void>;
}

function seenBy(name: string, request: http.IncomingMessage): Seen {
  const header = (key: string) => {
    const value = request.headers[key];
    return value === undefined ? null : String(value);
  };
  return {
    backend: name,
    url: request.url ?? "",
    host: request.headers.host ?? "",
    forwardedFor: header("x-forwarded-for"),
    forwardedProto: header("x-forwarded-proto"),
    clientAddress: proxyaddr(request, (_address, hop) => hop < 1),
  };
}

async function startBackend(name: string): Promise<Backend> {
  const backend = { name, port: 0, draining: false, hung: false } as Backend;
  const server = http.createServer((request, response) => {
    if (request.url === "/readyz" && backend.hung) return; // no answer; stop() closes the connection
    if (request.url === "/readyz") {
      response.writeHead(backend.draining ? 503 : 200, { "content-type": "application/json" }).end(JSON.stringify({ ready: !backend.draining }));
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(seenBy(name, request)));
  });
  // As a node keeps them: the proxy closes an idle connection first, and never sends on one being closed.
  keepIdleConnectionsLongerThanProxies(server);
  const sockets = new WebSocketServer({ server });
  sockets.on("connection", (socket, request) => {
    socket.send(JSON.stringify(seenBy(name, request)));
    socket.on("message", (data) => socket.send(`${name} got ${String(data)}`));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  backend.port = (server.address() as AddressInfo).port;
  backend.stop = async () => {
    for (const client of sockets.clients) client.terminate();
    sockets.close();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  };
  return backend;
}

/** Waits until `socket` is closed (by the proxy: the test's backends never close one), failing after `seconds`. */
function closedWithin(socket: WebSocket, seconds: number): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the socket was still open after ${seconds} s`)), seconds * 1000);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

interface Reply {
  status: number;
  body: string;
}

/** One request on a connection of its own from a chosen loopback address, trusting the test's certificate. */
function request(url: string, init: { localAddress?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(target, { headers: init.headers, localAddress: init.localAddress, rejectUnauthorized: false, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** A game socket as the client opens it, with the first message the backend sent. */
async function openSocket(base: string, query: string, init: { localAddress?: string; headers?: Record<string, string> } = {}) {
  const url = `${base.replace(/^http/, "ws")}/ws?${query}`;
  const socket = new WebSocket(url, { headers: init.headers, localAddress: init.localAddress, rejectUnauthorized: false });
  const messages: string[] = [];
  const waiting: ((text: string) => void)[] = [];
  socket.on("message", (data) => {
    const text = String(data);
    const next = waiting.shift();
    if (next) next(text);
    else messages.push(text);
  });
  const nextMessage = () =>
    new Promise<string>((resolve, reject) => {
      const early = messages.shift();
      if (early !== undefined) return resolve(early);
      const timer = setTimeout(() => reject(new Error(`no message on ${url} within 5 s`)), 5000);
      waiting.push((text) => {
        clearTimeout(timer);
        resolve(text);
      });
    });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
    socket.once("unexpected-response", (_request, response) => reject(new Error(`${url}: ${response.statusCode}`)));
  });
  const seen = JSON.parse(await nextMessage()) as Seen;
  return { socket, seen, nextMessage };
}

/**
 * The file's node-1, node-2 and node-3 as the test's backends, in that order; a null backend's
 * line is taken out of the file, as an operator takes out a node for good.
 */
function withNodes(
  file: string,
  text: string,
  backends: (Backend | null)[],
  lineOf: (n: number) => RegExp,
  addressOf: (n: number, port: number) => [string, string],
): string {
  for (const [i, backend] of backends.entries()) {
    if (backend) {
      const [from, to] = addressOf(i + 1, backend.port);
      text = replaceIn(file, text, from, to);
    } else {
      if (!lineOf(i + 1).test(text)) throw new Error(`docs/deploy/${file}: no line for node-${i + 1}; update the file or this test's rendering`);
      text = text.replace(lineOf(i + 1), "");
    }
  }
  return text;
}

interface RunningProxy {
  url: string;
  /** What the proxy logged of the requests so far, where the file asks it to log them. */
  accessLog?: () => string;
  stop(): Promise<void>;
}

async function startNginx(backends: (Backend | null)[]): Promise<RunningProxy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-nginx-cluster-"));
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const { cert, key } = makeCertificate(dir);
  const file = "nginx-cluster.conf";
  let site = readDeployFile(file);
  site = withNodes(
    file,
    site,
    backends,
    (n) => new RegExp(`^ *server node-${n}:3000 [^\\n]*\\n`, "m"),
    (n, port) => [`server node-${n}:3000 `, `server 127.0.0.1:${port} `],
  );
  site = replaceIn(file, site, "listen 80;", `listen 127.0.0.1:${httpPort};`);
  site = replaceIn(file, site, "listen [::]:80;", "");
  site = replaceIn(file, site, "listen 443 ssl;", `listen 127.0.0.1:${httpsPort} ssl;`);
  site = replaceIn(file, site, "listen [::]:443 ssl;", "");
  site = replaceIn(file, site, "/etc/letsencrypt/live/quiz.example.com/fullchain.pem", cert);
  site = replaceIn(file, site, "/etc/letsencrypt/live/quiz.example.com/privkey.pem", key);
  site = replaceIn(file, site, "/var/log/nginx/quiz-night.access.log", path.join(dir, "quiz-night.access.log"), 2);
  const { child, log } = runNginxWithSite(dir, site);
  const accessLog = path.join(dir, "quiz-night.access.log");
  const running = await finishStarting(`https://127.0.0.1:${httpsPort}`, child, log, dir, "SIGQUIT");
  return { ...running, accessLog: () => (fs.existsSync(accessLog) ? fs.readFileSync(accessLog, "utf8") : "") };
}

async function startHaproxy(backends: (Backend | null)[]): Promise<RunningProxy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quiz-night-haproxy-"));
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const { cert, key } = makeCertificate(dir);
  // HAProxy reads the certificate and its key from one file, as the file's comment says.
  const bundle = path.join(dir, "site.pem");
  fs.writeFileSync(bundle, fs.readFileSync(cert, "utf8") + fs.readFileSync(key, "utf8"));
  const file = "haproxy.cfg";
  let config = readDeployFile(file);
  config = withNodes(
    file,
    config,
    backends,
    (n) => new RegExp(`^ *server node-${n} node-${n}:3000[^\\n]*\\n`, "m"),
    (n, port) => [`node-${n}:3000`, `127.0.0.1:${port}`],
  );
  // 40,000 connections need about 80,000 open files, more than a container may grant (this
  // machine's hard limit is 20,000); HAProxy refuses to start rather than hold fewer.
  config = replaceIn(file, config, "maxconn 40000", "maxconn 4000", 2);
  config = replaceIn(file, config, "bind :::80 v4v6", `bind 127.0.0.1:${httpPort}`);
  config = replaceIn(file, config, "bind :::443 v4v6 ssl crt /etc/haproxy/certs/quiz.example.com.pem", `bind 127.0.0.1:${httpsPort} ssl crt ${bundle}`);
  fs.writeFileSync(path.join(dir, "haproxy.cfg"), config);
  const { child, output } = startChild(findProgram("haproxy")!, ["-db", "-f", path.join(dir, "haproxy.cfg")], { cwd: dir });
  // The file logs to standard output.
  return { ...(await finishStarting(`https://127.0.0.1:${httpsPort}`, child, output, dir, "SIGUSR1")), accessLog: output };
}

async function finishStarting(url: string, child: ChildProcess, output: () => string, dir: string, stopSignal: NodeJS.Signals): Promise<RunningProxy> {
  const running: RunningProxy = {
    url,
    async stop() {
      await stopChild(child, stopSignal);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitUntilServing(`${url}/`, async (at) => (await request(at)).status, child, output);
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}

describe("docs/deploy/compose.cluster.yaml (Docker is not on this machine: its files and names are checked)", () => {
  const compose = readDeployFile("compose.cluster.yaml");

  it("runs the nodes nginx-cluster.conf and haproxy.cfg list, from the repository's Dockerfile", () => {
    const services = [...compose.matchAll(/^ {2}(node-\d+):\n {4}<<: \*node\n {4}hostname: \1$/gm)].map((match) => match[1]);
    expect(services).toEqual(["node-1", "node-2", "node-3"]);
    expect([...readDeployFile("nginx-cluster.conf").matchAll(/^\s*server (node-\d+):3000 /gm)].map((match) => match[1])).toEqual(services);
    expect([...readDeployFile("haproxy.cfg").matchAll(/^\s*server (node-\d+) \1:3000 id \d+/gm)].map((match) => match[1])).toEqual(services);
    expect(compose).toMatch(/^ {2}build: \.\.\/\.\.$/m);
    expect(fs.existsSync(path.join(DEPLOY, "../../Dockerfile"))).toBe(true);
  });

  it("mounts nginx-cluster.conf, gives every node one database, one session secret and TRUST_PROXY=1, and the drain its 30 s", () => {
    expect(compose).toContain("- ./nginx-cluster.conf:/etc/nginx/conf.d/default.conf:ro");
    expect(compose).toMatch(/^ {4}DATABASE_URL: postgres:\/\/quiz:.+@postgres:5432\/quiz$/m);
    expect(compose).toMatch(/^ {4}SESSION_SECRET: \$\{SESSION_SECRET:\?/m);
    expect(compose).toMatch(/^ {4}TRUST_PROXY: "1"$/m);
    expect(compose).toMatch(/^ {2}stop_grace_period: 30s$/m);
  });
});

const PROXIES = [
  {
    name: "nginx (docs/deploy/nginx-cluster.conf)",
    programs: ["nginx", "openssl"],
    start: startNginx,
    readsReadyz: false,
    keepsDrainingSockets: true,
    logsRequests: true,
    failsFirstOnDeadNode: false,
    scheme: "https",
  },
  {
    name: "HAProxy (docs/deploy/haproxy.cfg)",
    programs: ["haproxy", "openssl"],
    start: startHaproxy,
    readsReadyz: true,
    keepsDrainingSockets: false,
    logsRequests: true,
    failsFirstOnDeadNode: false,
    scheme: "https",
  },
  {
    name: "npm run cluster's proxy (scripts/cluster-proxy.ts)",
    programs: [],
    readsReadyz: true,
    keepsDrainingSockets: true,
    logsRequests: false,
    failsFirstOnDeadNode: true,
    scheme: "http",
    async start(backends: (Backend | null)[]): Promise<RunningProxy> {
      // Checked four times a second here, so the drop-out takes a moment; the rule is the same.
      const proxy = await startClusterProxy({
        nodes: backends.filter((backend) => backend !== null).map((backend) => ({ id: backend.name, url: `http://127.0.0.1:${backend.port}` })),
        port: 0,
        healthIntervalMs: 250,
      });
      return { url: `http://127.0.0.1:${proxy.port}`, stop: () => proxy.stop() };
    },
  },
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
      : `three backends behind ${proxy.name}`;
  if (absent.length > 0) console.warn(title);

  describe.skipIf(absent.length > 0)(title, () => {
    let backends: Backend[];
    let running: RunningProxy;
    const sockets: WebSocket[] = [];

    beforeAll(async () => {
      backends = await Promise.all(BACKENDS.map(startBackend));
      running = await proxy.start(backends);
    });

    afterAll(async () => {
      for (const socket of sockets.splice(0)) socket.terminate();
      await running?.stop();
      await Promise.all((backends ?? []).map((backend) => backend.stop()));
    });

    async function backendOf(code: string): Promise<string> {
      const reply = await request(`${running.url}/ws?clientId=routing-check&game=${code}`);
      expect(reply.status, reply.body).toBe(200);
      return (JSON.parse(reply.body) as Seen).backend;
    }

    async function routes(): Promise<Map<string, string>> {
      return new Map(await Promise.all(CODES.map(async (code) => [code, await backendOf(code)] as const)));
    }

    /** Polls until `done` holds of the routing, at most `seconds` (the proxies that poll /readyz take a few). */
    async function routesOnce(done: (routing: Map<string, string>) => boolean, seconds: number): Promise<Map<string, string>> {
      const deadline = Date.now() + seconds * 1000;
      for (;;) {
        const routing = await routes();
        if (done(routing) || Date.now() > deadline) return routing;
        await sleep(250);
      }
    }

    it("sends every socket and request naming one game to one backend, and different games to all three", async () => {
      const routing = await routes();
      expect(new Set(routing.values())).toEqual(new Set(BACKENDS));
      for (const code of CODES.slice(0, 6)) {
        const expected = routing.get(code);
        // A host, two players and a display, from different addresses, and the game's pages.
        for (const [i, clientId] of ["host", "ann", "bob", "display"].entries()) {
          const { socket, seen } = await openSocket(running.url, `clientId=${clientId}-${code}&game=${code}`, { localAddress: `127.0.0.${20 + i}` });
          sockets.push(socket);
          expect(seen.backend, `${clientId} of ${code}`).toBe(expected);
        }
        expect(await backendOf(code)).toBe(expected);
      }
    });

    it("sends requests that name no game round robin over the backends", async () => {
      const reached = new Set<string>();
      for (let i = 0; i < 9; i++) {
        const reply = await request(`${running.url}/join?i=${i}`);
        expect(reply.status).toBe(200);
        reached.add((JSON.parse(reply.body) as Seen).backend);
      }
      expect(reached).toEqual(new Set(BACKENDS));
    });

    it("passes WebSocket frames both ways, with the browser's Host and the upgrade's path and query", async () => {
      const { socket, seen, nextMessage } = await openSocket(running.url, "clientId=frames&game=FRAMES");
      sockets.push(socket);
      expect(seen.url).toBe("/ws?clientId=frames&game=FRAMES");
      expect(seen.host).toBe(new URL(running.url).host);
      for (const text of ["hello", "x".repeat(70_000)]) {
        socket.send(text);
        expect(await nextMessage()).toBe(`${seen.backend} got ${text}`);
      }
    });

    it(`tells the backend the visitor's address (after what the visitor wrote) and the scheme (${proxy.scheme})`, async () => {
      const visitor = "127.0.0.31";
      const written = { "x-forwarded-for": "10.9.8.7", "x-forwarded-proto": "gopher" };
      const { socket, seen } = await openSocket(running.url, "clientId=address&game=ADDRESS", { localAddress: visitor, headers: written });
      sockets.push(socket);
      const reply = JSON.parse((await request(`${running.url}/join`, { localAddress: visitor, headers: written })).body) as Seen;
      for (const what of [seen, reply]) {
        expect(what.forwardedFor).toBe(`10.9.8.7, ${visitor}`);
        // As the nodes read it with TRUST_PROXY=1: the hop the proxy added, never the visitor's own line.
        expect(what.clientAddress).toBe(visitor);
        expect(what.forwardedProto).toBe(proxy.scheme);
      }
    });

    // nginx and HAProxy log requests; the cluster proxy logs only nodes coming and going.
    if (proxy.logsRequests) {
      it("keeps a display's or remote's key out of its log, and says which node answered", async () => {
        const secret = "Ks3cr3tDisplayKeyFromTheQrCode";
        for (const pathname of [`/display/ABCDEF?key=${secret}`, `/remote/ABCDEF?game=ABCDEF&key=${secret}`]) {
          expect((await request(`${running.url}${pathname}`)).status).toBe(200);
        }
        // Both write a request's line when it ends; HAProxy's may take a moment to reach the pipe.
        for (let i = 0; i < 20 && !running.accessLog!().includes("/remote/ABCDEF"); i++) await sleep(100);
        const log = running.accessLog!();
        expect(log).toContain("/display/ABCDEF");
        expect(log).toContain("/remote/ABCDEF");
        expect(log).not.toContain(secret);
        expect(log).not.toContain("key=");
        // nginx ends the line with the node's address, HAProxy names it after the backend's.
        const line = log.split("\n").find((entry) => entry.includes("/remote/ABCDEF"))!;
        expect(line).toMatch(/ 127\.0\.0\.1:\d+$| quiz_night_nodes\/node-\d /);
      });
    }

    if (proxy.readsReadyz) {
      it(`stops sending a draining backend (503 on /readyz) new sockets of its games, moving no other game, and ${proxy.keepsDrainingSockets ? "keeps" : "closes"} its open sockets`, async () => {
        const before = await routes();
        const draining = backends[0]!;
        const code = CODES.find((candidate) => before.get(candidate) === draining.name)!;
        const open = await openSocket(running.url, `clientId=stays&game=${code}`);
        sockets.push(open.socket);
        expect(open.seen.backend).toBe(draining.name);

        draining.draining = true;
        const during = await routesOnce((routing) => ![...routing.values()].includes(draining.name), 15);
        for (const [game, backend] of before) {
          if (backend === draining.name) expect(during.get(game), game).not.toBe(draining.name);
          else expect(during.get(game), game).toBe(backend);
        }
        if (proxy.keepsDrainingSockets) {
          // The socket it already had goes on until the node closes it itself.
          open.socket.send("still here");
          expect(await open.nextMessage()).toBe(`${draining.name} got still here`);
        } else {
          // HAProxy's on-marked-down shutdown-sessions: the client reconnects, to the next node.
          await closedWithin(open.socket, 10);
        }

        // Ready again: its games come back to it, and only those.
        draining.draining = false;
        const after = await routesOnce((routing) => [...routing].every(([game, backend]) => backend === before.get(game)), 15);
        expect(after).toEqual(before);
      });
    }

    if (proxy.readsReadyz) {
      it("closes the open sockets of a backend whose /readyz stops answering (hung), and sends that game's new sockets to another backend", async () => {
        const before = await routes();
        const hung = backends[2]!;
        const code = CODES.find((candidate) => before.get(candidate) === hung.name)!;
        const open = await openSocket(running.url, `clientId=stuck&game=${code}`);
        sockets.push(open.socket);
        expect(open.seen.backend).toBe(hung.name);
        // A second socket, to another backend: left alone.
        const otherCode = CODES.find((candidate) => before.get(candidate) !== hung.name)!;
        const other = await openSocket(running.url, `clientId=bystander&game=${otherCode}`);
        sockets.push(other.socket);

        hung.hung = true;
        try {
          // The backend still answers on the socket: only the failing checks close it.
          await closedWithin(open.socket, 15);
          const reopened = await openSocket(running.url, `clientId=stuck&game=${code}`);
          sockets.push(reopened.socket);
          expect(reopened.seen.backend).not.toBe(hung.name);
          other.socket.send("still here");
          expect(await other.nextMessage()).toBe(`${other.seen.backend} got still here`);
        } finally {
          hung.hung = false;
        }
        const after = await routesOnce((routing) => [...routing].every(([game, backend]) => backend === before.get(game)), 15);
        expect(after).toEqual(before);
      });
    }

    it("moves only the games of a backend taken out of the list for good (consistent hashing: the others keep theirs)", async () => {
      const before = await routes();
      const smaller = await proxy.start([backends[0]!, null, backends[2]!]);
      try {
        const after = new Map(
          await Promise.all(
            CODES.map(async (code) => {
              const reply = await request(`${smaller.url}/ws?clientId=routing-check&game=${code}`);
              expect(reply.status, reply.body).toBe(200);
              return [code, (JSON.parse(reply.body) as Seen).backend] as const;
            }),
          ),
        );
        for (const [game, backend] of before) {
          if (backend === backends[1]!.name) expect(after.get(game), game).not.toBe(backend);
          else expect(after.get(game), game).toBe(backend);
        }
      } finally {
        await smaller.stop();
      }
    });

    it(`moves only the games of a backend that died, each to one backend${proxy.failsFirstOnDeadNode ? " (after failing the one request that finds it dead)" : ", failing no request"}`, async () => {
      const before = await routes();
      const dead = backends[1]!;
      await dead.stop();
      const after = new Map<string, string>();
      let failed = 0;
      // One at a time, so "the first request to a dead node" is one request.
      for (const code of CODES) {
        let reply = await request(`${running.url}/ws?clientId=routing-check&game=${code}`);
        if (reply.status !== 200) {
          failed++;
          reply = await request(`${running.url}/ws?clientId=routing-check&game=${code}`);
        }
        expect(reply.status, reply.body).toBe(200);
        after.set(code, (JSON.parse(reply.body) as Seen).backend);
      }
      // nginx and HAProxy try the next node themselves; the cluster proxy answers 502 once, drops the
      // node, and the client's reconnection reaches the next one.
      expect(failed).toBe(proxy.failsFirstOnDeadNode ? 1 : 0);
      for (const [game, backend] of before) {
        if (backend === dead.name) expect(after.get(game), game).not.toBe(dead.name);
        else expect(after.get(game), game).toBe(backend);
      }
      // The moved games stay put: one backend each, not a new one per request.
      expect(await routes()).toEqual(after);
    });
  });
}
