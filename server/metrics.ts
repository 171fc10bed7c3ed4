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

  constructor() {
    const registers = [this.registry];
    const sources = () => this.sources;
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
