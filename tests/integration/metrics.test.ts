/** GET /metrics: off without METRICS_TOKEN, behind its bearer token with it, and counting a game played over real sockets. */
import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "#tests/fakes/openai";
import { startFakeStripe, type FakeStripe } from "#tests/fakes/stripe";
import { createGameFixture, signInAs, startTestServer, TestClient, type TestServer } from "./harness";

const TOKEN = "metrics-test-token-0123456789";

/** The value of one sample line (`name{labels} value`), or undefined when the line is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("GET /metrics without METRICS_TOKEN", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it("is not there (404), even with a bearer token", async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });
});

describe("GET /metrics with METRICS_TOKEN", () => {
  let server: TestServer;
  const clients: TestClient[] = [];
  beforeAll(async () => {
    server = await startTestServer({ metricsToken: TOKEN });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server.stop();
  });

  const scrape = (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => fetch(`${server.url}/metrics`, { headers });

  it("refuses a missing or wrong bearer token (401)", async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer wrong-token" },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: TOKEN },
      { authorization: `Basic ${TOKEN}` },
    ];
    for (const headers of attempts) {
      const response = await scrape(headers);
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      expect(await response.text()).not.toContain("quiz_night_");
    }
  });

  it("counts a game played over real sockets, in Prometheus text format", async () => {
    const fixture = await createGameFixture(server);
    const host = await TestClient.connect(server, fixture.hostClientId);
    const ann = await TestClient.connect(server);
    clients.push(host, ann);
    await host.joinAsHost(fixture.gameCode);
    const annId = await ann.joinAsPlayer(fixture.gameCode, "Ann");
    host.send("START_GAME", { gameCode: fixture.gameCode });
    await ann.next("QUESTION_STARTED");
    ann.send("SUBMIT_ANSWER", { gameCode: fixture.gameCode, playerId: annId, answerIndex: 1 });
    await ann.next("ANSWER_ACCEPTED");

    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain;.*version=0\.0\.4/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();

    expect(sample(text, "quiz_night_games")).toBe(1);
    expect(sample(text, "quiz_night_players")).toBe(1);
    expect(sample(text, "quiz_night_sockets")).toBe(2);
    expect(sample(text, 'quiz_night_ws_messages_received_total{type="SUBMIT_ANSWER"}')).toBe(1);
    expect(sample(text, 'quiz_night_ws_messages_received_total{type="JOIN_GAME"}')).toBe(2);
    expect(sample(text, 'quiz_night_ws_messages_received_total{type="START_GAME"}')).toBe(1);
    // A broadcast counts one message per recipient: the host and Ann.
    expect(sample(text, 'quiz_night_ws_messages_sent_total{type="QUESTION_STARTED"}')).toBe(2);
    expect(sample(text, 'quiz_night_ws_messages_sent_total{type="ANSWER_ACCEPTED"}')).toBe(1);
    expect(sample(text, "quiz_night_commit_writes_count")).toBeGreaterThan(0);
    expect(sample(text, "quiz_night_commit_writes_sum")).toBeGreaterThanOrEqual(3); // Ann, the game's start, her answer
    expect(sample(text, "quiz_night_commit_duration_seconds_count")).toBe(sample(text, "quiz_night_commit_writes_count"));
    expect(sample(text, 'quiz_night_commit_duration_seconds_bucket{le="+Inf"}')).toBeGreaterThan(0);
    expect(sample(text, "quiz_night_ai_generations_total")).toBe(0);
    expect(sample(text, "quiz_night_ai_generation_failures_total")).toBe(0);
    expect(text).toContain("# TYPE quiz_night_stripe_webhook_events_total counter");
    expect(text).toContain("# TYPE nodejs_eventloop_lag_seconds gauge");
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("counts malformed messages under one label, whatever they claim to be", async () => {
    const client = await TestClient.connect(server);
    clients.push(client);
    client.sendRaw(JSON.stringify({ type: "DROP_TABLES", payload: {} }));
    await client.next("ERROR");
    const text = await (await scrape()).text();
    expect(sample(text, 'quiz_night_ws_messages_received_total{type="invalid"}')).toBe(1);
    expect(text).not.toContain("DROP_TABLES");
    expect(sample(text, 'quiz_night_ws_messages_sent_total{type="ERROR"}')).toBeGreaterThanOrEqual(1);
  });
});

describe("GET /metrics with AI generation and Stripe webhooks configured", () => {
  const WEBHOOK_SECRET = "whsec_metrics_test_secret";
  let openai: FakeOpenAI;
  let stripe: FakeStripe;
  let server: TestServer;
  beforeAll(async () => {
    openai = await startFakeOpenAI();
    stripe = await startFakeStripe();
    server = await startTestServer({
      metricsToken: TOKEN,
      ai: { apiKey: "test-key", baseURL: openai.baseURL, model: "test-model", timeoutMs: 2000 },
      billing: { secretKey: "sk_test_metrics", webhookSecret: WEBHOOK_SECRET, prices: {}, apiBase: stripe.apiBase },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await openai?.close();
    await stripe?.close();
  });

  it("counts AI generations and their failures", async () => {
    const caller = await signInAs(server, "user", "premium");
    const generate = (topic: string) =>
      server.api("/api/generate-quiz", {
        body: { title: "", description: "", topic, difficulty: "medium", kinds: "choice", questionCount: 3, timeLimit: 20 },
        clientId: caller.clientId,
        headers: { cookie: caller.cookie },
      });
    expect((await generate("Volcanoes")).status).toBe(201);
    expect((await generate("Anything [refuse]")).status).toBeGreaterThanOrEqual(400);
    const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(sample(text, "quiz_night_ai_generations_total")).toBe(2);
    expect(sample(text, "quiz_night_ai_generation_failures_total")).toBe(1);
  });

  it("counts webhook events by type and outcome, and a bad signature without trusting its type", async () => {
    const payload = JSON.stringify({
      id: `evt_${randomUUID()}`,
      object: "event",
      type: "customer.created",
      created: Math.floor(Date.now() / 1000),
      data: { object: {} },
    });
    const header = new Stripe("sk_test_signer_only").webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const deliver = (signature: string) => server.api("/api/stripe/webhook", { body: payload, headers: { "stripe-signature": signature } });
    expect((await deliver(header)).status).toBe(200);
    expect((await deliver(header)).status).toBe(200);
    expect((await deliver("t=1,v1=forged")).status).toBe(400);
    const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(sample(text, 'quiz_night_stripe_webhook_events_total{type="customer.created",outcome="ignored"}')).toBe(1);
    expect(sample(text, 'quiz_night_stripe_webhook_events_total{type="customer.created",outcome="duplicate"}')).toBe(1);
    expect(sample(text, 'quiz_night_stripe_webhook_events_total{type="unverified",outcome="rejected"}')).toBe(1);
  });
});
