/**
 * What GET /metrics reports, in Prometheus's text format. One registry per server: the tests start
 * several servers in one process, and a process-wide default registry would mix their counts (and
 * refuse the second server's metrics of the same name).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { OutboxMetrics } from "./game-outbox";
import type { Logger } from "./logger";

/** What the gauges read when scraped: nothing is counted on the way for them. */
export interface MetricSources {
  games: () => number;
  players: () => number;
  sockets: () => number;
  /**
   * Games this node owns (issue 28): on one node, every game in memory; in a cluster, those whose
   * ownership row names this node. Counts `games` when absent.
   */
  gamesOwned?: () => number;
  /** Whether this node takes new work (`/readyz`): 1 or 0. 1 when absent. */
  ready?: () => Promise<boolean>;
}

/** This node's name in a cluster: NODE_ID, or the machine's host name (docs/configuration.md). */
export interface NodeIdentity {
  nodeId: string;
}

/**
 * A Stripe webhook event as the route saw it: applied, duplicate, ignored or cancelled (a
 * subscription of no account; subscription.server's outcomes), failed while being applied, or
 * rejected before (its signature did not verify).
 */
export type WebhookOutcome = "applied" | "duplicate" | "ignored" | "cancelled" | "failed" | "rejected";

type CounterChild = ReturnType<Counter<"type">["labels"]>;

/**
 * A labelled counter whose children are looked up once per label: `labels()` builds a key from
 * its arguments on every call, which a message handler should not pay for.
 */
function byType(counter: Counter<"type">): (type: string) => CounterChild {
  const children = new Map<string, CounterChild>();
  return (type) => {
    let child = children.get(type);
    if (!child) {
      child = counter.labels(type);
      children.set(type, child);
    }
    return child;
  };
}

export class ServerMetrics implements OutboxMetrics {
  readonly registry = new Registry();
  private sources: MetricSources = { games: () => 0, players: () => 0, sockets: () => 0 };
  private readonly receivedOf: (type: string) => CounterChild;
  private readonly sentOf: (type: string) => CounterChild;
  private readonly commitWrites: Histogram;
  private readonly commitSeconds: Histogram;
  private readonly sharedCommitGames: Histogram;
  private readonly sharedCommitSeconds: Histogram;
  private readonly aiGenerations: Counter;
  private readonly aiFailures: Counter;
  private readonly webhookEvents: Counter<"type" | "outcome">;
  private readonly claims: Counter;
  private readonly handovers: Counter;
  private readonly forwardedSockets: Counter;
  private readonly fencedCommits: Counter;

  constructor(identity: NodeIdentity = { nodeId: "local" }) {
    const registers = [this.registry];
    const sources = () => this.sources;
    // An info metric rather than a label on every series: a query joins it on `instance` for the
    // node's name (`* on(instance) group_left(node) quiz_night_node_info`), and the series of one
    // node keep the names and labels they had before issue 28.
    new Gauge({ name: "quiz_night_node_info", help: "This node's name (NODE_ID) as a label; always 1.", labelNames: ["node"], registers }).set(
      { node: identity.nodeId },
      1,
    );
    new Gauge({
      name: "quiz_night_games_owned",
      help: "Games this node owns: on one node every live game in memory, in a cluster those whose ownership names this node.",
      registers,
      collect() {
        const { gamesOwned, games } = sources();
        this.set((gamesOwned ?? games)());
      },
    });
    new Gauge({
      name: "quiz_night_ready",
      help: "1 while this node takes new work (GET /readyz answers 200), 0 once it drains or while its database does not answer.",
      registers,
      async collect() {
        const ready = sources().ready;
        this.set(ready === undefined || (await ready()) ? 1 : 0);
      },
    });
    this.claims = new Counter({
      name: "quiz_night_game_claims_total",
      help: "Games this node claimed: free ones, and those whose owner was dead.",
      registers,
    });
    this.handovers = new Counter({
      name: "quiz_night_game_handovers_total",
      help: "Games this node handed over to another while it drained.",
      registers,
    });
    this.forwardedSockets = new Counter({
      name: "quiz_night_forwarded_sockets_total",
      help: "Sockets this node forwarded to the owner of their game, another node.",
      registers,
    });
    this.fencedCommits = new Counter({
      name: "quiz_night_fenced_commits_total",
      help: "Game commits refused because this node no longer owned the game (its epoch was taken).",
      registers,
    });
    new Gauge({
      name: "quiz_night_games",
      help: "Games loaded in this server (live rooms).",
      registers,
      collect() {
        this.set(sources().games());
      },
    });
    new Gauge({
      name: "quiz_night_players",
      help: "Players in the live games, connected or not.",
      registers,
      collect() {
        this.set(sources().players());
      },
    });
    new Gauge({
      name: "quiz_night_sockets",
      help: "Open WebSocket connections.",
      registers,
      collect() {
        this.set(sources().sockets());
      },
    });
    this.receivedOf = byType(
      new Counter({
        name: "quiz_night_ws_messages_received_total",
        help: "WebSocket messages received, by type (invalid: not a message of the protocol).",
        labelNames: ["type"],
        registers,
      }),
    );
    this.sentOf = byType(
      new Counter({
        name: "quiz_night_ws_messages_sent_total",
        help: "WebSocket messages sent, by type; a broadcast counts one per recipient.",
        labelNames: ["type"],
        registers,
      }),
    );
    this.commitWrites = new Histogram({
      name: "quiz_night_commit_writes",
      help: "Rows and changes in one group commit of a game.",
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000],
      registers,
    });
    this.commitSeconds = new Histogram({
      name: "quiz_night_commit_duration_seconds",
      help: "How long one group commit of a game took, retries not included.",
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.sharedCommitGames = new Histogram({
      name: "quiz_night_shared_commit_games",
      help: "Games whose group commits went to SQLite in one shared transaction.",
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
      registers,
    });
    this.sharedCommitSeconds = new Histogram({
      name: "quiz_night_shared_commit_duration_seconds",
      help: "How long one shared transaction of every due game's group commit took.",
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.aiGenerations = new Counter({ name: "quiz_night_ai_generations_total", help: "AI quiz generations asked of the model.", registers });
    this.aiFailures = new Counter({ name: "quiz_night_ai_generation_failures_total", help: "AI quiz generations that produced no quiz.", registers });
    this.webhookEvents = new Counter({
      name: "quiz_night_stripe_webhook_events_total",
      help: "Stripe webhook events by type and outcome (type unverified: the signature failed).",
      labelNames: ["type", "outcome"],
      registers,
    });
  }

  /** Reads the live counts from the hub and the transport, which exist only after this does. */
  watch(sources: MetricSources): void {
    this.sources = sources;
  }

  /** Node's own figures (event-loop lag, memory, CPU, handles): only for a server that serves /metrics. */
  collectProcessMetrics(): void {
    collectDefaultMetrics({ register: this.registry });
  }

  received(type: string): void {
    this.receivedOf(type).inc();
  }

  sent(type: string, count: number): void {
    this.sentOf(type).inc(count);
  }

  committed(writes: number, seconds: number): void {
    this.commitWrites.observe(writes);
    this.commitSeconds.observe(seconds);
  }

  sharedCommit(games: number, seconds: number): void {
    this.sharedCommitGames.observe(games);
    this.sharedCommitSeconds.observe(seconds);
  }

  aiGeneration(ok: boolean): void {
    this.aiGenerations.inc();
    if (!ok) this.aiFailures.inc();
  }

  webhookEvent(type: string, outcome: WebhookOutcome): void {
    this.webhookEvents.labels(type, outcome).inc();
  }

  /** This node claimed a game (a free one, or one whose owner was dead). */
  gameClaimed(): void {
    this.claims.inc();
  }

  /** This node handed a game over to another while it drained (server/drain.ts). */
  gameHandedOver(): void {
    this.handovers.inc();
  }

  /** This node forwarded a socket to the owner of its game. */
  socketForwarded(): void {
    this.forwardedSockets.inc();
  }

  /** A commit of this node was refused: another node owns the game now. */
  commitFenced(): void {
    this.fencedCommits.inc();
  }
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * GET /metrics for a scraper holding `token` as a bearer token. Both sides are hashed first so
 * the comparison takes the same time whatever the length or content of what was sent.
 */
export function metricsEndpoint(metrics: ServerMetrics, token: string, logger: Logger): RequestHandler {
  const expected = digest(`Bearer ${token}`);
  return async (req, res) => {
    res.set("Cache-Control", "no-store");
    if (!timingSafeEqual(digest(req.get("authorization") ?? ""), expected)) {
      res.status(401).set("WWW-Authenticate", "Bearer").send("Unauthorized");
      return;
    }
    try {
      res.set("Content-Type", metrics.registry.contentType).send(await metrics.registry.metrics());
    } catch (error) {
      // A failing collector must not take the process down with an unhandled rejection.
      logger.error({ event: "metrics_failed", err: error }, "collecting metrics failed");
      res.status(500).send("Collecting metrics failed");
    }
  };
}
