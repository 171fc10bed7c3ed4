/**
 * The guard of issue 26: every route of the app, found from the route files, gets each hostile body
 * (repeated fields, huge array indexes, long fields, deep JSON, oversized and chunked bodies, a zip
 * bomb, a decompression-bomb picture) as a stranger's curl sends it, with a signed-in session so
 * the route's own reading is reached. Each is refused with a 4xx, and a live game on the same server
 * keeps its heartbeat: the event loop's worst delay stays under 100 ms while the attack runs, the
 * health check keeps answering, and the game's next question and answers go through afterwards.
 */
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { MAX_TIME_LIMIT_SECONDS } from "#app/game/rules";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "#tests/fakes/openai";
import { startFakeStripe, type FakeStripe } from "#tests/fakes/stripe";
import {
  appRoutes,
  chunkedOversizedBody,
  deepJson,
  hugeIndexes,
  imageBombUpload,
  longFields,
  oversizedBody,
  repeatedFields,
  sendHostile,
  zipBombUpload,
  type HostileRequest,
} from "#tests/hostile-requests";
import { createGameFixture, signInAs, startTestServer, TestClient, type SignedIn, type TestServer } from "./harness";

/** The event loop's worst delay a live game may see while one route is attacked (issue 26). */
const MAX_LOOP_DELAY_MS = 100;

let server: TestServer;
let stripe: FakeStripe;
let openAi: FakeOpenAI;
let user: SignedIn;
let gameCode: string;
let host: TestClient;
const players: { client: TestClient; id: number }[] = [];
let shapes: HostileRequest[];

beforeAll(async () => {
  stripe = await startFakeStripe();
  openAi = await startFakeOpenAI();
  server = await startTestServer({
    billing: { secretKey: "sk_test_hostile", webhookSecret: "whsec_hostile", prices: { standard: "price_standard" }, apiBase: stripe.apiBase },
    ai: { apiKey: "test-key", baseURL: openAi.baseURL, model: "test-model", timeoutMs: 5_000 },
  });
  user = await signInAs(server);
  const fixture = await createGameFixture(server, { timeLimit: MAX_TIME_LIMIT_SECONDS });
  gameCode = fixture.gameCode;
  host = await TestClient.connect(server, fixture.hostClientId);
  await host.joinAsHost(gameCode);
  for (let i = 0; i < 5; i++) {
    const client = await TestClient.connect(server);
    players.push({ client, id: await client.joinAsPlayer(gameCode, `Player ${i + 1}`) });
  }
  host.send("START_GAME", { gameCode });
  for (const player of players) await player.client.next("QUESTION_STARTED");
  // Built before any attack, so that the test's own work is not counted as the server's.
  shapes = [repeatedFields(), hugeIndexes(), longFields(), deepJson(), oversizedBody(), chunkedOversizedBody(), zipBombUpload(), imageBombUpload()];
}, 120_000);

afterAll(async () => {
  for (const client of [host, ...players.map((player) => player.client)]) await client?.close();
  await server?.stop();
  await stripe?.close();
  await openAi?.close();
});

/** `/healthz` asked every 20 ms while `attack` runs: the slowest answer it got. */
async function slowestHealthCheckDuring(attack: Promise<unknown>): Promise<number> {
  let done = false;
  let slowest = 0;
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      // A connection of its own each time: a kept-alive one may be closed under it by the server's idle timeout.
      const status = await new Promise<number>((resolve, reject) => {
        http
          .get(`${server.url}/healthz`, { agent: false }, (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode ?? 0));
          })
          .on("error", reject);
      });
      expect(status).toBe(200);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    await attack;
  } finally {
    done = true;
    await probe;
  }
  return slowest;
}

describe("every route refuses hostile bodies without stalling a live game", () => {
  const routes = appRoutes({ code: "ABCDEF", gameCode: "ABCDEF", id: "1", gameId: "1" });

  it("finds the app's routes from its route files", () => {
    expect(routes).toContain("/create");
    expect(routes).toContain("/api/quizzes/import");
    expect(routes).toContain("/api/games/ABCDEF/teams");
    expect(routes).toContain("/create/template.csv");
    expect(routes.length).toBeGreaterThan(40);
  });

  it.each(routes)("POST %s", async (routeTemplate) => {
    // The live game's own code where a route takes one, so its room is what the route would load.
    const route = routeTemplate.replaceAll("ABCDEF", gameCode);
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const answers: { shape: string; status: number }[] = [];
    const slowestHealthCheck = await slowestHealthCheckDuring(
      (async () => {
        for (const shape of shapes) {
          const answer = await sendHostile(server.url, route, shape, { cookie: user.cookie });
          answers.push({ shape: shape.name, status: answer.status });
        }
      })(),
    );
    loopDelay.disable();
    for (const answer of answers) {
      expect(answer.status, `${route}: ${answer.shape}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${route}: ${answer.shape}`).toBeLessThan(500);
    }
    expect(loopDelay.max / 1e6, `${route}: the event loop's worst delay (ms)`).toBeLessThan(MAX_LOOP_DELAY_MS);
    expect(slowestHealthCheck, `${route}: the slowest health check (ms)`).toBeLessThan(1_000);
  });

  it("leaves the live game playing: answers acknowledged, the next question delivered", async () => {
    for (const { client, id } of players) {
      client.send("SUBMIT_ANSWER", { gameCode, playerId: id, answerIndex: 1, time: 0 });
      await client.next("ANSWER_ACCEPTED");
    }
    host.send("NEXT_QUESTION", { gameCode });
    for (const { client } of players) expect(await client.next("QUESTION_STARTED", (payload) => payload.questionNumber === 2)).toBeTruthy();
  });
});
