/**
 * The consistent-hash proxy in front of `npm run cluster`'s nodes (scripts/cluster.ts): the routing
 * rule of docs/deploy/nginx-cluster.conf and docs/deploy/haproxy.cfg, for trying a cluster without
 * installing either. A request whose query string names a game (`game=CODE`: the game socket,
 * /ws?clientId=...&game=CODE) goes to the node its code hashes to over the live nodes; every other
 * request goes round robin, since any node answers it from the database. A node whose /readyz fails
 * twice in a row (draining, or dead) drops out until it answers 200 twice; a refused connection
 * drops it at once. The visitor's address is appended to X-Forwarded-For, as nginx does.
 *
 * A node that stops answering at all (its checks time out or find nothing listening: hung, as under
 * SIGSTOP, or dead) also loses the game sockets the proxy carries to it, both sides closed, as
 * HAProxy's `on-marked-down shutdown-sessions` does (docs/deploy/haproxy.cfg): the browsers
 * reconnect through the proxy to the next node, which takes the game over once the owner's lease
 * has lapsed (issue 28: a hung owner replaced within 10 s). A node that answers 503 is draining and
 * closes its sockets itself at each game's safe point (server/drain.ts), so those are left alone.
 *
 * The proxying itself (HTTP and WebSocket upgrades) is http-proxy-3's; the hash is rendezvous
 * hashing (highest random weight): each node scores hash(node, code) and the highest live score
 * wins, so a node leaving moves only the games it had, and a node joining takes about one game in N
 * from the others. Not the same function as nginx's or HAProxy's ring, so the same code may land on
 * another node behind each of them; what matters is that one proxy sends one code to one node.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { createProxyServer } from "http-proxy-3";

export interface ClusterNode {
  /** A name that stays the node's own across restarts (NODE_ID): the hash depends on it, not on the port. */
  id: string;
  /** Where the proxy reaches it, e.g. http://127.0.0.1:3001. */
  url: string;
}

/** A node's score for a game: the first 48 bits of SHA-256 over both names (any well-mixed hash would do). */
function score(nodeId: string, gameCode: string): number {
  return createHash("sha256").update(nodeId).update("\0").update(gameCode).digest().readUIntBE(0, 6);
}

/** The nodes in the order a game tries them: the first is its node, the next takes over if that one is gone. */
export function rendezvousOrder(gameCode: string, nodeIds: readonly string[]): string[] {
  return nodeIds
    .map((id) => ({ id, score: score(id, gameCode) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .map((node) => node.id);
}

/** The node a game's requests go to among `nodeIds`, or undefined when there is none. */
export function nodeForGame(gameCode: string, nodeIds: readonly string[]): string | undefined {
  return rendezvousOrder(gameCode, nodeIds)[0];
}

/** The `game` query argument a request is routed by, as nginx's $arg_game reads it: the first one, empty meaning none. */
export function gameOf(requestUrl: string | undefined): string | null {
  const query = (requestUrl ?? "").split("?")[1];
  if (query === undefined) return null;
  return new URLSearchParams(query).get("game") || null;
}

export interface ClusterProxyOptions {
  nodes: readonly ClusterNode[];
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** What a node answers 200 on while it takes games (docs/deployment.md, "Several nodes"). */
  healthPath?: string;
  healthIntervalMs?: number;
  /** Failed checks in a row before a node drops out, and passed ones before it is back (HAProxy's fall and rise). */
  fall?: number;
  rise?: number;
  /** Where the proxy says which node came and went; silent when absent. */
  log?: (line: string) => void;
}

export interface ClusterProxy {
  url: string;
  port: number;
  /** The ids of the nodes taking requests now, in the order given. */
  liveNodes(): string[];
  /** Checks every node once now (the tests use it to wait less). */
  checkNow(): Promise<void>;
  stop(): Promise<void>;
}

interface NodeState extends ClusterNode {
  live: boolean;
  /** Checks in a row that disagreed with `live`. */
  streak: number;
  /** Checks in a row that got no answer at all (a timeout or a failed connection): `fall` of them close its sockets. */
  silent: number;
  /** The upgraded sockets carried to this node: the client's, and the node's once connected. */
  upgrades: Set<CarriedUpgrade>;
}

interface CarriedUpgrade {
  client: Duplex;
  node?: Duplex;
}

export async function startClusterProxy(options: ClusterProxyOptions): Promise<ClusterProxy> {
  if (options.nodes.length === 0) throw new Error("a cluster proxy needs at least one node");
  const healthPath = options.healthPath ?? "/readyz";
  const [fall, rise] = [options.fall ?? 2, options.rise ?? 2];
  const log = options.log ?? (() => {});
  // Every node starts live, as HAProxy's do: the first round of checks runs before the proxy listens.
  const nodes: NodeState[] = options.nodes.map((node) => ({ ...node, live: true, streak: 0, silent: 0, upgrades: new Set() }));
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const liveIds = () => nodes.filter((node) => node.live).map((node) => node.id);

  function setLive(node: NodeState, live: boolean, why: string): void {
    node.streak = 0;
    if (node.live === live) return;
    node.live = live;
    log(`${node.id} is ${live ? "back" : "out"} (${why}); live: ${liveIds().join(", ") || "none"}`);
  }

  /** Closes both sides of every socket carried to `node`: it is hung or dead, and its clients reconnect to the next node. */
  function shutDownSessions(node: NodeState, why: string): void {
    if (node.upgrades.size === 0) return;
    log(`${node.id}: closing its ${node.upgrades.size} sockets (${why})`);
    for (const upgrade of node.upgrades) {
      upgrade.client.destroy();
      upgrade.node?.destroy();
    }
    node.upgrades.clear();
  }

  async function check(node: NodeState): Promise<void> {
    let healthy: boolean;
    let answered: boolean;
    try {
      const reply = await fetch(new URL(healthPath, node.url), { signal: AbortSignal.timeout(options.healthIntervalMs ?? 1000) });
      await reply.body?.cancel();
      healthy = reply.status === 200;
      answered = true;
    } catch {
      healthy = false;
      answered = false;
    }
    if (healthy === node.live) node.streak = 0;
    else if (++node.streak >= (healthy ? rise : fall)) setLive(node, healthy, `${healthPath} ${healthy ? "answers" : "fails"}`);
    // Counted apart from `streak`: a draining node (out already, on 503) that then hangs loses its sockets too.
    node.silent = answered ? 0 : node.silent + 1;
    if (node.silent >= fall) shutDownSessions(node, `${healthPath} does not answer`);
  }
  const checkAll = () => Promise.all(nodes.map(check)).then(() => undefined);

  let roundRobin = 0;
  /** The node for a request, or undefined when no node is live. */
  function pick(requestUrl: string | undefined): NodeState | undefined {
    const game = gameOf(requestUrl);
    const live = liveIds();
    if (live.length === 0) return undefined;
    if (game !== null) return byId.get(nodeForGame(game, live)!);
    roundRobin = (roundRobin + 1) % live.length;
    return byId.get(live[roundRobin]!);
  }

  /** As nginx's $proxy_add_x_forwarded_for and X-Forwarded-Proto $scheme: the peer appended, the scheme replaced. */
  function addForwardedHeaders(request: http.IncomingMessage): void {
    const peer = request.socket.remoteAddress ?? "";
    const before = request.headers["x-forwarded-for"];
    request.headers["x-forwarded-for"] = before ? `${String(before)}, ${peer}` : peer;
    request.headers["x-forwarded-proto"] = "http";
  }

  /**
   * A refused connection drops the node at once (nothing listens: it died); its checks bring it
   * back. Not a reset: a live node resets the sockets it ends itself (a client that missed its
   * heartbeat), which says nothing about the node.
   */
  function onNodeError(node: NodeState, error: NodeJS.ErrnoException): void {
    if (error.code === "ECONNREFUSED") {
      setLive(node, false, error.code);
      shutDownSessions(node, error.code);
    }
    log(`${node.id}: ${error.code ?? error.message}`);
  }

  const proxy = createProxyServer({ ws: true });
  // The library's own error event: every call below passes a callback, so this only keeps an
  // unexpected error from ending the process.
  proxy.on("error", (error) => log(`proxy: ${error.message}`));
  /** The upgrade each client socket is carried in, until its request to the node has a socket to record. */
  const upgradeOf = new WeakMap<Duplex, CarriedUpgrade>();
  // The node's side of an upgrade, so that a shutdown closes it too: the library only half-closes
  // it after the client's side, and a hung node would never answer that end.
  proxy.on("proxyReqWs", (proxyRequest: http.ClientRequest, _request: http.IncomingMessage, socket: Duplex) => {
    const upgrade = upgradeOf.get(socket);
    if (upgrade) proxyRequest.once("socket", (nodeSocket) => (upgrade.node = nodeSocket));
  });

  const server = http.createServer((request, response) => {
    const node = pick(request.url);
    if (!node) {
      response.writeHead(503, { "content-type": "text/plain", "retry-after": "1" }).end("No Quiz Night node is live.\n");
      return;
    }
    addForwardedHeaders(request);
    proxy.web(request, response, { target: node.url }, (error) => {
      onNodeError(node, error as NodeJS.ErrnoException);
      if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
      response.end(`Quiz Night node ${node.id} did not answer.\n`);
    });
  });
  /** The clients' upgraded sockets: the HTTP server no longer tracks them, and stop() ends them. */
  const openUpgrades = new Set<Duplex>();
  server.on("upgrade", (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    openUpgrades.add(socket);
    socket.once("close", () => openUpgrades.delete(socket));
    const node = pick(request.url);
    if (!node) {
      socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    addForwardedHeaders(request);
    const upgrade: CarriedUpgrade = { client: socket };
    upgradeOf.set(socket, upgrade);
    node.upgrades.add(upgrade);
    socket.once("close", () => node.upgrades.delete(upgrade));
    // The client reconnects by itself (as after a node's restart) and then reaches the next node.
    // A refused connection is not retried on the next node (HAProxy's `retries` and `redispatch`):
    // http-proxy-3 ends the client's socket itself after this callback; the browser's reconnection
    // finds the node dropped and reaches the next one.
    proxy.ws(request, socket as Socket, head, { target: node.url }, (error) => onNodeError(node, error as NodeJS.ErrnoException));
  });

  await checkAll();
  const timer = setInterval(() => void checkAll(), options.healthIntervalMs ?? 1000);
  timer.unref();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = !options.host || options.host === "0.0.0.0" || options.host === "::" ? "localhost" : options.host;

  return {
    url: `http://${shownHost}:${port}`,
    port,
    liveNodes: liveIds,
    checkNow: checkAll,
    async stop() {
      clearInterval(timer);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const socket of openUpgrades) socket.destroy();
      // The nodes' ends too: the library only half-closes them, and they would hold their files until each node goes.
      for (const node of nodes) for (const upgrade of node.upgrades) upgrade.node?.destroy();
      await closed;
    },
  };
}
